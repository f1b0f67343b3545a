#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build embbag, then
# configures and builds it in ./build. Cheap to run again: packages already
# installed are not fetched, and ninja rebuilds only what changed.
#
#   utils/setup.sh            # packages + configure + build
#   BUILD_DIR=out utils/setup.sh
#   SANITIZE=1 utils/setup.sh # the instrumented build in ./build-san:
#                             # clang-22, ASan + UBSan, assertions on,
#                             # libFuzzer coverage, and the embbag-fuzz target
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SANITIZE="${SANITIZE:-0}"
if [ "$SANITIZE" = 1 ]; then
  BUILD_DIR="${BUILD_DIR:-$ROOT/build-san}"
else
  BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
fi
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(
  cmake ninja-build g++ python3 python3-numpy python3-torch
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libomp-22-dev
  mpich libmpich-dev
)
if [ "$SANITIZE" = 1 ]; then
  PACKAGES+=(clang-22 libclang-rt-22-dev libfuzzer-22-dev)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== configuring $BUILD_DIR"
  CONFIG=(
    -DCMAKE_BUILD_TYPE=Release
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir"
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
  )
  if [ "$SANITIZE" = 1 ]; then
    # libMLIR.so itself is not instrumented: the sanitizers and the fuzzer's
    # coverage see embbag's code and the LLVM/MLIR headers it instantiates.
    CONFIG+=(
      -DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang"
      -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++"
      -DCMAKE_BUILD_TYPE=RelWithDebInfo
      -DEMBBAG_ENABLE_ASSERTIONS=ON
      "-DLLVM_USE_SANITIZER=Address;Undefined"
      "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
      -DLLVM_USE_SANITIZE_COVERAGE=ON
    )
  fi
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" "${CONFIG[@]}"
fi

echo "== building"
cmake --build "$BUILD_DIR"

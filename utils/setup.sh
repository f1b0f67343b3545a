#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build embbag, then
# configures and builds it in ./build. Cheap to run again: packages already
# installed are not fetched, and ninja rebuilds only what changed.
#
#   utils/setup.sh            # packages + configure + build
#   BUILD_DIR=out utils/setup.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(
  cmake ninja-build g++ python3 python3-numpy
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
)

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
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
fi

echo "== building"
cmake --build "$BUILD_DIR"

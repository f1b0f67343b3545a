#!/usr/bin/env bash
# Builds, on the build machine, what run.sh runs on the GPU machine's 16
# Xeon cores (benchmarks/README.md, "16 cores (issue 23)"): f32 offsets-sum
# kernels (batch 16384 x 64, i32 indices) on the four tables of the scaling
# targets, compiled by
# embbag-aot for AVX-512 (--mcpu=x86-64-v4, target=avx512):
#   par_chk  parallel=1, checks on (the default)
#   par_unc  parallel=1, checks=0
#   par_pf0  parallel=1, checks on, prefetch-distance=0
#   ser_chk  serial, checks on
# the hand-written AVX-512 kernel on OpenMP threads (hand_parallel.cpp), and
# a copy of LLVM's libomp, all in benchmarks/manycore/out (git-ignored;
# carry it to the device run).
#
#   benchmarks/manycore/build.sh [BUILD_DIR]      # default: ./build
#
# MARCH=znver3 TARGET=avx2 builds the same for an AVX2 machine instead
# (to try scale.py on the build machine); MARCH=native TARGET=host for this
# machine. TINY=1 builds the tiny cases (scale.py --tiny, the lit test
# test/Integration/manycore-bench.test); OUT_DIR puts the files elsewhere;
# AOT names an embbag-aot to use as it is (no cmake build).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="${OUT_DIR:-$ROOT/benchmarks/manycore/out}"
LLVM=/usr/lib/llvm-22
MARCH="${MARCH:-x86-64-v4}"
TARGET="${TARGET:-avx512}"
mkdir -p "$OUT"
if [ -z "${AOT:-}" ]; then
  cmake --build "$BUILD" --target embbag-aot
  AOT="$BUILD/bin/embbag-aot"
fi
MCPU=()
[ "$MARCH" = native ] || MCPU=(--mcpu="$MARCH")

python3 - "$OUT" "$ROOT/benchmarks" "${TINY:-0}" <<'PY'
import os, sys
out, bench, tiny = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
sys.path.insert(0, bench)
from gen_kernels import kernel
sys.path.insert(0, os.path.join(bench, "manycore"))
from scale import CASES, TINY_CASES
cases = TINY_CASES if tiny else CASES
for v in ("par_chk", "par_unc", "par_pf0", "ser_chk"):
    with open(os.path.join(out, f"k_{v}.mlir"), "w") as f:
        f.write("\n".join(kernel(f"{name}_{v}", cfg, "offsets", "sum", 32,
                                 "f32") for name, cfg in cases.items()))
PY

declare -A options=([par_chk]="parallel=1" [par_unc]="parallel=1"
                    [par_pf0]="parallel=1 prefetch-distance=0" [ser_chk]="")
declare -A checks=([par_chk]=abort [par_unc]=off [par_pf0]=abort [ser_chk]=abort)
for v in par_chk par_unc par_pf0 ser_chk; do
  "$AOT" "${MCPU[@]}" --checks=${checks[$v]} \
    --pipeline-options="target=$TARGET ${options[$v]}" \
    --Xlinker-arg=-L$LLVM/lib --Xlinker-arg=-lomp \
    --Xlinker-arg='-Wl,-rpath,$ORIGIN' \
    "$OUT/k_$v.mlir" -o "$OUT/lib$v.so"
done
# The hand kernel with LLVM's OpenMP, as embbag's kernels (one runtime in the
# process); with g++'s libgomp where clang++-22 is missing (the parent
# process's OMP_NUM_THREADS then sets its threads).
CXX_OMP=clang++-22
command -v "$CXX_OMP" >/dev/null || CXX_OMP=g++
"$CXX_OMP" -O3 -march="$MARCH" -std=c++17 -fopenmp -fPIC -shared \
  "$ROOT/benchmarks/manycore/hand_parallel.cpp" -L$LLVM/lib \
  -Wl,-rpath,'$ORIGIN' -o "$OUT/libhand.so"
cp -L "$LLVM/lib/libomp.so.5" "$OUT/"
ls -la "$OUT"

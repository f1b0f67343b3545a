#!/usr/bin/env bash
# The thread scaling of the runtime checks (README.md, "Thread scaling of
# the checks"):
# f32 embbag.offsets sum, batch 16384 bags of 64 indices, on tables of
# 4M x 16, 4M x 64 and 100k x 64; each kernel with checks and with
# checks=0, serial and parallel=1, the parallel ones on 1 and 2 OpenMP
# threads (scaling.cpp).
#
#   benchmarks/scaling.sh [ROUNDS]   (default 15; needs ./build, 1.4 GB RAM)
#
# Environment: BUILD_DIR (default ./build), OUT (default
# $BUILD_DIR/benchmarks/scaling).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="${OUT:-$BUILD_DIR/benchmarks/scaling}"
LLVM=/usr/lib/llvm-22
mkdir -p "$OUT"

python3 - "$OUT" "$ROOT/benchmarks" <<'PY'
import os, sys
out, bench = sys.argv[1], sys.argv[2]
sys.path.insert(0, bench)
from gen_kernels import kernel
# name: (rows, dim, batch, bag)
CASES = {"t4m_d16": (4_000_000, 16, 16384, 64),
         "t4m_d64": (4_000_000, 64, 16384, 64),
         "t100k_d64": (100_000, 64, 16384, 64)}
VARIANTS = ("ser_chk", "ser_unc", "par_chk", "par_unc")
for v in VARIANTS:
    with open(os.path.join(out, f"k_{v}.mlir"), "w") as f:
        f.write("\n".join(kernel(f"{name}_{v}", cfg, "offsets", "sum", 32,
                                 "f32") for name, cfg in CASES.items()))
inc = []
for name in CASES:
    inc += [f'extern "C" void _mlir_ciface_{name}_{v}(MemRef<2> *, '
            f'MemRef<1> *, MemRef<1> *, MemRef<2> *);' for v in VARIANTS]
inc.append("static const Case kCases[] = {")
for name, (rows, dim, batch, bag) in CASES.items():
    ks = ", ".join(f"&_mlir_ciface_{name}_{v}" for v in VARIANTS)
    inc.append(f'  {{"{name}", {rows}, {dim}, {batch}, {bag}, {{{ks}}}}},')
inc.append("};")
with open(os.path.join(out, "scaling_cases.inc"), "w") as f:
    f.write("\n".join(inc) + "\n")
PY

declare -A options=([ser_chk]="checks=1" [ser_unc]="checks=0"
                    [par_chk]="checks=1 parallel=1" [par_unc]="checks=0 parallel=1")
objs=()
for v in ser_chk ser_unc par_chk par_unc; do
  "$BUILD_DIR/bin/embbag-opt" "$OUT/k_$v.mlir" \
    --embbag-to-llvm="target=avx2 ${options[$v]}" 2>/dev/null |
    "$LLVM/bin/mlir-translate" --mlir-to-llvmir -o "$OUT/k_$v.ll"
  "$LLVM/bin/llc" -O3 -mcpu=znver3 -relocation-model=pic -filetype=obj "$OUT/k_$v.ll" -o "$OUT/k_$v.o"
  objs+=("$OUT/k_$v.o")
done
g++ -O2 -std=c++17 -I"$OUT" "$ROOT/benchmarks/scaling.cpp" "${objs[@]}" \
  -L"$LLVM/lib" -lomp -Wl,-rpath,"$LLVM/lib" -o "$OUT/scaling"
lscpu | grep -E "Model name|^CPU\(s\)|L3"
"$OUT/scaling" "${1:-15}"

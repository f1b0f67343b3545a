#!/usr/bin/env bash
# The training benchmark: embbag's backward and fused update per call
# against PyTorch's backward + optimizer step, and the dense gradient
# against a hand scatter-add loop. Generates the kernels
# (gen_train_kernels.py), lowers them like run.sh (sequential,
# parallel=1, and sequential on dynamic shapes), builds the hand loop,
# times everything in one process
# (train_bench.py) and prints one Markdown table (also written to
# $OUT/train_table.md). See benchmarks/README.md, "Training benchmark".
#
#   benchmarks/train_bench.sh [--no-build] [--only SUBSTR] [--budget SECONDS]
#                             [--sets N] [--tiny]
#
#   --no-build    use the embbag-opt already built in $BUILD_DIR
#   --only S      only the configurations whose name contains S (c1 ... c6)
#   --budget S    seconds of timing per configuration and thread count
#                 (default 3)
#   --sets N      index sets (and dy) per configuration, default 7
#   --tiny        one tiny configuration t0 (1000 x 16, 64 x 4), short
#                 timing: the lit test's smoke run (test/Integration/train-bench.test)
#
# Environment: BUILD_DIR (default ./build), OUT (default
# $BUILD_DIR/benchmarks/train), BENCH_CPU (as run.sh), EMBBAG_OPTIONS (more
# --embbag-to-llvm options), PYTHON (default /usr/bin/python3, which needs
# torch and numpy).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="${OUT:-$BUILD_DIR/benchmarks/train}"
LLVM=/usr/lib/llvm-22/bin
LLVM_LIB=/usr/lib/llvm-22/lib
BENCH="$ROOT/benchmarks"
PYTHON="${PYTHON:-/usr/bin/python3}"

build=1
gen_args=()
py_args=()
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --tiny) gen_args+=(--tiny); py_args+=(--budget 0.05 --sets 3) ;;
    --only)
      (($# >= 2)) || { echo "train_bench.sh: $1 needs a value" >&2; exit 1; }
      gen_args+=("$1" "$2"); py_args+=("$1" "$2"); shift ;;
    --budget | --sets)
      (($# >= 2)) || { echo "train_bench.sh: $1 needs a value" >&2; exit 1; }
      py_args+=("$1" "$2"); shift ;;
    -h | --help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "train_bench.sh: unknown argument $1 (see --help)" >&2; exit 1 ;;
  esac
  shift
done

log() { echo "== $*" >&2; }

if ((build)); then
  log "building embbag-opt (utils/setup.sh)"
  BUILD_DIR="$BUILD_DIR" "$ROOT/utils/setup.sh" >&2
fi
EMBBAG_OPT="${EMBBAG_OPT:-$BUILD_DIR/bin/embbag-opt}"
[ -x "$EMBBAG_OPT" ] || command -v "$EMBBAG_OPT" >/dev/null ||
  { echo "train_bench.sh: no $EMBBAG_OPT" >&2; exit 1; }

mkdir -p "$OUT"
log "generating kernels in $OUT"
"$PYTHON" "$BENCH/gen_train_kernels.py" "$OUT" "${gen_args[@]}"

# The CPU, as run.sh: LLVM's name of the host for llc, -march=native for
# g++, or BENCH_CPU for both (embbag's target then from its features).
if [ -n "${BENCH_CPU:-}" ]; then
  llc_cpu="$BENCH_CPU"
  march="$BENCH_CPU"
  if g++ -march="$march" -dM -E -x c++ /dev/null | grep -q '__AVX512F__ '; then
    embbag_target=avx512
  else
    embbag_target=avx2
  fi
else
  llc_cpu="$("$LLVM/llc" --version | sed -n 's/^ *Host CPU: *//p')"
  march=native
  embbag_target=host
fi
# mlir-translate's module has no target triple: without -mtriple, llc 22
# knows no C library and expands every llvm.memcpy into a byte-by-byte
# loop (the dense gradient's copy into %out: 256 MB a byte at a time).
triple="$("$LLVM/llc" --version | sed -n 's/^ *Default target: *//p')"
llc_flags=(-O3 -mcpu="$llc_cpu" -mtriple="$triple" -relocation-model=pic)
extra="${EMBBAG_OPTIONS:-}"
# lower VARIANT OPTIONS: kernels_train_VARIANT.mlir to libtrain_VARIANT.so
# (and .s, to read the hot loops).
lower() {
  local k="$OUT/kernels_train_$1"
  log "lowering kernels_train_$1.mlir ($2)"
  "$EMBBAG_OPT" --embbag-to-llvm="$2" "$k.mlir" -o "$k.llvm.mlir"
  "$LLVM/mlir-translate" --mlir-to-llvmir "$k.llvm.mlir" -o "$k.ll"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=obj "$k.ll" -o "$k.o"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=asm "$k.ll" -o "$k.s"
  g++ -shared "$k.o" -o "$OUT/libtrain_$1.so" \
    -L"$LLVM_LIB" -lomp -Wl,-rpath,"$LLVM_LIB"
}
lower seq "target=$embbag_target checks=1 $extra"
lower par "target=$embbag_target checks=1 parallel=1 $extra"
lower dyn "target=$embbag_target checks=1 $extra"
log "building the hand scatter-add"
g++ -std=c++17 -O3 -march="$march" -Wall -Wextra -fPIC -shared \
  "$BENCH/train_hand.cpp" -o "$OUT/libtrain_hand.so"

log "timing"
{
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')  "
  cpu_field() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -n 1; }
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" \
    "(cpu family $(cpu_field 'cpu family'), model $(cpu_field model)," \
    "AVX-512: $(grep -q avx512f /proc/cpuinfo && echo yes || echo no))," \
    "$(nproc) cores, $(uname -r)  "
  echo "Build: embbag target=$embbag_target checks=1${extra:+ $extra}, llc -mcpu=$llc_cpu," \
    "-mtriple=$triple, hand loop g++ -O3 -march=$march  "
  echo "embbag: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$(git -C "$ROOT" diff --quiet -- lib include 2>/dev/null || echo '(lib/include modified)')  "
  echo "torch: $("$PYTHON" -c 'import torch; print(torch.__version__)')  "
  echo "Load average before timing (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)  "
  echo
  # OMP_WAIT_POLICY=passive: torch's libgomp workers sleep after a region
  # instead of spinning on the core the next contender needs (as run.sh).
  OMP_WAIT_POLICY="${TORCH_OMP_WAIT_POLICY:-passive}" \
    "$PYTHON" "$BENCH/train_bench.py" "$OUT" --libomp "$LLVM_LIB/libomp.so" \
    "${py_args[@]}"
} | tee "$OUT/train_table.md"

#!/usr/bin/env bash
# The embbag benchmark: builds embbag-opt (utils/setup.sh), generates and
# lowers the kernels, builds the harness, runs it and prints one Markdown
# table (also written to $OUT/table.md). See benchmarks/README.md.
#
#   benchmarks/run.sh [--quick] [--with-torch] [--no-build] [--only SUBSTR]
#                     [--budget SECONDS] [--prefetch N]
#
#   --quick       a subset of the cases, shorter timing
#   --with-torch  also time torch.nn.functional.embedding_bag, and torch's
#                 quantized embedding_bag_{byte,4bit}_rowwise_offsets on the
#                 quantized tables (installs Debian's python3-torch when it
#                 is missing)
#   --no-build    use the embbag-opt already built in $BUILD_DIR
#   --only S      only the cases whose name contains S (e.g. c1_offsets)
#   --budget S    seconds of timing per case (default 1.5, quick 0.5)
#   --prefetch N  prefetch distance of the hand kernels, in indices (0: off;
#                 default: 16 KiB of rows, within [16, 128])
#
# The code is for the host: embbag's target=host (AVX-512 where the CPU has
# it, else AVX2), llc -mcpu=<the host CPU as LLVM names it>, g++
# -march=native; the hand kernel in an AVX2 and, on AVX-512 hosts, an
# AVX-512 version. BENCH_CPU=NAME (a CPU both GCC and LLVM know, e.g.
# znver3) builds everything for that CPU instead: -march/-mcpu=NAME, and
# embbag's target=avx512 or avx2 from NAME's features.
#
# Environment: BUILD_DIR (default ./build), OUT (default $BUILD_DIR/benchmarks),
# LLC_EXTRA (more llc flags, e.g. -enable-misched=false),
# EMBBAG_OPTIONS (more --embbag-to-llvm options for every embbag kernel, e.g.
# "prefetch-distance=0 unroll=2", for experiments), HAND_PREFETCH_HINT (the
# hand kernels' _mm_prefetch hint, default _MM_HINT_T0), TORCH_OMP_WAIT_POLICY
# (OMP_WAIT_POLICY of torch's process, default passive: see below). The parallel
# kernels run on libomp (LLVM 22's); its own variables apply, e.g.
# KMP_BLOCKTIME (how long idle workers spin, default 200 ms).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="${OUT:-$BUILD_DIR/benchmarks}"
LLVM=/usr/lib/llvm-22/bin
LLVM_LIB=/usr/lib/llvm-22/lib # libomp.so, for the parallel kernels
BENCH="$ROOT/benchmarks"

build=1
torch=0
bench_args=()
while (($#)); do
  case "$1" in
    --quick) bench_args+=(--quick) ;;
    --with-torch) torch=1 ;;
    --no-build) build=0 ;;
    --only | --budget | --prefetch)
      (($# >= 2)) || { echo "run.sh: $1 needs a value" >&2; exit 1; }
      bench_args+=("$1" "$2"); shift ;;
    -h | --help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 1 ;;
  esac
  shift
done

log() { echo "== $*" >&2; }

if ((build)); then
  log "building embbag-opt (utils/setup.sh)"
  BUILD_DIR="$BUILD_DIR" "$ROOT/utils/setup.sh" >&2
fi
EMBBAG_OPT="$BUILD_DIR/bin/embbag-opt"
[ -x "$EMBBAG_OPT" ] || { echo "run.sh: no $EMBBAG_OPT" >&2; exit 1; }

mkdir -p "$OUT"
log "generating kernels in $OUT"
# Only the cases --quick / --only select (and the f32 cases of the selected
# quantized ones) are generated and lowered.
python3 "$BENCH/gen_kernels.py" "$OUT" "${bench_args[@]}"

# The CPU and ISA everything is compiled for. The ISA is the one GCC
# targets with those flags; embbag's target=host asks LLVM the same of the
# host (avx512f and avx512vl: AVX-512).
if [ -n "${BENCH_CPU:-}" ]; then
  llc_cpu="$BENCH_CPU"
  march="$BENCH_CPU"
else
  llc_cpu="$("$LLVM/llc" --version | sed -n 's/^ *Host CPU: *//p')"
  march=native
fi
gcc_isa() { g++ -march="$march" -dM -E -x c++ /dev/null | grep -c "$1" || true; }
if (($(gcc_isa '__AVX512F__ ') && $(gcc_isa '__AVX512VL__ '))); then
  isa=AVX-512
  embbag_target=avx512
else
  isa=AVX2
  embbag_target=avx2
fi
[ -n "${BENCH_CPU:-}" ] || embbag_target=host
log "ISA $isa: embbag target=$embbag_target, llc -mcpu=$llc_cpu, g++ -march=$march"

llc_flags=(-O3 -mcpu="$llc_cpu" -relocation-model=pic)
# shellcheck disable=SC2206
llc_flags+=(${LLC_EXTRA:-})
# lower VARIANT OPTIONS: kernels_VARIANT.mlir (gen_kernels.py) through
# embbag-opt --embbag-to-llvm="OPTIONS", mlir-translate and llc to
# kernels_VARIANT.o, plus kernels_VARIANT.s for reading the hot loops
# (README.md).
lower() {
  local k="$OUT/kernels_$1"
  log "lowering kernels_$1.mlir ($2)"
  "$EMBBAG_OPT" --embbag-to-llvm="$2" "$k.mlir" -o "$k.llvm.mlir"
  "$LLVM/mlir-translate" --mlir-to-llvmir "$k.llvm.mlir" -o "$k.ll"
  # LLVM's -O3 pipeline, as embbag-aot runs it before code generation.
  "$LLVM/opt" -O3 -mcpu="$llc_cpu" "$k.ll" -o "$k.ll"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=obj "$k.ll" -o "$k.full.o"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=asm "$k.ll" -o "$k.s"
  # Every module defines the same helpers (dealloc_helper, ...): keep only
  # the C interfaces global so that all of them link into one binary.
  "$LLVM/llvm-objcopy" --wildcard --keep-global-symbol='_mlir_ciface_*' \
    "$k.full.o" "$k.o"
}
extra="${EMBBAG_OPTIONS:-}"
tgt="target=$embbag_target"
lower chk "$tgt checks=1 $extra"
lower unc "$tgt checks=0 $extra"
lower par "$tgt checks=1 parallel=1 $extra"
lower dyn "$tgt checks=1 $extra"
# target=host and the ISA above come from two probes of the host: check
# that they agree (AVX-512 kernels use zmm registers unless EMBBAG_OPTIONS
# sets vector-bits; AVX2 ones cannot).
if grep -q zmm "$OUT/kernels_unc.s"; then kernel_isa=AVX-512; else kernel_isa=AVX2; fi
[ "$kernel_isa" = "$isa" ] ||
  log "WARNING: the embbag kernels look $kernel_isa, the harness is built for $isa"

log "building the harness"
cxx=(g++ -std=c++17 -O3 -march="$march" -Wall -Wextra -I "$OUT" -I "$BENCH")
# HAND_PREFETCH_HINT=_MM_HINT_T1 (say): the hand kernels' prefetch level.
[ -z "${HAND_PREFETCH_HINT:-}" ] || cxx+=(-DHAND_PREFETCH_HINT="$HAND_PREFETCH_HINT")
# bench.cpp has one OpenMP region (the 2-thread bandwidth): -fopenmp for its
# compile only. GCC emits GOMP_* calls, which LLVM's libomp implements; the
# link below must not get -fopenmp, which would add libgomp next to libomp.
"${cxx[@]}" -fopenmp -c "$BENCH/bench.cpp" -o "$OUT/bench.o"
"${cxx[@]}" -fno-tree-vectorize -c "$BENCH/scalar.cpp" -o "$OUT/scalar.o"
"${cxx[@]}" -c "$BENCH/bf16_runtime.cpp" -o "$OUT/bf16_runtime.o"
# The AVX2 hand kernel without AVX-512, which would give GCC 32 vector
# registers; the AVX-512 one is empty unless -march has AVX-512.
"${cxx[@]}" -mno-avx512f -c "$BENCH/hand_avx2.cpp" -o "$OUT/hand_avx2.o"
"${cxx[@]}" -c "$BENCH/hand_avx512.cpp" -o "$OUT/hand_avx512.o"
"${cxx[@]}" "$OUT/bench.o" "$OUT/scalar.o" "$OUT/bf16_runtime.o" \
  "$OUT/hand_avx2.o" "$OUT/hand_avx512.o" \
  "$OUT"/kernels_{chk,unc,par,dyn}.o -o "$OUT/bench" \
  -L"$LLVM_LIB" -lomp -Wl,-rpath,"$LLVM_LIB"

torch_args=()
if ((torch)); then
  if ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then
    log "installing python3-torch"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
      --no-install-recommends python3-torch python3-numpy >&2
  fi
  log "writing the inputs for torch"
  rm -rf "$OUT/data"
  mkdir -p "$OUT/data"
  "$OUT/bench" --dump "$OUT/data" "${bench_args[@]}"
  # The checked kernels as a shared library, which torch_bench.py calls
  # alternately with torch on the same memory for embbag/torch.
  g++ -shared "$OUT/kernels_chk.full.o" -o "$OUT/libkernels_chk.so"
  # The parallel kernels too, on libomp, in torch's process (libgomp).
  g++ -shared "$OUT/kernels_par.full.o" -o "$OUT/libkernels_par.so" \
    -L"$LLVM_LIB" -lomp -Wl,-rpath,"$LLVM_LIB"
  log "timing torch.nn.functional.embedding_bag and torch's quantized ops (and embbag beside them)"
  # torch's libgomp workers spin after each of torch's parallel regions
  # (OMP_WAIT_POLICY unset: active), on the core the parallel embbag kernel
  # called next needs; passive makes them sleep, as embbag's libomp workers
  # do (omp-blocktime=0). TORCH_OMP_WAIT_POLICY=active measures the other.
  OMP_WAIT_POLICY="${TORCH_OMP_WAIT_POLICY:-passive}" \
  /usr/bin/python3 "$BENCH/torch_bench.py" "$OUT/cases.tsv" "$OUT/data" \
    --kernels "$OUT/libkernels_chk.so" --par-kernels "$OUT/libkernels_par.so" \
    --libomp "$LLVM_LIB/libomp.so" "${bench_args[@]}" >"$OUT/torch.tsv"
  torch_args=(--torch "$OUT/torch.tsv")
fi

log "timing"
{
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')  "
  cpu_field() { sed -n "s/^$1[[:space:]]*: *//p" /proc/cpuinfo | head -n 1; }
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" \
    "(cpu family $(cpu_field 'cpu family'), model $(cpu_field model)," \
    "AVX-512: $(grep -q avx512f /proc/cpuinfo && echo yes || echo no))," \
    "$(nproc) cores, $(uname -r)  "
  echo "ISA: $isa (embbag target=$embbag_target, llc -mcpu=$llc_cpu," \
    "g++ -march=$march)  "
  echo "Options: embbag ${EMBBAG_OPTIONS:-(defaults)}, hand kernels' prefetch" \
    "${HAND_PREFETCH_HINT:-_MM_HINT_T0}, torch's process" \
    "OMP_WAIT_POLICY=${TORCH_OMP_WAIT_POLICY:-passive}  "
  echo "embbag: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$(git -C "$ROOT" diff --quiet -- lib include 2>/dev/null || echo '(lib/include modified)')  "
  echo "torch: $( ((torch)) && /usr/bin/python3 -c 'import torch; print(torch.__version__)' || echo 'not run (--with-torch)')  "
  "$OUT/bench" "${bench_args[@]}" "${torch_args[@]}"
  if ((torch)); then
    echo
    echo "parallel=1 in torch's process (libgomp and libomp loaded together), alternating with torch's calls:"
    echo
    /usr/bin/python3 "$BENCH/torch_par_table.py" "$OUT/torch.tsv"
  fi
} | tee "$OUT/table.md"

#!/usr/bin/env bash
# The embbag benchmark: builds embbag-opt (utils/setup.sh), generates and
# lowers the kernels, builds the harness, runs it and prints one Markdown
# table (also written to $OUT/table.md). See benchmarks/README.md.
#
#   benchmarks/run.sh [--quick] [--with-torch] [--no-build] [--only SUBSTR]
#                     [--budget SECONDS] [--prefetch N]
#                     [--whatif-prefetch [--whatif-max-vectors N]]
#
#   --quick       a subset of the cases, shorter timing
#   --with-torch  also time torch.nn.functional.embedding_bag (installs
#                 Debian's python3-torch when it is missing)
#   --no-build    use the embbag-opt already built in $BUILD_DIR
#   --only S      only the cases whose name contains S (e.g. c1_offsets)
#   --budget S    seconds of timing per case (default 1.5, quick 0.5)
#   --prefetch N  prefetch distance of the AVX2 kernel, in indices (0: off;
#                 default: 16 KiB of rows, within [16, 128])
#   --whatif-prefetch  an experiment for the lowering: the "embbag" column
#                 (checks=0) becomes the kernels with memref.prefetch
#                 inserted in their bag loops (whatif_prefetch.py)
#   --whatif-max-vectors N  with --whatif-prefetch: max-vectors of
#                 convert-embbag-to-loops (default 8, the pipeline's)
#
# Environment: BUILD_DIR (default ./build), OUT (default $BUILD_DIR/benchmarks),
# LLC_EXTRA (more llc flags, e.g. -mtriple=x86_64-pc-linux-gnu).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="${OUT:-$BUILD_DIR/benchmarks}"
LLVM=/usr/lib/llvm-22/bin
BENCH="$ROOT/benchmarks"

build=1
torch=0
whatif=0
whatif_maxv=8
bench_args=()
while (($#)); do
  case "$1" in
    --quick) bench_args+=(--quick) ;;
    --with-torch) torch=1 ;;
    --no-build) build=0 ;;
    --whatif-prefetch) whatif=1 ;;
    --whatif-max-vectors)
      (($# >= 2)) || { echo "run.sh: $1 needs a value" >&2; exit 1; }
      whatif_maxv="$2"; shift ;;
    --only | --budget | --prefetch)
      (($# >= 2)) || { echo "run.sh: $1 needs a value" >&2; exit 1; }
      bench_args+=("$1" "$2"); shift ;;
    -h | --help) sed -n '2,26p' "$0"; exit 0 ;;
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
python3 "$BENCH/gen_kernels.py" "$OUT"

llc_flags=(-O3 -mcpu=znver3 -relocation-model=pic)
# shellcheck disable=SC2206
llc_flags+=(${LLC_EXTRA:-})
for variant in chk unc; do
  checks=$([ "$variant" = chk ] && echo 1 || echo 0)
  log "lowering kernels_$variant.mlir (checks=$checks)"
  "$EMBBAG_OPT" --embbag-to-llvm="vector-bits=256 checks=$checks" \
    "$OUT/kernels_$variant.mlir" -o "$OUT/kernels_$variant.llvm.mlir"
  "$LLVM/mlir-translate" --mlir-to-llvmir "$OUT/kernels_$variant.llvm.mlir" \
    -o "$OUT/kernels_$variant.ll"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=obj "$OUT/kernels_$variant.ll" \
    -o "$OUT/kernels_$variant.full.o"
  # The assembly, for reading the hot loops (README.md).
  "$LLVM/llc" "${llc_flags[@]}" -filetype=asm "$OUT/kernels_$variant.ll" \
    -o "$OUT/kernels_$variant.s"
  # Both modules define the same helpers (dealloc_helper, ...): keep only
  # the C interfaces global so that both link into one binary.
  "$LLVM/llvm-objcopy" --wildcard --keep-global-symbol='_mlir_ciface_*' \
    "$OUT/kernels_$variant.full.o" "$OUT/kernels_$variant.o"
done

unchecked="$OUT/kernels_unc.o"
whatif_note=""
if ((whatif)); then
  log "what-if: prefetching kernels (max-vectors=$whatif_maxv)"
  python3 "$BENCH/whatif_prefetch.py" --max-vectors "$whatif_maxv" \
    "$EMBBAG_OPT" "$OUT/kernels_unc.mlir" "$OUT/kernels_pf.llvm.mlir"
  "$LLVM/mlir-translate" --mlir-to-llvmir "$OUT/kernels_pf.llvm.mlir" \
    -o "$OUT/kernels_pf.ll"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=obj "$OUT/kernels_pf.ll" \
    -o "$OUT/kernels_pf.full.o"
  "$LLVM/llc" "${llc_flags[@]}" -filetype=asm "$OUT/kernels_pf.ll" \
    -o "$OUT/kernels_pf.s"
  "$LLVM/llvm-objcopy" --wildcard --keep-global-symbol='_mlir_ciface_*' \
    "$OUT/kernels_pf.full.o" "$OUT/kernels_pf.o"
  unchecked="$OUT/kernels_pf.o"
  whatif_note="WHAT-IF: the embbag (checks=0) column is the checks=0 kernels with memref.prefetch inserted by whatif_prefetch.py, max-vectors=$whatif_maxv  "
fi

log "building the harness"
# -march=znver3, the target llc gets: AVX2 and FMA, no AVX-512 (which
# -march=native would allow on a Zen 4/5 machine).
cxx=(g++ -std=c++17 -O3 -march=znver3 -Wall -Wextra -I "$OUT" -I "$BENCH")
"${cxx[@]}" -c "$BENCH/bench.cpp" -o "$OUT/bench.o"
"${cxx[@]}" -fno-tree-vectorize -c "$BENCH/scalar.cpp" -o "$OUT/scalar.o"
"${cxx[@]}" -c "$BENCH/bf16_runtime.cpp" -o "$OUT/bf16_runtime.o"
"${cxx[@]}" "$OUT/bench.o" "$OUT/scalar.o" "$OUT/bf16_runtime.o" \
  "$OUT/kernels_chk.o" "$unchecked" -o "$OUT/bench"

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
  log "timing torch.nn.functional.embedding_bag"
  /usr/bin/python3 "$BENCH/torch_bench.py" "$OUT/cases.tsv" "$OUT/data" \
    "${bench_args[@]}" >"$OUT/torch.tsv"
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
  echo "embbag: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$(git -C "$ROOT" diff --quiet -- lib include 2>/dev/null || echo '(lib/include modified)')  "
  [ -z "$whatif_note" ] || echo "$whatif_note"
  echo "torch: $( ((torch)) && /usr/bin/python3 -c 'import torch; print(torch.__version__)' || echo 'not run (--with-torch)')  "
  "$OUT/bench" "${bench_args[@]}" "${torch_args[@]}"
} | tee "$OUT/table.md"

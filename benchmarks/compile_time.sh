#!/usr/bin/env bash
# Compile time and code size of embbag kernels, static against dynamic
# shapes (benchmarks/README.md, "Compile time and code size").
#
#   benchmarks/compile_time.sh [--ops N] [--runs N] [--no-aot]
#
#   --ops N     kernels per module (default 100)
#   --runs N    runs of each command; the minimum time is printed (default 3)
#   --no-aot    skip embbag-aot (machine code), which takes longest
#
# Writes two modules with benchmarks/gen_compile_module.py: N kernels of one
# embbag op each, cycling through the forms (packed, offsets, segments) and
# the reductions (sum, mean, max, sqrtn; sum and sqrtn also weighted), on
# static shapes (rows of 64 f32) and on dynamic ones (tensor<?x?xf32>).
# Each goes through `embbag-opt --embbag-to-llvm` and `embbag-aot` (for the
# host, checks=abort); the table gives seconds (the minimum wall and user
# time of the runs) and, per op, seconds, bytes of LLVM dialect, and bytes
# of machine code (the .text of the shared library).
#
# Environment: BUILD_DIR (default ./build), OUT (default
# $BUILD_DIR/benchmarks/compile), EMBBAG_OPT and EMBBAG_AOT (the tools to
# time, default those of BUILD_DIR: point them at another build to compare),
# PIPELINE_OPTIONS (more --embbag-to-llvm options, e.g. "target=avx512").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="${OUT:-$BUILD_DIR/benchmarks/compile}"
EMBBAG_OPT="${EMBBAG_OPT:-$BUILD_DIR/bin/embbag-opt}"
EMBBAG_AOT="${EMBBAG_AOT:-$BUILD_DIR/bin/embbag-aot}"
PIPELINE_OPTIONS="${PIPELINE_OPTIONS:-}"

ops=100
runs=3
aot=1
while (($#)); do
  case "$1" in
    --ops | --runs)
      (($# >= 2)) || { echo "compile_time.sh: $1 needs a value" >&2; exit 1; }
      if [[ $1 == --ops ]]; then ops=$2; else runs=$2; fi
      shift ;;
    --no-aot) aot=0 ;;
    -h | --help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "compile_time.sh: unknown argument $1 (see --help)" >&2; exit 1 ;;
  esac
  shift
done
mkdir -p "$OUT"

# The minimum wall and user seconds of `runs` runs of the command.
min_time() {
  local times="$OUT/time.txt" i
  for ((i = 0; i < runs; ++i)); do
    /usr/bin/time -o "$times" -a -f "%e %U" "$@" >/dev/null 2>&1
  done
  awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < u { u = $2 }
       END { print w, u }' "$times"
  rm -f "$times"
}

# Fails loudly (min_time hides the tools' output) before timing.
check() {
  "$@" >/dev/null || { echo "compile_time.sh: failed: $*" >&2; exit 1; }
}

text_bytes() {
  size -A "$1" | awk '$1 == ".text" { print $2 }'
}

per_op() { awk "BEGIN { printf \"%.${2}f\", $1 / $ops }"; }

echo "| module | ops | embbag-to-llvm s (wall / user) | ms per op | LLVM dialect bytes per op | embbag-aot s (wall / user) | machine code bytes per op |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for shapes in static dynamic; do
  module="$OUT/$shapes.mlir"
  python3 "$ROOT/benchmarks/gen_compile_module.py" "$shapes" "$ops" >"$module"
  lowered="$OUT/$shapes.llvm.mlir"
  check "$EMBBAG_OPT" "$module" --embbag-to-llvm="$PIPELINE_OPTIONS" -o "$lowered"
  read -r wall user < <(min_time "$EMBBAG_OPT" "$module" \
    --embbag-to-llvm="$PIPELINE_OPTIONS" -o "$lowered")
  dialect=$(stat -c %s "$lowered")
  aot_cols="n/a | n/a"
  if ((aot)); then
    lib="$OUT/lib$shapes.so"
    aot_args=("$module" -o "$lib")
    [[ -n $PIPELINE_OPTIONS ]] && aot_args+=(--pipeline-options="$PIPELINE_OPTIONS")
    check "$EMBBAG_AOT" "${aot_args[@]}"
    read -r aot_wall aot_user < <(min_time "$EMBBAG_AOT" "${aot_args[@]}")
    aot_cols="$aot_wall / $aot_user | $(per_op "$(text_bytes "$lib")" 0)"
  fi
  echo "| $shapes | $ops | $wall / $user | $(per_op "$wall * 1000" 0) | $(per_op "$dialect" 0) | $aot_cols |"
done
echo
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "(Minimum of $runs runs; ${cpu:-unknown CPU}, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); embbag $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?').)"

#!/usr/bin/env bash
# The one script run on the GPU machine (docs/GPU.md, "Running on a GPU").
# It builds nothing: benchmarks/gpu/build.sh made benchmarks/gpu/out on the
# build machine. It prints the device, runs the programs of the
# `REQUIRES: cuda` lit tests (test/AOT/nvptx-run*.test) on the libraries
# built for them and checks their output against the tests' CHECK lines
# (filecheck.py: there is no LLVM there), runs the differential tests of
# every kernel against PyTorch CUDA and the NumPy reference (checked library
# included), then the benchmark table, then table batching (tables.py:
# 26 tables in one launch, checked and timed), then the training ops
# (train.py: against torch autograd, then timed); everything also goes to
# $OUT/gpu-bench.txt when $OUT is set. The exit status is non-zero if any
# part failed.
#
# With --occupancy-sweep it then times the kernels built with 4 (the
# default), 3 and 0 blocks per SM (ab.py; build.sh's libbench*_mb*.so),
# unchecked and checked, with and without a padding_idx. With
# --training-sweep train.py also times the training kernels built with
# other chunks of the sort and pieces of the sums (build.sh's
# libtrain_c64.so, libtrain_p32.so, libtrain_p512.so).
#
#   benchmarks/gpu/run.sh [--no-bench] [--reps N] [--occupancy-sweep]
#                         [--training-sweep]
set -uo pipefail

OCCUPANCY=0
TRAIN_ARGS=()
ARGS=()
for arg in "$@"; do
  case "$arg" in
    --occupancy-sweep) OCCUPANCY=1 ;;
    --training-sweep) TRAIN_ARGS+=(--training-sweep) ;;
    *) ARGS+=("$arg") ;;
  esac
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LIBS="$HERE/out"
for f in libbench.so libbench_status.so libembbag_cuda_runtime.so; do
  [ -f "$LIBS/$f" ] || { echo "run.sh: $LIBS/$f is missing: run benchmarks/gpu/build.sh first"; exit 1; }
done
export LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
LOG="${OUT:-/tmp}/gpu-bench.txt"
mkdir -p "$(dirname "$LOG")"
ROOT="$(cd "$HERE/../.." && pwd)"
RT="$LIBS/libembbag_cuda_runtime.so"

# One REQUIRES: cuda test: its program's output, checked against its CHECK
# lines.
lit_test() {
  local test="$1" out
  shift
  out="$(cd "$ROOT" && timeout 120 python3 "$@" 2>&1)"
  printf '%s\n' "$out"
  if printf '%s\n' "$out" | python3 "$HERE/filecheck.py" "$ROOT/test/AOT/$test"; then
    echo "PASS: $test"
  else
    echo "FAIL: $test"
    return 1
  fi
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  python3 -c "import torch; print('PyTorch', torch.__version__, 'CUDA', torch.version.cuda)"
  failed=0
  T="$LIBS/tests"
  lit_test nvptx-run.test test/AOT/Inputs/gpu_run.py "$T/status/libgpu.so" "$RT" || failed=1
  lit_test nvptx-run-async.test test/AOT/Inputs/gpu_async.py "$T/off/libgpu.so" "$RT" || failed=1
  lit_test nvptx-run-abort.test test/AOT/Inputs/gpu_abort.py "$T/abort/libgpu.so" \
    "$T/cpu-abort/libgpu.so" "$RT" || failed=1
  python3 "$HERE/bench.py" --lib-dir "$LIBS" ${ARGS[@]+"${ARGS[@]}"} || failed=1
  # Table batching: 26 tables in one launch (tables.py).
  python3 "$HERE/tables.py" --lib-dir "$LIBS" || failed=1
  # The training ops: gradients and fused updates (train.py).
  python3 "$HERE/train.py" --lib-dir "$LIBS" ${TRAIN_ARGS[@]+"${TRAIN_ARGS[@]}"} || failed=1
  if [ "$OCCUPANCY" = 1 ]; then
    for pad in "" --padding; do
      echo "occupancy sweep, unchecked ${pad:+(padding_idx)}, ms per call:"
      python3 "$HERE/ab.py" $pad "4=$LIBS/libbench.so" "3=$LIBS/libbench_mb3.so" || failed=1
      echo "occupancy sweep, checked ${pad:+(padding_idx)}, ms per call:"
      python3 "$HERE/ab.py" --checked $pad "4=$LIBS/libbench_status.so" \
        "3=$LIBS/libbench_status_mb3.so" "0=$LIBS/libbench_status_mb0.so" || failed=1
    done
  fi
  exit $failed
} 2>&1 | tee "$LOG"
exit "${PIPESTATUS[0]}"

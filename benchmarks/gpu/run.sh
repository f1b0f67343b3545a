#!/usr/bin/env bash
# The one script run on the GPU machine (docs/GPU.md, "Running on a GPU").
# It builds nothing: benchmarks/gpu/build.sh made benchmarks/gpu/out on the
# build machine. It prints the device, runs the differential tests of every
# kernel against PyTorch CUDA and the NumPy reference (checked library
# included), then the benchmark table; everything also goes to
# $OUT/gpu-bench.txt when $OUT is set.
#
#   benchmarks/gpu/run.sh [--no-bench] [--reps N]
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LIBS="$HERE/out"
for f in libbench.so libbench_status.so libembbag_cuda_runtime.so; do
  [ -f "$LIBS/$f" ] || { echo "run.sh: $LIBS/$f is missing: run benchmarks/gpu/build.sh first"; exit 1; }
done
export LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
LOG="${OUT:-/tmp}/gpu-bench.txt"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  python3 -c "import torch; print('PyTorch', torch.__version__, 'CUDA', torch.version.cuda)"
  python3 "$HERE/bench.py" --lib-dir "$LIBS" "$@"
} 2>&1 | tee "$LOG"
exit "${PIPESTATUS[0]}"

#!/usr/bin/env bash
# Builds, on the build machine, what benchmarks/gpu/run.sh runs on the GPU
# machine (which has no LLVM or MLIR): the benchmark's kernels
# (gen_kernels.py) as GPU libraries with embbag-aot --target=nvptx,
# unchecked (libbench.so) and with --checks=status (libbench_status.so),
# the same kernels for the host through the GPU kernels' host loops
# (libbench_cpu.so, libbench_status_cpu.so: bench.py --device=cpu), the
# libraries of tables.py (table batching) and train.py (the training ops),
# and a
# copy of the CUDA runtime library (libembbag_cuda_runtime.so, which the
# GPU libraries find beside them through their $ORIGIN rpath), and in
# tests/ the libraries of the `REQUIRES: cuda` tests (test/AOT/nvptx-run*.test,
# from test/AOT/Inputs/gpu-kernels.mlir), all in benchmarks/gpu/out
# (git-ignored; name it in the device run's `carry`).
#
#   benchmarks/gpu/build.sh [BUILD_DIR]      # default: ./build
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="$ROOT/benchmarks/gpu/out"
AOT="$BUILD/bin/embbag-aot"
CHIP="${CHIP:-sm_90}"
mkdir -p "$OUT"
# variant CHECKS OPTIONS INPUT LIBRARY: a GPU library of INPUT built with
# more pipeline options (the sweeps' libraries).
variant() {
  "$AOT" --target=nvptx --chip="$CHIP" --checks="$1" --pipeline-options="$2" "$3" -o "$4"
}

# The compiler and the runtime the GPU libraries link against, up to date.
cmake --build "$BUILD" --target embbag-aot embbag_cuda_runtime

python3 "$ROOT/benchmarks/gpu/gen_kernels.py" "$OUT/kernels.mlir"
"$AOT" --target=nvptx --chip="$CHIP" --checks=off "$OUT/kernels.mlir" -o "$OUT/libbench.so"
"$AOT" --target=nvptx --chip="$CHIP" --checks=status "$OUT/kernels.mlir" -o "$OUT/libbench_status.so"
# The rows-in-flight sweep's libraries (bench.py --rows-in-flight-sweep):
# the unchecked kernels with 1, 2, 4 and 16 rows in flight per lane
# (libbench.so has the default, 8).
for rows in 1 2 4 16; do
  variant off "rows-in-flight=$rows" "$OUT/kernels.mlir" "$OUT/libbench_rif$rows.so"
done
# The occupancy sweep's libraries (run.sh --occupancy-sweep): the kernels
# with 3 and 0 (unbound) blocks per SM; libbench*.so have the default, 4.
variant off "min-blocks-per-sm=3" "$OUT/kernels.mlir" "$OUT/libbench_mb3.so"
for blocks in 3 0; do
  variant status "min-blocks-per-sm=$blocks" "$OUT/kernels.mlir" \
    "$OUT/libbench_status_mb$blocks.so"
done
"$AOT" --checks=off --pipeline-options="path=gpu-loops" "$OUT/kernels.mlir" -o "$OUT/libbench_cpu.so"
"$AOT" --checks=status --pipeline-options="path=gpu-loops" "$OUT/kernels.mlir" -o "$OUT/libbench_status_cpu.so"
# The table-batching libraries of tables.py: the 26 tables in one launch
# (batch-tables), checked, and one launch per table; and the same for the
# host (the host loops batch with parallel=1).
python3 "$ROOT/benchmarks/gpu/gen_kernels.py" --tables "$OUT/tables.mlir"
"$AOT" --target=nvptx --chip="$CHIP" --checks=off \
  --pipeline-options="batch-tables=1" "$OUT/tables.mlir" -o "$OUT/libtables.so"
"$AOT" --target=nvptx --chip="$CHIP" --checks=status \
  --pipeline-options="batch-tables=1" "$OUT/tables.mlir" -o "$OUT/libtables_status.so"
"$AOT" --target=nvptx --chip="$CHIP" --checks=off "$OUT/tables.mlir" \
  -o "$OUT/libtables_unbatched.so"
"$AOT" --checks=off --pipeline-options="path=gpu-loops batch-tables=1 parallel=1" \
  "$OUT/tables.mlir" -o "$OUT/libtables_cpu.so"
"$AOT" --checks=status --pipeline-options="path=gpu-loops batch-tables=1 parallel=1" \
  "$OUT/tables.mlir" -o "$OUT/libtables_status_cpu.so"
"$AOT" --checks=off --pipeline-options="path=gpu-loops" "$OUT/tables.mlir" \
  -o "$OUT/libtables_unbatched_cpu.so"
# The training kernels of train.py, for the GPU and for the host.
# train.py imports torch (Debian's python3-torch).
"${PYTHON:-/usr/bin/python3}" "$ROOT/benchmarks/gpu/train.py" --emit-mlir "$OUT/train.mlir" \
  --emit-sparse-mlir "$OUT/train_sparse.mlir"
"$AOT" --target=nvptx --chip="$CHIP" --checks=off "$OUT/train.mlir" -o "$OUT/libtrain.so"
"$AOT" --target=nvptx --chip="$CHIP" --checks=status "$OUT/train.mlir" -o "$OUT/libtrain_status.so"
# The training sweep's libraries (run.sh --training-sweep): other chunks
# of the sort and pieces of the sums.
variant off "training-chunk-positions=64" "$OUT/train.mlir" "$OUT/libtrain_c64.so"
for piece in 32 512; do
  variant off "training-piece-positions=$piece" "$OUT/train.mlir" "$OUT/libtrain_p$piece.so"
done
"$AOT" --checks=off --pipeline-options="path=gpu-loops" "$OUT/train.mlir" -o "$OUT/libtrain_cpu.so"
"$AOT" --checks=status --pipeline-options="path=gpu-loops" "$OUT/train.mlir" \
  -o "$OUT/libtrain_status_cpu.so"
# The sparse gradients return their results: no --checks=status (whose
# functions return only a status).
"$AOT" --target=nvptx --chip="$CHIP" --checks=off "$OUT/train_sparse.mlir" \
  -o "$OUT/libtrain_sparse.so"
"$AOT" --checks=off --pipeline-options="path=gpu-loops" \
  "$OUT/train_sparse.mlir" -o "$OUT/libtrain_sparse_cpu.so"
cp "$BUILD/lib/libembbag_cuda_runtime.so" "$OUT/"

# The `REQUIRES: cuda` tests' libraries, compiled from the source root so
# that the abort messages name the same relative path on both targets.
(cd "$ROOT" && for checks in status off abort; do
  mkdir -p "$OUT/tests/$checks"
  "$AOT" --target=nvptx --chip="$CHIP" --checks=$checks \
    test/AOT/Inputs/gpu-kernels.mlir -o "$OUT/tests/$checks/libgpu.so"
done
mkdir -p "$OUT/tests/cpu-abort"
"$AOT" --checks=abort --mcpu=generic test/AOT/Inputs/gpu-kernels.mlir \
  -o "$OUT/tests/cpu-abort/libgpu.so")
ls -la "$OUT"

#!/usr/bin/env bash
# The main job: set-up (utils/setup.sh), then compile every shipped example
# (examples/**/*.mlir) with `embbag-opt --embbag-to-llvm` and execute it with
# mlir-runner, printing its results. Examples holding a shard.grid
# (examples/shard) go through --embbag-shard-to-llvm and run on 2 MPI ranks
# (mpirun.mpich), each rank's output printed after the other's, its lines
# prefixed with its rank. A transform
# script (examples/transform) is applied to examples/dlrm before it runs.
# A PyTorch model (a .py defining make_model(), examples/torch) is imported
# with utils/torch-import, compiled with embbag-aot and called through
# ctypes; utils/torch_import/check.py prints each output's max abs error
# against PyTorch and OK or FAIL (skipped when python3 has no torch). A
# check.py beside examples (examples/train) compares them with PyTorch.
#
#   utils/run-examples.sh                  # all examples
#   utils/run-examples.sh examples/dlrm    # the examples under a folder
#   EMBBAG_PIPELINE='embbag-to-llvm{checks=0}' utils/run-examples.sh
#   EMBBAG_PIPELINE='embbag-to-llvm{parallel=1}' OMP_NUM_THREADS=2 utils/run-examples.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export BUILD_DIR
LLVM_PREFIX=/usr/lib/llvm-22
PIPELINE="${EMBBAG_PIPELINE:-embbag-to-llvm}"

# EMBBAG_SKIP_SETUP=1: use the embbag-opt already in $BUILD_DIR (the test
# suite runs this script so, test/Examples/run-examples.test).
[ -n "${EMBBAG_SKIP_SETUP:-}" ] || "$ROOT/utils/setup.sh"

# libomp: for kernels lowered with parallel=1 (unused otherwise).
runner_libs="$LLVM_PREFIX/lib/libmlir_runner_utils.so,$LLVM_PREFIX/lib/libmlir_c_runner_utils.so,$LLVM_PREFIX/lib/libomp.so"
libmpich=/usr/lib/x86_64-linux-gnu/libmpich.so
roots=("$@")
((${#roots[@]})) || roots=("$ROOT/examples")

# A transform script (examples/transform) is a library, not a program: it
# is applied to this example, which then runs like the others.
transform_target="$ROOT/examples/dlrm/embedding_layer.mlir"

status=0
while IFS= read -r example; do
  echo "== ${example#"$ROOT"/}"
  if grep -q 'transform.named_sequence' "$example"; then
    echo "   (a transform script, applied to ${transform_target#"$ROOT"/})"
    if ! "$BUILD_DIR/bin/embbag-opt" "$transform_target" \
      --pass-pipeline="builtin.module(transform-preload-library{transform-library-paths=$example},transform-interpreter,$PIPELINE)" |
      "$LLVM_PREFIX/bin/mlir-runner" -e main -entry-point-result=void \
        -shared-libs="$runner_libs" | grep -v '^Unranked Memref'; then
      echo "!! failed: $example"
      status=1
    fi
    continue
  fi
  # mpirun reads standard input, which is this loop's list of examples:
  # it gets /dev/null instead.
  if grep -q 'shard.grid' "$example"; then
    # One output file per rank (mpirun's -prepend-rank splits the lines of
    # unbuffered output), printed one after the other.
    out="$BUILD_DIR/sharded-example.out"
    # mpirun writes into existing files without truncating them: a longer
    # output of the previous example would show through.
    rm -f "$out".*
    if ! "$BUILD_DIR/bin/embbag-opt" "$example" --embbag-shard-to-llvm >"$BUILD_DIR/sharded-example.mlir" ||
      ! mpirun.mpich -np 2 -outfile-pattern "$out.%r" "$LLVM_PREFIX/bin/mlir-runner" -e main \
        -entry-point-result=void -shared-libs="$runner_libs,$libmpich" \
        "$BUILD_DIR/sharded-example.mlir" </dev/null; then
      echo "!! failed: $example"
      status=1
    fi
    for rank in 0 1; do
      [ -f "$out.$rank" ] && grep -v 'Unranked Memref' "$out.$rank" | sed "s/^/[$rank] /"
    done
    continue
  fi
  if ! "$BUILD_DIR/bin/embbag-opt" "$example" --pass-pipeline="builtin.module($PIPELINE)" |
    "$LLVM_PREFIX/bin/mlir-runner" -e main -entry-point-result=void \
      -shared-libs="$runner_libs" | grep -v '^Unranked Memref'; then
    echo "!! failed: $example"
    status=1
  fi
done < <(find "${roots[@]}" -name '*.mlir' | sort)

# Examples checked against PyTorch by a check.py beside them (examples/
# train: the losses of a model trained in MLIR against the same model
# trained with torch.optim); skipped without torch.
while IFS= read -r check; do
  echo "== ${check#"$ROOT"/}"
  if ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then
    echo "   (skipped: /usr/bin/python3 has no torch; apt-get install python3-torch)"
    continue
  fi
  if ! /usr/bin/python3 "$check" --embbag-opt "$BUILD_DIR/bin/embbag-opt" \
    --mlir-runner "$LLVM_PREFIX/bin/mlir-runner"; then
    echo "!! failed: $check"
    status=1
  fi
done < <(find "${roots[@]}" -name check.py | sort)

# PyTorch models: imported by utils/torch-import into $BUILD_DIR, then
# compiled, run and compared with PyTorch by check.py.
torch_python=/usr/bin/python3
while IFS= read -r model; do
  echo "== ${model#"$ROOT"/}"
  if ! "$torch_python" -c 'import torch, numpy' 2>/dev/null; then
    echo "   (skipped: $torch_python has no torch; apt-get install python3-torch)"
    continue
  fi
  imported="$BUILD_DIR/torch-examples/$(basename "$model" .py).mlir"
  mkdir -p "$(dirname "$imported")"
  if ! "$torch_python" "$ROOT/utils/torch-import" "$model" -o "$imported" ||
    ! "$torch_python" "$ROOT/utils/torch_import/check.py" "$model" --mlir "$imported" \
      --embbag-aot "$BUILD_DIR/bin/embbag-aot"; then
    echo "!! failed: $model"
    status=1
  fi
done < <(find "${roots[@]}" -name '*.py' -exec grep -l '^def make_model' {} + | sort)
exit $status

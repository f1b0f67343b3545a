#!/usr/bin/env bash
# 1 process vs 2 MPI ranks for the row-wise and column-wise sharding of one
# embbag.offsets sum kernel (docs/Sharding.md), on a DRAM-bound table, and
# for the table-wise sharding of two such kernels (one table per rank).
#
#   benchmarks/shard/run.sh [--quick]
#
# Prints, per split: ms per call on 1 process (--embbag-drop-sharding) and on
# 2 ranks (--embbag-shard-to-llvm, mpirun.mpich -np 2), the speed-up, the
# all-reduce payload per call and the bytes each rank sends per call (an
# all-reduce of S bytes over N ranks moves about 2 (N - 1) / N * S per rank),
# and whether the checksums of the results agree.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM=/usr/lib/llvm-22
LIBS="$LLVM/lib/libmlir_runner_utils.so,$LLVM/lib/libmlir_c_runner_utils.so"
MPI_LIB=/usr/lib/x86_64-linux-gnu/libmpich.so
ROWS=$((1 << 20)) DIM=64 BATCH=2048 BAG=32 CALLS=20
if [ "${1:-}" = --quick ]; then ROWS=$((1 << 14)) CALLS=5; fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

printf '# embbag sharding: %s x %s f32 table (%s MiB), %s bags x %s, offsets sum, %s calls\n' \
  "$ROWS" "$DIM" $((ROWS * DIM * 4 >> 20)) "$BATCH" "$BAG" "$CALLS"
printf '# %s, %s\n' "$(lscpu | sed -n 's/^Model name: *//p')" "$(date -u +%Y-%m-%dT%H:%MZ)"
printf '| split | 1 process ms | 2 ranks ms | speed-up | all-reduce payload / call | sent per rank / call | checksums |\n'
printf '|---|---|---|---|---|---|---|\n'
for split in row column table; do
  python3 "$ROOT/benchmarks/shard/gen.py" --split "$split" --rows "$ROWS" \
    --dim "$DIM" --batch "$BATCH" --bag "$BAG" --calls "$CALLS" >"$WORK/k.mlir"
  "$BUILD_DIR/bin/embbag-opt" "$WORK/k.mlir" --embbag-drop-sharding --embbag-to-llvm >"$WORK/one.mlir"
  "$BUILD_DIR/bin/embbag-opt" "$WORK/k.mlir" --embbag-shard-to-llvm >"$WORK/two.mlir"
  "$LLVM/bin/mlir-runner" -e main -entry-point-result=void -shared-libs="$LIBS" \
    "$WORK/one.mlir" >"$WORK/one.out"
  mpirun.mpich -np 2 -outfile-pattern "$WORK/two.%r" "$LLVM/bin/mlir-runner" -e main \
    -entry-point-result=void -shared-libs="$LIBS,$MPI_LIB" "$WORK/two.mlir"
  one=$(sed -n 1p "$WORK/one.out")
  two=$(sort -g <(sed -n 1p "$WORK/two.0") <(sed -n 1p "$WORK/two.1") | tail -n 1)
  same=no
  if [ "$(sed -n 2p "$WORK/one.out")" = "$(sed -n 2p "$WORK/two.0")" ] &&
     [ "$(sed -n 2p "$WORK/one.out")" = "$(sed -n 2p "$WORK/two.1")" ]; then same=yes; fi
  payload=$((BATCH * DIM * 4))
  python3 - "$split" "$one" "$two" "$payload" "$same" <<'PY'
import sys
split, one, two, payload, same = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
kib = payload // 1024
if split == "table":
    # Two results rebuilt by the wrapper (an all-reduce each); the exchange:
    # each owner sends the other rank half of its table's bags.
    reduce, sent = f"{2 * kib} KiB", f"{kib // 2} KiB exchange + {2 * kib} KiB"
    split = "table (2 tables)"
else:
    reduce, sent = f"{kib} KiB", f"{kib} KiB"
print(f"| {split} | {one:.2f} | {two:.2f} | {one / two:.2f}x | {reduce} | {sent} | {same} |")
PY
done
# Where the all-reduce comes from: row-wise, the kernel's sum of the ranks'
# partial bags; column-wise, the wrapper that rebuilds the whole result on
# every rank (each rank writes its columns into zeros, docs/Sharding.md).
# Calling <name>__shard_local directly on local shards leaves column-wise
# with no communication at all.
printf '\nAll-reduce: row-wise in the kernel (partial bags); column-wise and table-wise in the wrapper that rebuilds the whole result on every rank (none when <name>__shard_local is called directly). Table-wise: 1 process looks up both tables, each rank the one it owns, then the owners exchange half of the bags.\n'

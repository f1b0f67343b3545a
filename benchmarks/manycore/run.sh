#!/usr/bin/env bash
# The many-core scaling run on the GPU machine's CPU (benchmarks/README.md,
# "16 cores (issue 23)"). It builds nothing: build.sh made
# benchmarks/manycore/out here. Prints the
# CPU and runs scale.py (1, 2, 4, 8 and 16 threads, each in its own
# process); everything also goes to $OUT/manycore.txt when $OUT is set.
#
#   benchmarks/manycore/run.sh [scale.py options]
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ -f "$HERE/out/libpar_chk.so" ] || { echo "run.sh: run benchmarks/manycore/build.sh first"; exit 1; }
LOG="${OUT:-/tmp}/manycore.txt"
mkdir -p "$(dirname "$LOG")"
{
  lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|L2|L3|NUMA node\(s\)"
  python3 -c "import torch; print('PyTorch', torch.__version__, torch.__config__.parallel_info().splitlines()[0:3])"
  python3 "$HERE/scale.py" --lib-dir "$HERE/out" "$@"
} 2>&1 | tee "$LOG"
exit "${PIPESTATUS[0]}"

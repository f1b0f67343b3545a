#!/usr/bin/env bash
# Fuzzes embbag with libFuzzer: mutated MLIR text through parsing,
# verification, a print/re-parse round trip, --embbag-verify-constants, the
# --embbag-to-llvm pipeline and translation to LLVM IR (tools/embbag-fuzz).
#
#   utils/fuzz.sh [SECONDS]      # default 60; builds ./build-san first
#   FUZZ_JOBS=2 utils/fuzz.sh 3600
#   utils/fuzz.sh --replay FILE  # re-run one input, diagnostics printed
#
# The corpus grows in build-san/fuzz/corpus across runs and is seeded from
# every test and example input (split at `// -----`). A crash, assertion or
# sanitizer report stops the run and leaves the input in
# build-san/fuzz/artifacts/. Ends with libFuzzer's execution count.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-san}"
FUZZ_DIR="${FUZZ_DIR:-$BUILD_DIR/fuzz}"
export BUILD_DIR

SANITIZE=1 "$ROOT/utils/setup.sh" >/dev/null
FUZZER="$BUILD_DIR/bin/embbag-fuzz"

if [ "${1:-}" = --replay ]; then
  EMBBAG_FUZZ_VERBOSE=1 exec "$FUZZER" "${2:?--replay needs a file}"
fi

SECONDS_TO_RUN="${1:-60}"
mkdir -p "$FUZZ_DIR/corpus" "$FUZZ_DIR/artifacts"
rm -rf "$FUZZ_DIR/seeds"
python3 "$ROOT/utils/fuzz/make-corpus.py" "$FUZZ_DIR/seeds" \
  "$ROOT/test" "$ROOT/examples"

ARGS=(
  -max_total_time="$SECONDS_TO_RUN"
  -max_len=8192
  -timeout=30
  -rss_limit_mb=4096
  -print_final_stats=1
  -dict="$ROOT/utils/fuzz/embbag.dict"
  -artifact_prefix="$FUZZ_DIR/artifacts/"
)
if [ -n "${FUZZ_JOBS:-}" ]; then ARGS+=(-fork="$FUZZ_JOBS"); fi
exec "$FUZZER" "${ARGS[@]}" "$FUZZ_DIR/corpus" "$FUZZ_DIR/seeds"

#!/usr/bin/env bash
# The test command: set-up (utils/setup.sh) and the whole lit suite.
# Ends with the line "N passed, N failed" (lit's counts); exits non-zero when
# a test fails.
#
# The suite runs against ./build. The instrumented ./build-san is set up too,
# for its libFuzzer target: test/Fuzz/smoke.test fuzzes for a minute.
# SANITIZE=1 (what utils/sanitize.sh sets) runs the suite against
# ./build-san's embbag-opt instead.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SANITIZE="${SANITIZE:-0}"
if [ "$SANITIZE" = 1 ]; then
  BUILD_DIR="${BUILD_DIR:-$ROOT/build-san}"
else
  BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
fi
SAN_BUILD_DIR="${SAN_BUILD_DIR:-$ROOT/build-san}"
export SANITIZE

BUILD_DIR="$BUILD_DIR" "$ROOT/utils/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }
LIT_PARAMS=()
if [ "$SANITIZE" != 1 ]; then
  SANITIZE=1 BUILD_DIR="$SAN_BUILD_DIR" "$ROOT/utils/setup.sh" ||
    { echo "0 passed, 1 failed"; exit 1; }
  LIT_PARAMS+=(--param "embbag_fuzz=$SAN_BUILD_DIR/bin/embbag-fuzz")
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -v "${LIT_PARAMS[@]}" "$@" "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

summary="$("$ROOT/utils/lit-summary.sh" "$log")"
echo "$summary"
failed="${summary#*passed, }"
failed="${failed%% failed}"
if [ "$status" != 0 ] || [ "$failed" != 0 ]; then exit 1; fi

#!/usr/bin/env bash
# The test command: set-up (utils/setup.sh) and the whole lit suite.
# Ends with the line "N passed, N failed" (lit's counts); exits non-zero when
# a test fails.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export BUILD_DIR

"$ROOT/utils/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -v "$@" "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

count() { sed -n "s/^ *$1: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(( $(count Passed || true) + 0 ))
xfailed=$(( $(count 'Expectedly Failed' || true) + 0 ))
failed=$(( $(count Failed || true) + $(count Unresolved || true) + $(count 'Timed Out' || true) + $(count 'Unexpectedly Passed' || true) + 0 ))
echo "$((passed + xfailed)) passed, $failed failed"
if [ "$status" != 0 ] || [ "$failed" != 0 ]; then exit 1; fi

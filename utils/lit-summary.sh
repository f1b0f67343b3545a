#!/usr/bin/env bash
# Reads lit's output (a file, or standard input) and prints the test
# command's last line, "N passed, N failed": passed counts lit's Passed and
# Expectedly Failed, failed its Failed, Unresolved, Timed Out and
# Unexpectedly Passed; Unsupported and Excluded tests count in neither.
# lit pads the names of its counts to one width ("Passed     : 176" when
# another count is longer), so the name may be followed by spaces.
#
#   utils/lit-summary.sh lit.log
set -uo pipefail

log="${1:-/dev/stdin}"
text="$(cat "$log")"
count() {
  printf '%s\n' "$text" | sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" | tail -n 1
}
passed=$(($(count Passed) + 0))
xfailed=$(($(count 'Expectedly Failed') + 0))
failed=$(($(count Failed) + $(count Unresolved) + $(count 'Timed Out') + $(count 'Unexpectedly Passed') + 0))
echo "$((passed + xfailed)) passed, $failed failed"

#!/usr/bin/env bash
# Builds embbag with AddressSanitizer, UndefinedBehaviorSanitizer and
# assertions (clang-22, ./build-san; see SANITIZE=1 in utils/setup.sh) and runs
# the whole lit suite against that embbag-opt, fuzz smoke included. Any
# sanitizer report aborts the embbag-opt that hit it, which fails its test.
#
#   utils/sanitize.sh [lit args...]
# Ends with "N passed, N failed".
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build-san}"
# libMLIR.so is not instrumented: see __asan_default_options in
# tools/embbag-fuzz/embbag-fuzz.cpp for why user poisoning is off.
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

SANITIZE=1 exec "$ROOT/utils/run-tests.sh" "$@"

#!/usr/bin/env bash
# The whole test suite: a release build with every test, then the same tests
# under AddressSanitizer + UndefinedBehaviorSanitizer. Exits non-zero when any
# test fails. Build folders: build-test/ and build-asan/ (reused if present).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

run_suite() {
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@"
  fi
  ninja -C "$dir" -j "$jobs"
  meson test -C "$dir" --print-errorlogs --num-processes "$jobs"
}

echo "== release build and tests"
run_suite build-test --buildtype=release
echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
# detect_leaks stays on; halt on the first UBSan report so it fails the test.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run_suite build-asan --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
echo "formatbench: all test suites passed"

#!/usr/bin/env bash
# The whole test suite: a release build with every test, then the same tests
# but the packaging suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# then short libFuzzer
# runs of every fuzz target (clang). Exits non-zero when any test fails.
# Build folders: build-test/, build-asan/ and build-fuzz/ (reused if present).
# FB_FUZZ_SECONDS: seconds per fuzz target (default 10; 0 skips that stage;
# docs/fuzzing.md says how to run them for longer).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

started=$SECONDS
stage_start=$SECONDS
# Each stage's wall time, so that a slow stage shows in CI's log.
stage_done() {
  echo "== $1: $((SECONDS - stage_start)) s (total $((SECONDS - started)) s)"
  stage_start=$SECONDS
}

# run_suite DIR [meson setup options] [-- meson test options]
run_suite() {
  local dir=$1; shift
  local setup=() test_args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do setup+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  test_args=("$@")
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "${setup[@]}"
  fi
  ninja -C "$dir" -j "$jobs"
  meson test -C "$dir" --print-errorlogs --num-processes "$jobs" "${test_args[@]}"
}

echo "== release build and tests"
run_suite build-test --buildtype=release
stage_done "release build and tests"
echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
# detect_leaks stays on; halt on the first UBSan report so it fails the test.
# The benchmark programs are built (and so compile-checked) by the release
# stage only: no test runs them.
# intercept_tls_get_addr=0: GCC 12's (and clang 14's) sanitizer runtime guesses
# where a dynamic-TLS block starts from 16 bytes before it whenever the block
# lies 16 bytes past a page boundary (glibc 2.19's layout). glibc 2.36 takes
# these blocks from malloc, so when one lands there by chance, LeakSanitizer
# reads a bogus range and its tracer crashes at exit ("Tracer caught signal
# 11"); the plugins' libraries with TLS (libgfortran, libgnutls, ...) made it
# happen. Without the interceptor those blocks are heap blocks reachable
# through the thread's DTV, so they are still scanned; and with fewer roots
# LeakSanitizer can only report more, never less.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The packaging suite (out-of-tree builds against the installed SDK, and
# installs) is left to the release stage: what it checks is the build and
# the install, and the formatbench code it runs is run under the sanitizers
# by the other suites; under them it was a quarter of this stage's test
# time (docs/testing.md).
run_suite build-asan --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false -Dbench=false \
  -- --no-suite packaging
stage_done "sanitizer build and tests"
echo "== libFuzzer targets (clang, ASan + UBSan): short runs, docs/fuzzing.md"
fuzz_seconds=${FB_FUZZ_SECONDS:-10}
if [ "$fuzz_seconds" -eq 0 ]; then
  echo "skipped (FB_FUZZ_SECONDS=0)"
else
  if ! command -v clang++ >/dev/null; then
    echo "test-all.sh: the fuzz stage needs clang++ with libFuzzer (or FB_FUZZ_SECONDS=0 to skip it)" >&2
    exit 1
  fi
  if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang CXX=clang++ meson setup build-fuzz -Dtests=true --buildtype=debugoptimized \
      -Db_sanitize=address,undefined -Db_lundef=false
  fi
  # Only the fuzz targets are built (each compiles in what it fuzzes), then
  # each runs FB_FUZZ_SECONDS on a copy of its seed corpus, two at a time.
  ninja -C build-fuzz build.ninja >/dev/null # regenerate first, so new targets are listed
  fuzz_targets=$(ninja -C build-fuzz -t targets all | sed -n 's|^\(tests/fuzz/fuzz_[a-z0-9_]*\): .*|\1|p')
  if [ -z "$fuzz_targets" ]; then
    echo "test-all.sh: build-fuzz has no fuzz targets (is it a clang build?)" >&2
    exit 1
  fi
  # shellcheck disable=SC2086
  ninja -C build-fuzz -j "$jobs" $fuzz_targets
  FB_FUZZ_SECONDS=$fuzz_seconds meson test -C build-fuzz --no-rebuild --suite fuzz --print-errorlogs \
    --num-processes 2
fi
stage_done "fuzz targets"
echo "formatbench: all test suites passed"

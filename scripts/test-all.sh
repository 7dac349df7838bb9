#!/usr/bin/env bash
# The whole test suite: a release build with every test, then every suite
# that runs the project's C++ code under AddressSanitizer +
# UndefinedBehaviorSanitizer, then short libFuzzer runs of every fuzz target
# (clang). Exits non-zero when any test fails (docs/testing.md).
# Build folders: build-test/, build-asan/ and build-fuzz/ (reused if present).
# FB_FUZZ_SECONDS: seconds per fuzz target (default 10; 0 skips that stage;
# docs/fuzzing.md says how to run them for longer).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# ccache (scripts/setup-debian.sh installs it; Meson uses it when it finds
# it): run again on this machine, even from a fresh clone in another folder,
# only what a change touched is compiled again. Paths under the checkout are
# hashed relative to it (base_dir), the compiling folder is left out of the
# hash of debug builds (their DW_AT_comp_dir differs between clones, nothing
# else). Compile-time defines hold no path of the
# clone (tests take theirs from the environment, tests/support/test_env.hpp),
# so that they match too.
export CCACHE_BASEDIR=$PWD
export CCACHE_NOHASHDIR=1
# The test programs map __FILE__ to paths relative to the checkout
# (tests/meson.build): the option names the checkout's folder, its result
# does not.
export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=*'
have_ccache=false
if command -v ccache >/dev/null; then have_ccache=true; fi

started=$SECONDS
stage_start=$SECONDS
# Each stage's wall time, so that a slow stage shows in CI's log.
stage_done() {
  echo "== $1: $((SECONDS - stage_start)) s (total $((SECONDS - started)) s)"
  if $have_ccache; then
    # How much of the stage's compiling the cache saved.
    ccache --print-stats 2>/dev/null | awk -F'\t' '
      $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hit += $2 }
      $1 == "cache_miss" { miss = $2 }
      END { printf "   ccache: %d hits, %d misses\n", hit, miss }'
    ccache --zero-stats >/dev/null
  fi
  stage_start=$SECONDS
}
if $have_ccache; then ccache --zero-stats >/dev/null; fi

# run_suite DIR [meson setup options] [-- meson test options]
run_suite() {
  local dir=$1; shift
  local setup=() test_args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do setup+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  test_args=("$@")
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "${setup[@]}"
  else
    meson configure "$dir" "${setup[@]}" >/dev/null # a reused folder gets the same options
  fi
  ninja -C "$dir" -j "$jobs"
  meson test -C "$dir" --print-errorlogs --num-processes "$jobs" "${test_args[@]}"
}

echo "== release build and tests"
run_suite build-test -Dbuildtype=release -Dtests=true -Dbench=true
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
# Three suites are left to the release stage (docs/testing.md, "Which
# stage runs what"): packaging (out-of-tree builds against the installed
# SDK, and installs: it checks the build and the install), interop (a
# plugin's files read by the format's own Python library or tool, and
# theirs by the plugin) and browser (the report in Chromium). Their cost is
# starting Python, h5py, the tools or a browser; the formatbench code they
# run is run under the sanitizers by the other suites.
run_suite build-asan -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false -Dtests=true -Dbench=false \
  -- --no-suite packaging --no-suite interop --no-suite browser
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
    # Meson puts ccache in front of a compiler it finds itself, not of one
    # named in CC/CXX: name it here.
    cc=clang cxx=clang++
    if $have_ccache; then cc="ccache clang" cxx="ccache clang++"; fi
    CC=$cc CXX=$cxx meson setup build-fuzz -Dtests=true --buildtype=debugoptimized \
      -Db_sanitize=address,undefined -Db_lundef=false
  fi
  # Only the fuzz targets are built (with the fuzzlib_* libraries they link), then
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

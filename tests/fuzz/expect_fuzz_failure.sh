#!/usr/bin/env bash
# expect_fuzz_failure.sh RUN_FUZZ TARGET RUN_DIR: runs run_fuzz.sh on a target
# whose seed crashes it (fuzz_planted_crash) and passes only when that run
# fails (exit status neither 0 nor 77, Meson's SKIP) and keeps the crashing
# input. Guards against a finding that passes quietly: libFuzzer's own exit
# status for one is 77.
set -u
runner=$1 target=$2 run_dir=$3
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
printf '!' >"$seeds/crash-seed"
status=0
FB_FUZZ_SECONDS=5 "$runner" "$target" "$seeds" "$run_dir" 5 >"$seeds/log" 2>&1 || status=$?
if [ "$status" -eq 0 ] || [ "$status" -eq 77 ]; then
  echo "expect_fuzz_failure.sh: run_fuzz.sh exited $status on a target that crashes on its seed; want a failure" >&2
  tail -20 "$seeds/log" >&2
  exit 1
fi
kept=$(ls "$run_dir"/crash-* 2>/dev/null | head -1)
if [ -z "$kept" ]; then
  echo "expect_fuzz_failure.sh: run_fuzz.sh failed ($status) but left no crash-* input in $run_dir" >&2
  exit 1
fi
grep -q "replay: $target $kept" "$seeds/log" || {
  echo "expect_fuzz_failure.sh: run_fuzz.sh did not print the replay command for $kept" >&2
  exit 1
}
echo "run_fuzz.sh exited $status and kept $kept"

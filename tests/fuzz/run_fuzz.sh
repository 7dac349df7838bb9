#!/usr/bin/env bash
# One short libFuzzer run, as a test: run_fuzz.sh TARGET SEED_DIR RUN_DIR SECONDS [DICT].
# Copies the seeds into RUN_DIR/corpus (the source tree is never written),
# fuzzes for SECONDS (FB_FUZZ_SECONDS overrides it) and fails on any crash,
# leak, sanitizer report, slow input (> 10 s) or allocation above the limits.
# A crashing input is left in RUN_DIR/crash-* (the command to replay it is
# printed).
set -euo pipefail
target=$1 seeds=$2 run_dir=$3
seconds=${FB_FUZZ_SECONDS:-$4}
dict_arg=()
[ $# -ge 5 ] && dict_arg=(-dict="$5")

rm -rf "$run_dir"
mkdir -p "$run_dir/corpus"
cp "$seeds"/* "$run_dir/corpus/"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
# timeout: a last resort should libFuzzer itself not stop.
timeout --signal=KILL $((seconds + 120)) "$target" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=256 \
  -print_final_stats=1 -error_exitcode=1 -timeout_exitcode=1 \
  -artifact_prefix="$run_dir/" "${dict_arg[@]}" "$run_dir/corpus" || status=$?
# libFuzzer's own default for a finding is 77, which Meson reads as SKIP: a
# crash would pass quietly. No finding may end in 77.
[ "$status" -eq 77 ] && status=1
if [ "$status" -ne 0 ]; then
  for f in "$run_dir"/crash-* "$run_dir"/leak-* "$run_dir"/timeout-* "$run_dir"/oom-* "$run_dir"/slow-unit-*; do
    [ -e "$f" ] && echo "run_fuzz.sh: failing input $f; replay: $target $f" >&2
  done
  exit "$status"
fi

#!/usr/bin/env bash
# The run engine end to end with real processes, under every schedule and
# both isolations: the misbehave test plugin (FB_TEST_PLUGINS) records every
# stream it opens (option trace), so the count of repetitions a plugin really
# performed is checked against the samples the record holds:
#  - warm-ups are performed and never recorded: warmup 2 + repeat 3 opens 5
#    write and 5 read streams per case sequentially (interleave and shuffle
#    add unrecorded re-warms), and the record holds 3 samples;
#  - the first write streams of a case's process made slow (slow_opens) are
#    the warm-ups: with warmup 2 no recorded write is slow, with warmup 1
#    exactly one is sequentially (a 400 ms sleep against writes of well under
#    400 ms), none under interleave (the re-warm takes it);
#  - a case's worker lives for the whole case under interleave, so a later
#    round does not start a new process (its open counter would restart and
#    slow writes appear among the samples);
#  - warmup_time extends the warm-up by time (one slow repetition is enough);
#  - interleave and shuffle warn once of re-warms under 50 ms, sequential not;
#  - the timeout is a budget for all of a case's steps together;
#  - a timeout, a plugin that leaves a child process behind, and a plugin
#    that prints: the study goes on, the child dies with its case, what it
#    printed is kept with the case and never mixed into --json -.
source "$(dirname "$0")/lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"
PY=/usr/bin/python3

for isolation in process none; do
  for schedule in sequential interleave shuffle; do
    rm -f trace-*
    cat > count.yaml <<EOF
defaults: {repeat: 3, warmup: 2}
schedule: $schedule
isolation: $isolation
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: 20000}]
formats:
  - {label: a, plugin: misbehave, options: {trace: $work/trace-a}}
  - {label: b, plugin: misbehave, options: {trace: $work/trace-b}}
  - {label: c, plugin: misbehave, options: {trace: $work/trace-c}, min_time: 50ms}
EOF
    expect_status 0 "$FB" run count.yaml --json count.json --no-console
    # Re-warms of a few milliseconds are named, once (results/noise.hpp).
    if [ "$schedule" = sequential ]; then
      ! grep -q "re-warm" "$work/err" || fail "a re-warm warning under sequential"
    else
      expect_in "$work/err" "warning: schedule $schedule: 3 of 3 cases re-warm for less than 50 ms"
      [ "$(grep -c "re-warm" "$work/err")" = 1 ] || fail "the re-warm warning is not one line"
    fi
    $PY - count.json "$work" "$schedule/$isolation" <<'PY' || fail "repetition counts ($schedule, $isolation)"
import json, sys
d = json.load(open(sys.argv[1]))
cases = {c["format"]["label"]: c for c in d["cases"]}
assert set(cases) == {"a", "b", "c"}, set(cases)
assert d["study"]["schedule"] == sys.argv[3].split("/")[0]
for label, c in cases.items():
    lines = open(f"{sys.argv[2]}/trace-{label}").read().split()
    n = len(c["samples"])
    if label == "c":
        # min_time: samples until their write + read time reaches 50 ms, not one more.
        total = [s["write"]["wall_s"] + s["read"]["wall_s"] for s in c["samples"]]
        assert n >= 3 and sum(total) >= 0.05 and (n == 3 or sum(total[:-1]) < 0.05), total
    else:
        assert n == 3, (label, n)
    opens = lines.count("write")
    assert lines.count("read") == opens, (label, lines.count("read"), opens)
    if sys.argv[3].startswith("sequential"):
        assert opens == n + 2, (label, opens, n)  # 2 warm-ups, n samples
    else:
        # interleave, shuffle: a re-warm before a recorded repetition that does
        # not follow one of its own case (at most one per sample, at least one).
        assert n + 2 < opens <= 2 * n + 2, (label, opens, n)
print(sys.argv[3], {l: len(c["samples"]) for l, c in cases.items()}, "samples; warm-ups 2 each, not recorded")
PY
  done
done

# Slow first opens are the warm-ups, also under interleave (one worker per case).
for schedule in sequential interleave; do
  for warmup in 2 1; do
    cat > slow.yaml <<EOF
defaults: {repeat: 3, warmup: $warmup}
schedule: $schedule
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: 20000}]
formats:
  - {label: s1, plugin: misbehave, options: {slow_opens: 2, slow_ms: 400}}
  - {label: s2, plugin: misbehave, options: {slow_opens: 2, slow_ms: 400}}
EOF
    expect_status 0 "$FB" run slow.yaml --json slow.json --no-console
    $PY - slow.json "$warmup" "$schedule" <<'PY' || fail "warm-ups recorded ($schedule, warmup $warmup)"
import json, sys
warmup, schedule = int(sys.argv[2]), sys.argv[3]
# Sequential: the first 2 - warmup recorded writes are the slow ones left.
# Interleave: the re-warm before the first recorded repetition takes them.
expected = 2 - warmup if schedule == "sequential" else 0
for c in json.load(open(sys.argv[1]))["cases"]:
    slow = [s["write"]["wall_s"] for s in c["samples"] if s["write"]["wall_s"] >= 0.4]
    assert len(c["samples"]) == 3
    assert len(slow) == expected, (schedule, warmup, [s["write"]["wall_s"] for s in c["samples"]])
print(sys.argv[3], "warmup", warmup, ": slow recorded writes as expected")
PY
  done
done

# warmup_time: with warmup 0 the warm-up still lasts 300 ms of write + read.
# The first write (slowed to 400 ms) is that warm-up, alone: one unrecorded
# repetition, then the 3 recorded ones, none slow.
for isolation in process none; do
  rm -f trace-w
  cat > wtime.yaml <<EOF
defaults: {repeat: 3, warmup: 0, warmup_time: 300ms}
isolation: $isolation
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: 20000}]
formats:
  - {label: w, plugin: misbehave, options: {slow_opens: 1, slow_ms: 400, trace: $work/trace-w}}
EOF
  expect_status 0 "$FB" run wtime.yaml --json wtime.json --no-console
  $PY - wtime.json "$work/trace-w" <<'PY' || fail "warmup_time ($isolation)"
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["params"]["warmup_time_s"] == 0.3, c["params"]
writes = [s["write"]["wall_s"] for s in c["samples"]]
assert len(writes) == 3 and max(writes) < 0.4, writes
opens = open(sys.argv[2]).read().split().count("write")
assert opens == 4, opens  # one warm-up (400 ms >= 300 ms), three recorded
print("warmup_time: one warm-up of", opens - 3, "repetition, recorded writes", writes)
PY
done

# A hang (timeout), a forgotten child process, a plugin that prints.
cat > faults.yaml <<EOF
defaults: {repeat: 2, warmup: 0, timeout: 3}
schedule: interleave
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: 10000}]
formats:
  - {label: hang, plugin: misbehave, options: {mode: hang}}
  - {label: child, plugin: misbehave, options: {mode: spawn_child}}
  - {label: print, plugin: misbehave, options: {mode: print}}
  - raw
EOF
start=$(date +%s)
expect_status 1 "$FB" run faults.yaml --json - --no-console
end=$(date +%s)
$PY - "$work/out" <<'PY' || fail "faults under interleave"
import json, sys
d = json.load(open(sys.argv[1]))  # standard output is the JSON record, nothing else
cases = {c["format"]["label"]: c for c in d["cases"]}
assert cases["hang"]["status"] == "timeout", cases["hang"]["status"]
assert cases["child"]["status"] == "ok", (cases["child"]["status"], cases["child"]["error"])
assert cases["print"]["status"] == "ok"
out = cases["print"]["output"]
assert "misbehave says hello on stdout" in out and "misbehave says hello on stderr" in out, out
assert cases["raw"]["status"] == "ok" and len(cases["raw"]["samples"]) == 2
print("timeout, forgotten child and printing plugin handled:", {l: c["status"] for l, c in cases.items()})
PY
[ $((end - start)) -lt 30 ] || fail "the forgotten child kept the run waiting ($((end - start)) s)"
if pgrep -f "formatbench" -a | grep -v pgrep | grep -q "faults.yaml"; then fail "a worker outlived the run"; fi
# The timeout is the case's budget, not a step's: repetitions of 300 ms each
# exceed a timeout of 1 s together.
cat > budget.yaml <<EOF
defaults: {repeat: 8, warmup: 0, timeout: 1}
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: 1000}]
formats: [{plugin: misbehave, options: {slow_opens: 100, slow_ms: 300}}]
EOF
expect_status 1 "$FB" run budget.yaml --json budget.json --no-console
$PY - budget.json <<'PY' || fail "timeout budget"
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["status"] == "timeout", (c["status"], c["error"])
assert 1 <= len(c["samples"]) <= 3, len(c["samples"])  # the samples before the budget ran out are kept
PY
echo "engine: ok"

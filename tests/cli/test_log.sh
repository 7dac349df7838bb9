#!/usr/bin/env bash
# The JSON Lines log and --resume end to end (docs/results.md, "The log",
# "Resuming"): an existing log is refused without --resume or --force; a log
# in use by another run is refused; a last line cut by a kill is repaired
# before anything is appended, over several kill/resume cycles; a log is
# tied to its study (a changed run parameter is an error naming it, unless
# --reuse-matching); a JSON record resumes too; failed cases are kept unless
# --retry-failed.
source "$(dirname "$0")/lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"
PY=/usr/bin/python3
mkdir data

cat > s.yaml <<EOF
name: logged
defaults: {repeat: 2, warmup: 0}
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: [1e4, 2e4, 4e4]}]
formats: [raw, memory, {label: bad, plugin: misbehave, options: {mode: fail_write}}]
EOF
# 9 cases, 3 of which fail.
expect_status 1 "$FB" run s.yaml --log a.jsonl --directory data --no-console
[ "$(wc -l < a.jsonl)" = 10 ] || fail "expected a header and 9 cases in a.jsonl"
head -1 a.jsonl | grep -q '"formatbench_log":1' || fail "the first line is not the log header"

# An existing log is refused; --force overwrites it.
expect_status 2 "$FB" run s.yaml --log a.jsonl --directory data --no-console
expect_in "$work/err" "log 'a.jsonl' exists: continue it with --resume a.jsonl, or overwrite it with --force"
expect_status 1 "$FB" run s.yaml --log a.jsonl --force --directory data --no-console
[ "$(wc -l < a.jsonl)" = 10 ] || fail "--force did not overwrite the log"

# A log in use by another run (a lock held while it runs) is refused. The
# holder's writes take 20 s each, so it still holds the lock however slowly
# this machine starts the second run (ASan, a loaded CI host); it is
# interrupted as soon as the second run has been refused.
cat > slow.yaml <<EOF
defaults: {repeat: 2, warmup: 0}
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{count: 1e4}]
formats: [{plugin: misbehave, options: {slow_opens: 10, slow_ms: 20000}}]
EOF
"$FB" run slow.yaml --log busy.jsonl --directory data --no-console >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -s busy.jsonl ] && break; sleep 0.05; done
expect_status 2 "$FB" run slow.yaml --resume busy.jsonl --directory data --no-console
expect_in "$work/err" "log 'busy.jsonl' is in use by another formatbench run"
kill -INT "$pid"; wait "$pid" 2>/dev/null || true

# Failed cases are kept on --resume (nothing runs again, exit 1 for them);
# --retry-failed runs them again (and they fail again).
cp a.jsonl kept.jsonl
expect_status 1 "$FB" run s.yaml --resume kept.jsonl --directory data --json kept.json --no-console
[ "$(wc -l < kept.jsonl)" = 10 ] || fail "a resume with nothing to run appended to the log"
expect_status 1 "$FB" run s.yaml --resume kept.jsonl --retry-failed --directory data --json retried.json --no-console
[ "$(wc -l < kept.jsonl)" = 13 ] || fail "--retry-failed did not run the 3 failed cases again"

# A finished log whose last line lacks only its newline (an editor, a copy)
# keeps that case on --resume: nothing runs again, the newline is added, and
# nothing is said to be cut (a user would see a finished case run twice).
cp a.jsonl whole.jsonl
truncate -s -1 whole.jsonl
[ "$(tail -c 1 whole.jsonl | od -An -c | tr -d ' ')" = "}" ] || fail "the copy still ends with a newline"
expect_status 1 "$FB" run s.yaml --resume whole.jsonl --directory data --json whole.json --no-console
if grep -q "cut short" "$work/err"; then cat "$work/err"; fail "a whole last line was called cut short"; fi
[ "$(wc -l < whole.jsonl)" = 10 ] || fail "the resume ran a case again or did not end the last line"
cmp -s whole.jsonl a.jsonl || fail "the resumed log is not the finished log with its newline"

# A log from another study, or other run parameters, is refused naming the field.
expect_status 2 "$FB" run s.yaml --set repeat=3 --resume a.jsonl --directory data --no-console
expect_in "$work/err" "repeat is 3 in this study and 2 in 'a.jsonl'"
expect_in "$work/err" "--reuse-matching"
expect_status 2 "$FB" run s.yaml --set 'datasets.0.count=[1e4]' --resume a.jsonl --directory data --no-console
expect_in "$work/err" "which this study does not plan"
cp a.jsonl re.jsonl
expect_status 1 "$FB" run s.yaml --set repeat=3 --resume re.jsonl --reuse-matching --directory data --json re.json --no-console
$PY - re.json <<'PY' || fail "--reuse-matching"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert len(cases) == 9 and all(len(c["samples"]) == 3 for c in cases if c["status"] == "ok"), cases
PY

# A JSON record resumes too (nothing appended anywhere without --log).
expect_status 1 "$FB" run s.yaml --directory data --json rec.json --no-console --set 'datasets.0.count=[1e4, 2e4]'
expect_status 1 "$FB" run s.yaml --resume rec.json --directory data --json from-rec.json --no-console --reuse-matching
$PY - rec.json from-rec.json <<'PY' || fail "resume from a record"
import json, sys
old = {c["key"]: c for c in json.load(open(sys.argv[1]))["cases"]}
new = json.load(open(sys.argv[2]))["cases"]
assert len(new) == 9
kept = [c for c in new if c["key"] in old]
assert len(kept) == 6 and all(c["samples"] == old[c["key"]]["samples"] for c in kept), "kept cases changed"
PY

# Kill/resume cycles, each leaving a cut last line: every resume repairs it.
cat > long.yaml <<EOF
defaults: {repeat: 2, warmup: 0}
datasets: [{dtype: f64, count: [1e5, 2e5, 3e5, 4e5]}]
formats: [raw, mmap, memory]
EOF
"$FB" run long.yaml --log k.jsonl --directory data --no-console >/dev/null 2>&1 &
pid=$!; for _ in $(seq 1 400); do [ "$(wc -l < k.jsonl 2>/dev/null || echo 0)" -ge 3 ] && break; sleep 0.05; done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
for cycle in 1 2 3; do
  printf '{"key": "cut in the mid' >> k.jsonl   # a write cut by a kill
  # The background job truncates resume.err only when its shell gets to the
  # redirection; without the rm, the wait below could match the previous
  # cycle's message first and kill this run before it started.
  rm -f resume.err
  "$FB" run long.yaml --resume k.jsonl --directory data --no-console >/dev/null 2>resume.err &
  # Killed as soon as it says it repaired the log (however slow the start is
  # under a sanitizer on a loaded machine), most likely in the middle of a case.
  pid=$!
  for _ in $(seq 1 600); do grep -qs "removed a last line cut short" resume.err && break; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  grep -q "removed a last line cut short" resume.err || { cat resume.err; fail "cycle $cycle: the cut line was not repaired"; }
done
printf '{"key": "cut' >> k.jsonl
expect_status 0 "$FB" run long.yaml --resume k.jsonl --directory data --json k.json --no-console
$PY - k.jsonl k.json <<'PY' || fail "kill/resume cycles"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]  # every line is JSON again
assert "formatbench_log" in lines[0]
keys = [l["key"] for l in lines[1:]]
assert len(keys) == len(set(keys)) == 12, (len(keys), len(set(keys)))
assert len(json.load(open(sys.argv[2]))["cases"]) == 12
print("after 3 kill/resume cycles with cut lines: 12 cases, each once, every line readable")
PY
echo "log: ok"

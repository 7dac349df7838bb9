#!/usr/bin/env bash
# Reliability end to end: misbehaving plugins become failed cases while the
# good results stay intact; a SIGKILLed run resumes to the same set of cases;
# SIGINT stops cleanly (exit 130, results written, data files removed); the
# case files a SIGKILLed run left in its own temporary folder are removed by
# the next run, which says so (and a folder kept on purpose, or in use, is
# left alone); a bad data directory is refused before anything runs (a full
# one: test_full_disk.sh).
# A plugin that crashes must die of its signal, also under AddressSanitizer
# (which would otherwise catch SIGSEGV and exit with status 1).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
source "$(dirname "$0")/lib.sh"
cd "$work"
json_field() { python3 - "$@"; }
# wait_lines FILE N: waits (up to 30 s) until FILE has N lines: a log's
# header and N - 1 finished cases.
wait_lines() {
  for _ in $(seq 1 600); do
    [ -f "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ] && return 0
    sleep 0.05
  done
}

# ---- 1. misbehaving plugins beside good ones
cat > bad.yaml <<'YAML'
name: misbehaving
defaults: {repeat: 2, warmup: 0, timeout: 3}
datasets: [{dtype: f64, count: 1e5}]
formats:
  - raw
  - memory
  - {label: segfault, plugin: misbehave, options: {mode: segfault}}
  - {label: abort, plugin: misbehave, options: {mode: abort}}
  - {label: exit, plugin: misbehave, options: {mode: exit}}
  - {label: hang, plugin: misbehave, options: {mode: hang}}
  - {label: wrong-data, plugin: misbehave, options: {mode: wrong_data}}
  - {label: fail-write, plugin: misbehave, options: {mode: fail_write}}
  - {label: good-misbehave, plugin: misbehave, options: {mode: ok}}
YAML
expect_status 1 "$FB" --plugin-path "$FB_TEST_PLUGINS" run bad.yaml --json bad.json --no-console
cat > good.yaml <<'YAML'
name: well-behaved
defaults: {repeat: 2, warmup: 0, timeout: 3}
datasets: [{dtype: f64, count: 1e5}]
formats:
  - raw
  - memory
  - {label: good-misbehave, plugin: misbehave, options: {mode: ok}}
YAML
expect_status 0 "$FB" --plugin-path "$FB_TEST_PLUGINS" run good.yaml --json good.json --no-console
python3 - bad.json good.json <<'PY' || fail "misbehaving study results"
import json, sys
bad = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
good = {c["format"]["label"]: c for c in json.load(open(sys.argv[2]))["cases"]}
expect = {
    "segfault": ("crashed", "signal 11"),
    "abort": ("crashed", "signal 6"),
    "exit": ("failed", "exited with status 3"),
    "hang": ("timeout", "timeout of 3 s"),
    "wrong-data": ("failed", "1 of 100000 values read back differ"),
    "fail-write": ("failed", "failed on purpose"),
}
for label, (status, text) in expect.items():
    c = bad[label]
    assert c["status"] == status, (label, c["status"], c["error"])
    assert text in c["error"], (label, c["error"])
    print(f"{label:12} {c['status']:8} {c['error']}")
for label in good:
    b, g = bad[label], good[label]
    assert b["status"] == g["status"] == "ok", label
    assert len(b["samples"]) == len(g["samples"]) == 2, label
    for k in ("key", "payload_bytes", "file_bytes", "verify"):
        assert b[k] == g[k], (label, k, b[k], g[k])
    print(f"{label:12} ok in both studies, same key, sizes and verification")
PY

# ---- 1b. a streamed read names the data set's element, not the piece's:
# 20000 f64 read in pieces of 16000 B (2000 values); element 11855 is
# element 1855 of the sixth piece (a wrong index would send the user to
# the wrong place in the file)
cat > streamed.yaml <<'YAML'
name: streamed-mismatch
defaults: {repeat: 1, warmup: 0, chunk: 16000}
datasets: [{dtype: f64, count: 20000}]
formats: [{label: wrong-late, plugin: misbehave, options: {mode: wrong_data, wrong_at: 11855}}]
YAML
expect_status 1 "$FB" --plugin-path "$FB_TEST_PLUGINS" run streamed.yaml --json streamed.json --no-console
expect_in "$work/err" "1 of 20000 values read back differ, the first at element 11855"
python3 - streamed.json <<'PY' || fail "a streamed read's mismatch in the record"
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["params"]["chunk_bytes"] == 16000, c["params"]
assert c["verify"]["mismatches"] == 1 and c["verify"]["first_mismatch_index"] == 11855, c["verify"]
PY

# ---- 2. SIGKILL in the middle, then --resume: the same set of cases
cat > long.yaml <<'YAML'
name: resumable
defaults: {repeat: 3, warmup: 0}
datasets: [{dtype: f64, count: [1e5, 2e5, 4e5]}]
formats: [raw, mmap, memory, {label: text, plugin: ascii}]
YAML
mkdir data
"$FB" run long.yaml --log run.jsonl --directory data --no-console >/dev/null 2>&1 &
pid=$!
wait_lines run.jsonl 4
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
done_before=$(( $(wc -l < run.jsonl) - 1 ))
[ "$done_before" -ge 3 ] && [ "$done_before" -lt 12 ] || fail "expected a partial log, got $done_before lines"
expect_status 0 "$FB" run long.yaml --resume run.jsonl --directory data --json resumed.json --no-console
expect_status 0 "$FB" run long.yaml --json full.json --no-console
python3 - resumed.json full.json run.jsonl "$done_before" <<'PY' || fail "resume lost or repeated cases"
import json, sys
resumed = [c["key"] for c in json.load(open(sys.argv[1]))["cases"]]
full = [c["key"] for c in json.load(open(sys.argv[2]))["cases"]]
lines = [json.loads(l) for l in open(sys.argv[3]) if l.strip()]
assert "formatbench_log" in lines[0] and all("formatbench_log" not in l for l in lines[1:]), "one header, first"
log = [l["key"] for l in lines[1:]]
assert sorted(resumed) == sorted(full) and len(set(resumed)) == len(full) == 12, (resumed, full)
assert sorted(log) == sorted(full), "the log holds every case exactly once"
assert all(json.load(open(sys.argv[1]))["cases"][i]["status"] == "ok" for i in range(12))
print(f"killed after {sys.argv[4]} cases; resumed run has all {len(full)} cases, same keys as an uninterrupted run")
PY

# ---- 3. SIGINT: exit 130, completed results written, no data files left
rm -rf data && mkdir data
"$FB" run long.yaml --directory data --json interrupted.json --no-console --log int.jsonl >/dev/null 2>int.err &
pid=$!
wait_lines int.jsonl 3
kill -INT "$pid"
status=0; wait "$pid" || status=$?
[ "$status" = 130 ] || { cat int.err; fail "SIGINT: expected exit 130, got $status"; }
expect_in int.err "interrupted"
expect_in int.err "--resume int.jsonl"
[ -z "$(ls -A data)" ] || fail "data files left after SIGINT: $(ls data)"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert 2 <= len(d["cases"]) < 12 and all(c["status"]=="ok" for c in d["cases"])' interrupted.json \
  || fail "SIGINT: completed results not written"

# ---- 3b. SIGKILL without --directory: the run's own folder under $TMPDIR
# is left with its case files; the next run removes it and says so. A folder
# a finished run kept (--keep-files) and one a live run holds stay.
mkdir tmp
TMPDIR="$work/tmp" "$FB" run long.yaml --log killed.jsonl --no-console >/dev/null 2>&1 &
pid=$!
wait_lines killed.jsonl 3
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
left=$(ls -d tmp/formatbench-* 2>/dev/null)
[ "$(echo "$left" | wc -w)" = 1 ] || fail "expected the killed run's one folder, got: $left"
[ -e "$left/.formatbench-running" ] || fail "the killed run's folder has no marker"
printf 'datasets: [{dtype: f64, count: 1000}]\nformats: [raw]\ndefaults: {repeat: 1, warmup: 0}\n' > tiny.yaml
TMPDIR="$work/tmp" "$FB" run tiny.yaml --keep-files --no-console >/dev/null 2>&1 || fail "a tiny run failed"
kept=$(ls -d tmp/formatbench-* | grep -vx "$left")
[ -n "$kept" ] && [ ! -e "$kept/.formatbench-running" ] || fail "a kept folder still holds the marker: $kept"
mkdir tmp/formatbench-LIVE01 && touch tmp/formatbench-LIVE01/.formatbench-running
python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' tmp/formatbench-LIVE01 locked &
holder=$!
for _ in $(seq 1 100); do [ -e locked ] && break; sleep 0.05; done
# The killed run's forked worker may still finish its case: its copy of the
# lock ends with it. Folders younger than 2 s are left (a run locks its
# folder just after making it).
sleep 2.2
for _ in $(seq 1 100); do
  TMPDIR="$work/tmp" expect_status 0 "$FB" run tiny.yaml --no-console
  grep -qF "removed '$work/$left'" "$work/err" && break
  sleep 0.1
done
expect_in "$work/err" "removed '$work/$left' ("
expect_in "$work/err" "left by a formatbench run that was killed"
[ ! -e "$left" ] || fail "the killed run's folder is still there"
[ -d "$kept" ] || fail "the next run removed a folder kept with --keep-files"
[ -d tmp/formatbench-LIVE01 ] || fail "the next run removed a folder a live run holds"
kill "$holder"; wait "$holder" 2>/dev/null || true
[ "$(ls tmp | wc -l)" = 2 ] || fail "the tiny run left its own folder: $(ls tmp)"

# ---- 4. a data directory that does not exist: refused before anything runs
expect_status 2 "$FB" --plugin-path "$FB_TEST_PLUGINS" run good.yaml --directory "$work/missing/dir" --json missing.json --no-console
expect_in "$work/err" "directory '$work/missing/dir' does not exist"
[ ! -e missing.json ] || fail "a record was written for a study that could not run"
echo "reliability: ok"

#!/usr/bin/env bash
# Faults around the plugin calls (docs/faults.md): a from_file data set is
# read in the case's isolated worker (a reader that crashes fails those cases,
# never the runner), and streamed when larger than the memory limit; sizes
# that overflow and inputs that are missing are refused at `plan` with the
# key; a plugin's error message that is not UTF-8 is kept, escaped; names and
# messages printed to a terminal have their control characters escaped.
source "$(dirname "$0")/lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"
PY=/usr/bin/python3
mkdir data

# A from_file data set, written by raw first.
$PY -c '
import struct, sys
with open("input.bin", "wb") as f:
    f.write(struct.pack("<100000d", *[i * 0.5 for i in range(100000)]))'
cat > ff.yaml <<EOF
defaults: {repeat: 2, warmup: 0, chunk: 16KiB, timeout: 5}
plugin_path: [$FB_TEST_PLUGINS]
datasets:
  - {name: good, dtype: f64, count: 1e5, from_file: {path: input.bin, plugin: raw}}
  - {name: crashing, dtype: f64, count: 1e5, from_file: {path: input.bin, plugin: misbehave, options: {mode: segfault}}}
formats: [raw, memory]
EOF
# Streamed from its file (limit far below its 800 kB), and read in the worker:
# the crashing reader fails its two cases; the others pass and keep the data.
expect_status 1 "$FB" run ff.yaml --memory-limit 64KiB --directory data --keep-files --json ff.json --no-console
$PY - ff.json data <<'PY' || fail "from_file in the worker"
import json, struct, sys, glob
cases = {(c["dataset"]["name"], c["format"]["label"]): c for c in json.load(open(sys.argv[1]))["cases"]}
assert len(cases) == 4, list(cases)
for f in ("raw", "memory"):
    good, bad = cases[("good", f)], cases[("crashing", f)]
    assert good["status"] == "ok" and good["verify"]["mismatches"] == 0 and good["verify"]["compared"] == 100000, good
    assert bad["status"] == "crashed" and "signal 11" in bad["error"], (bad["status"], bad["error"])
# The raw case's data file holds the input's values, element by element.
written = open(glob.glob(sys.argv[2] + "/case-0000-raw.raw")[0], "rb").read()
assert written == open("input.bin", "rb").read(), "the streamed from_file data differ from the file"
print("from_file: streamed through its plugin in the worker; the crashing reader failed only its cases")
PY

# Refused at plan, with the key: an overflowing size, a missing input, a
# directory that is a file.
printf 'datasets: [{count: 3e18}]\nformats: [raw]\n' > big.yaml
expect_status 2 "$FB" plan big.yaml
expect_in "$work/err" "big.yaml:1:12: datasets[0]: count 3000000000000000000 of f64 is more bytes than 64 bits can count"
printf 'datasets: [{count: 10, from_file: {path: nowhere.bin, plugin: raw}}]\nformats: [raw]\n' > missing.yaml
expect_status 2 "$FB" plan missing.yaml
expect_in "$work/err" "missing.yaml:1:12: dataset 'f64-nowhere-10': from_file: 'nowhere.bin' cannot be read: No such file or directory"
printf 'directory: big.yaml\ndatasets: [{count: 10}]\nformats: [raw]\n' > dir.yaml
expect_status 2 "$FB" plan dir.yaml
expect_in "$work/err" "directory 'big.yaml' is not a folder"
expect_status 2 "$FB" plan /dev/zero
expect_in "$work/err" "is larger than"

# A plugin message that is not UTF-8 is kept, escaped, in the record; a
# terminal never receives its control characters raw, and its newline
# cannot forge a row of the results table.
cat > bytes.yaml <<EOF
defaults: {repeat: 1, warmup: 0}
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{dtype: f64, count: 100}]
formats: [{plugin: misbehave, options: {mode: bad_message}}]
EOF
expect_status 1 "$FB" run bytes.yaml --json bytes.json --directory data
$PY - bytes.json "$work/out" <<'PY' || fail "messages that are not UTF-8 or hold control characters"
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["status"] == "failed", c
assert "invalid \\xff\\xfe bytes" in c["error"], c["error"]   # kept, escaped
assert "\x1b[2J" not in c["error"] and "\\x1b[2J" in c["error"], c["error"]
table = open(sys.argv[2], "rb").read()
assert b"\x1b" not in table, "an escape sequence reached the terminal"
# The message's newline stays inside its line: no row of the table is forged.
lines = table.decode("utf-8", "replace").splitlines()
assert not any(l.lstrip().startswith("forged") for l in lines), "a newline in a message forged a table row"
assert any("\\n forged  1.00 ms" in l for l in lines), "the message's newline is not shown escaped"
print("error kept:", c["error"])
PY
# Two runs in one folder: the second is refused before anything runs (they
# removed each other's case files, and the errors blamed the plugins: "raw:
# cannot open ... No such file or directory"). The first holds the folder
# with write streams of 20 s, whatever the machine's speed; it is
# interrupted once the second has been refused, and a run after it may use
# the folder again.
mkdir shared
cat > holder.yaml <<EOF
defaults: {repeat: 2, warmup: 0}
plugin_path: [$FB_TEST_PLUGINS]
datasets: [{count: 1e4}]
formats: [{plugin: misbehave, options: {slow_opens: 10, slow_ms: 20000}}]
EOF
"$FB" run holder.yaml --directory shared --no-console --progress none --log holder.jsonl >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -s holder.jsonl ] && break; sleep 0.05; done
sleep 0.2
expect_status 2 "$FB" run bytes.yaml --directory shared --no-console
expect_in "$work/err" "directory 'shared' is in use by another formatbench run"
kill -INT "$pid"; wait "$pid" 2>/dev/null || true
expect_status 1 "$FB" run bytes.yaml --directory shared --no-console
echo "faults: ok"

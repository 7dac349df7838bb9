#!/usr/bin/env bash
# Outputs end to end (docs/results.md, "Outputs"): paths are checked before
# the first case (exit 2, nothing runs); a path that is not a regular file is
# written through, never replaced; a failing output does not lose the
# others; machine-readable output on standard output replaces the table; a
# failed write to standard output is an error in every command.
source "$(dirname "$0")/lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"
PY=/usr/bin/python3
mkdir data
cat > s.yaml <<'EOF'
defaults: {repeat: 2, warmup: 0}
datasets: [{count: 1e4}]
formats: [raw, memory]
EOF

# Checked before anything runs: no data file is ever made.
for bad in "missing/r.json" "data" ; do
  expect_status 2 "$FB" run s.yaml --json "$bad" --directory data
  expect_in "$work/err" "$bad"
  [ -z "$(ls -A data)" ] || fail "a case ran before the bad output '$bad' was found"
done
expect_in "$work/err" "is a folder"
# A folder that says it may be written (root passes access() in /proc) but
# takes no file: found by making a file there before the run, not after it
# (the JSON was lost after the whole run).
expect_status 2 "$FB" run s.yaml --json /proc/r.json --directory data
expect_in "$work/err" "json output '/proc/r.json': cannot create a file in folder '/proc'"
[ -z "$(ls -A data)" ] || fail "a case ran before the output /proc/r.json was found unwritable"
# The trial file is removed: a good path leaves only the output.
mkdir probe-out
expect_status 0 "$FB" run s.yaml --json probe-out/r.json --directory data --no-console
[ "$(ls -A probe-out)" = r.json ] || fail "the output folder holds $(ls -A probe-out)"
cat > outs.yaml <<'EOF'
datasets: [{count: 1e4}]
formats: [raw]
outputs: [{format: json, path: nowhere/r.json}, {format: jsn, path: x.json}]
EOF
expect_status 2 "$FB" plan outs.yaml
expect_in "$work/err" "outs.yaml:3:"
expect_in "$work/err" "nowhere/r.json"
expect_status 2 "$FB" run s.yaml --csv - --json -
expect_in "$work/err" "both go to standard output"

# Not a regular file: written through. /dev/null stays a device; a symbolic
# link stays a link and its target gets the record; a FIFO is read by a reader.
expect_status 0 "$FB" run s.yaml --json /dev/null --directory data --no-console
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
echo old > target.json
ln -s target.json link.json
expect_status 0 "$FB" run s.yaml --json link.json --directory data --no-console
[ -L link.json ] || fail "the symbolic link was replaced"
$PY -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["cases"]) == 2' target.json \
  || fail "the link's target does not hold the record"
mkfifo pipe.csv
( cat pipe.csv > from-fifo.csv ) &
reader=$!
expect_status 0 "$FB" run s.yaml --csv pipe.csv --directory data --no-console
wait "$reader"
[ -p pipe.csv ] || fail "the FIFO was replaced"
[ "$(wc -l < from-fifo.csv)" = 3 ] || fail "the FIFO's reader did not get the CSV"

# A failing output loses nothing else: the CSV to a full device fails, the
# JSON and the table are still written, exit 1, the error names the output.
expect_status 1 "$FB" run s.yaml --csv /dev/full --json ok.json --directory data
expect_in "$work/err" "csv output '/dev/full'"
expect_in "$work/err" "No space left on device"
expect_in "$work/out" " raw "
$PY -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["cases"]) == 2' ok.json || fail "ok.json lost"

# --json - / --csv -: standard output holds that output alone.
expect_status 0 "$FB" run s.yaml --csv - --directory data
$PY -c 'import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); assert len(rows) == 2, rows' "$work/out" \
  || fail "--csv - is not a CSV of the 2 cases"
expect_status 0 "$FB" run s.yaml --json - --directory data
$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/out" || fail "--json - is not one JSON document"

# A failed write to standard output fails every command.
expect_status 0 "$FB" run s.yaml --json r1.json --directory data --no-console
for cmd in "run s.yaml --directory data" "plan s.yaml" "plugins" "describe raw" "compare r1.json r1.json" \
           "check-plugin --quick $(dirname "$FB")/../plugins/libfb_memory.so"; do
  status=0
  # shellcheck disable=SC2086
  "$FB" $cmd > /dev/full 2>err.txt || status=$?
  [ "$status" != 0 ] || fail "'formatbench $cmd > /dev/full' exited 0"
  grep -q "standard output" err.txt || { cat err.txt; fail "'formatbench $cmd > /dev/full' did not say what failed"; }
done
# `report` writes its page to a file and says so on standard error: a full
# standard output does not concern it.
expect_status 0 "$FB" report r1.json -o page.html
echo "outputs: ok"

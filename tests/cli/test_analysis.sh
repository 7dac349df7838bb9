#!/usr/bin/env bash
# What run and plan compute and warn (issue 18): --filter and --exclude on
# plan and run (case numbers of the full plan, the baseline pulled in,
# unknown fields and empty selections exit 2, --resume of a filtered run).
# Expected case sets are written out by hand from the study below; the
# record is read with Python's json.
source "$(dirname "$0")/lib.sh"
cd "$work"
PY=/usr/bin/python3

# 2 data sets x (raw, memory, raw chunked): 6 cases, numbered 0..5 by plan:
# 0 f64 raw, 1 f64 memory, 2 f64 raw-64k, 3 i32 raw, 4 i32 memory, 5 i32 raw-64k.
cat > s.yaml <<'YAML'
name: sel
datasets:
  - {dtype: f64, count: 1000}
  - {dtype: i32, count: 2000}
defaults: {repeat: 1, warmup: 0}
formats:
  - raw
  - memory
  - {label: raw-64k, plugin: raw, chunk: 64KiB}
baseline: raw
YAML

# ---- plan: the selected rows only, under their full-plan numbers
expect_status 0 "$FB" plan s.yaml --filter memory
expect_in "$work/out" "4 of 6 cases selected"
expect_in "$work/err" "case 0 (f64-uniform-1e3 | raw | chunk whole | warm | sync none) runs too: it is the baseline of selected cases"
$PY - "$work/out" <<'PY' || fail "plan --filter rows"
import sys
rows = [l.split() for l in open(sys.argv[1]) if l[:1].isdigit()]
got = sorted((int(r[0]), r[4]) for r in rows)
# memory is cases 1 and 4; raw, their baseline, 0 and 3.
assert got == [(0, "raw"), (1, "memory"), (3, "raw"), (4, "memory")], got
PY
expect_status 0 "$FB" plan s.yaml --filter dtype=i32 --exclude 'chunk=65536' --exclude '~mem'
expect_in "$work/out" "1 of 6 cases selected"
expect_in "$work/out" "3  i32-uniform-2e3"
expect_status 2 "$FB" plan s.yaml --filter dtyp=i32
expect_in "$work/err" "unknown field 'dtyp'"
expect_in "$work/err" "did you mean 'dtype'"
expect_status 2 "$FB" plan s.yaml --filter 'hdf5*'
expect_in "$work/err" "--filter 'hdf5*' selects none of the 6 cases"
expect_status 2 "$FB" run s.yaml --exclude '~.'
expect_in "$work/err" "selects none"

# ---- run: only the selected cases (and their baseline) run; exit 0
expect_status 0 "$FB" run s.yaml --filter 'memory' --filter dtype=f64 --json f.json --csv f.csv --log f.jsonl
expect_in "$work/err" "runs too"
$PY - f.json f.csv <<'PY' || fail "filtered record"
import csv, json, sys
d = json.load(open(sys.argv[1]))
got = [(c["format"]["label"], c["dataset"]["dtype"]) for c in d["cases"]]
assert sorted(got) == [("memory", "f64"), ("raw", "f64")], got
assert all(c["status"] == "ok" for c in d["cases"])
# The baseline ran, so the memory row has its speed-up.
m = next(r for r in csv.DictReader(open(sys.argv[2], newline="")) if r["format"] == "memory")
assert float(m["write_speedup"]) > 0, m
PY
# --resume of the filtered log runs the four cases left out.
expect_status 0 "$FB" run s.yaml --resume f.jsonl --json all.json
$PY - all.json <<'PY' || fail "resumed record"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["cases"]) == 6, len(d["cases"])
PY
echo "analysis: ok"

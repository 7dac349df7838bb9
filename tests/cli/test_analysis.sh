#!/usr/bin/env bash
# What run and plan compute and warn (issue 18): --filter and --exclude on
# plan and run (case numbers of the full plan, the baseline pulled in,
# unknown fields and empty selections exit 2, --resume of a filtered run);
# plan's estimates (every file a run leaves is within plan's DISK bound,
# --from gives times, and without it calibration runs do, warnings for too
# little disk or memory); noise shown
# (the misbehave plugin's first write made 300 ms slow: a warning naming the
# CV and the outlier, the console's ~ mark, the record's findings and the
# speed-up interval; too few samples; the noise_cv key); the cost model of
# a count sweep (console section; the record's fits recomputed here from
# the record's own medians).
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

# ---- plan estimates: each real file fits the bound plan printed
cat > sizes.yaml <<'YAML'
name: sizes
datasets:
  - {dtype: f64, count: 3000}
  - {dtype: i32, count: 3000, distribution: integers, low: -2000000000, high: 2000000000}
defaults: {repeat: 1, warmup: 0}
formats:
  - raw
  - zlib
  - {label: fixed16, plugin: ascii, options: {notation: fixed, precision: 16}, tolerance: {abs: 1.1e-16}}
  - {label: shortest, plugin: ascii}
  - {label: sci, plugin: ascii, options: {notation: scientific, precision: 20, separator: ",", values_per_line: 7}}
YAML
expect_status 0 "$FB" plan sizes.yaml
cp "$work/out" plan.txt
expect_status 0 "$FB" run sizes.yaml --json sizes.json --no-console
$PY - plan.txt sizes.json <<'PY' || fail "plan's disk bounds"
import json, re, sys
units = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
header, bound = None, {}
for line in open(sys.argv[1]):
    cells = re.split(r" {2,}", line.strip())  # columns are 2 or more spaces apart
    if cells[0] == "#": header = cells
    elif header and line[:1].strip() and cells[0].isdigit():
        number, unit = cells[header.index("DISK")].split()
        bound[int(cells[0])] = float(number) * units[unit]
d = json.load(open(sys.argv[2]))
assert len(bound) == len(d["cases"]) == 10, (bound, len(d["cases"]))
for c in d["cases"]:
    b = bound[c["index"]] * 1.005  # plan rounds to 3 digits
    assert 0 < c["file_bytes"] <= b, (c["format"]["label"], c["dataset"]["dtype"], c["file_bytes"], b)
PY
# --from: each case's time from the earlier run, and the total
expect_status 0 "$FB" plan sizes.yaml --from sizes.json --set 'datasets.0.count=[3000, 6000]'
expect_in "$work/out" "TIME"
expect_in "$work/out" "time: about"
expect_in "$work/out" "for the 15 of 15 cases"
# without --from: each case runs briefly (calibration) and gets a time; the
# total names its source; --no-calibrate runs nothing and prints no time
expect_status 0 "$FB" plan sizes.yaml
expect_in "$work/err" "calibrating: each case runs twice"
expect_in "$work/out" "TIME"
expect_in "$work/out" "for the 10 of 10 cases calibrated (source: calibration runs now"
expect_status 0 "$FB" plan sizes.yaml --no-calibrate
grep -q "TIME\|time: about" "$work/out" && fail "plan --no-calibrate printed a time"
# 10^13 values: more disk than any test machine has free, and, whole, more
# memory than the process may use (streamed: three 80 TB chunks)
expect_status 0 "$FB" plan sizes.yaml --set datasets.0.count=1e13 --filter raw --filter dtype=f64
expect_in "$work/err" "formatbench: warning: the largest case may need up to"
expect_in "$work/err" "give --directory another folder"
expect_in "$work/err" "in memory, more than half of the"
expect_in "$work/out" "(streamed)"

# ---- noise: one planted slow write among 6 (slow_opens: the first write
# stream of the case's worker process takes slow_ms longer)
cat > noisy.yaml <<'YAML'
name: noisy
datasets:
  - {dtype: f64, count: 1000}
defaults: {repeat: 6, warmup: 0}
formats:
  - raw
  - {label: bumpy, plugin: misbehave, options: {slow_opens: 1, slow_ms: 300}}
baseline: raw
YAML
# One summary of the noise after the table; each noisy phase with --verbose.
expect_status 0 "$FB" --plugin-path "$FB_TEST_PLUGINS" run noisy.yaml --progress none
tr '\n' ' ' < "$work/err" | sed 's/   */ /g' > summary.txt
expect_in summary.txt " of 4 phases are noisy (~ in the table): "
expect_in summary.txt "The worst: 'bumpy' write, CV "
expect_in summary.txt "Each noisy phase: --verbose, or \"noise\" in the JSON record."
if grep -q "warning: case 1" "$work/err"; then cat "$work/err"; fail "per-case noise lines without --verbose"; fi
expect_status 0 "$FB" --plugin-path "$FB_TEST_PLUGINS" run noisy.yaml --json noisy.json --verbose
# Six samples have a 95% interval of the median, [x(1), x(6)]: the planted
# 300 ms sample is its upper end, so the median is known only within far
# more than the 2% asked.
expect_in "$work/err" "formatbench: warning: case 1 (f64-uniform-1e3 | bumpy | chunk whole | warm | sync none): write: median known within"
expect_in "$work/err" "(95%), not the 2% asked"
expect_in "$work/out" "~: noisy timing: resting on disturbed samples, median known less precisely than"
expect_in "$work/out" "[low, high]: the speed-up's interval"
grep -E '^ bumpy .* ~ ' "$work/out" >/dev/null || fail "the bumpy row's write cell is not marked ~"
$PY - noisy.json <<'PY' || fail "noise in the record"
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.environ["FB_CHECK_REPORT"]))
from check_report import times  # the samples an estimate rests on, read again from the record
d = json.load(open(sys.argv[1]))
raw, bumpy = d["cases"]
w = [s["write"]["wall_s"] for s in bumpy["samples"]]
assert w[0] > 0.3 and max(w[1:]) < 0.3, w  # the planted sample
# Tukey's fences over the samples the estimate rests on, counted here with the
# same quantile rule (linear, as numpy's default): the planted sample is one
# of them. The count is not pinned at 1: under load another sample may lie
# beyond the fences too (it did, once), and the record must then say 2.
# (A wrong count: the table's "1 outlier" where the samples hold 2, or 0.)
used = times(bumpy, "write")
q1, _, q3 = statistics.quantiles(used, n=4, method="inclusive")
fence = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1))
beyond = [t for t in used if not fence[0] <= t <= fence[1]]
assert max(used) in beyond and bumpy["write"]["outliers"] == len(beyond), (bumpy["write"], used, beyond)
assert any(f.startswith("write: median known within") for f in bumpy["noise"]), bumpy["noise"]
# x(6) of 6: the planted 300 ms sample (it sleeps: no CPU wait to take
# off; when a steal tick, 5 to 10 ms here, falls in it, its net time).
assert bumpy["write"]["ci_high_s"] > 0.25, bumpy["write"]
sp = bumpy["speedup"]
assert sp["baseline_index"] == 0 and sp["write_pooled_n"] == 6, sp
# the point estimate from the samples, independently; inside its interval
value = statistics.median(times(raw, "write")) / statistics.median(times(bumpy, "write"))
assert abs(sp["write"]["value"] - value) < 1e-9 * value, (sp, value)
assert sp["write"]["ci_low"] <= value <= sp["write"]["ci_high"], sp
assert raw["speedup"]["write"] == {"value": 1.0, "ci_low": 1.0, "ci_high": 1.0}, raw["speedup"]
assert d["study"]["noise_cv"] == 0.1 and d["study"]["noise_min_samples"] == 5
PY
# Too few samples, and a looser CV threshold from the study key
expect_status 0 "$FB" --plugin-path "$FB_TEST_PLUGINS" run noisy.yaml --set repeat=2 --set noise_cv=1000% \
  --filter bumpy --no-console --verbose
expect_in "$work/err" "write: only 2 samples (fewer than 5)"
tr '\n' ' ' < "$work/err" | sed 's/   */ /g' > summary.txt
expect_in summary.txt "4 of 4 phases are noisy (~ in the table): 4 with fewer than 5 samples"  # bumpy and its baseline (under load also ", 1 resting on disturbed samples")
if grep -q "is above" "$work/err"; then cat "$work/err"; fail "noise_cv=1000% still warns of the CV"; fi

# ---- cost model of a count sweep
cat > sweep.yaml <<'YAML'
name: sweep
datasets:
  - {dtype: f64, count: [1000, 10000, 100000]}
defaults: {repeat: 2, warmup: 0}
formats: [raw, memory]
YAML
expect_status 0 "$FB" run sweep.yaml --json sweep.json
expect_in "$work/out" "cost model: time = fixed + per value x count"
# a fit (never a negative cost) or, when 3 noisy counts are not on a line, none
grep -E '^ raw +write +([0-9.e+]+ µs +[0-9.e+-]+ ns |- +- +- +[0-9.]+% +no linear range )' "$work/out" >/dev/null \
  || fail "no raw write row in the console"
$PY - sweep.json <<'PY' || fail "cost model in the record"
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.environ["FB_CHECK_REPORT"]))
from check_report import times  # the estimate rests on these samples, not on all of them
d = json.load(open(sys.argv[1]))
cm = d["cost_model"]
tol = cm["tolerance"]
assert tol == 0.15, cm
fits = {(f["label"], f["phase"]): f for f in cm["fits"]}
assert set(fits) == {("raw", "write"), ("memory", "write"), ("raw", "read"), ("memory", "read")}, set(fits)
def fit(pts):
    # least squares of the relative error (weights 1/t^2), a, b >= 0
    w = [1 / t ** 2 for _, t in pts]
    S = sum(w); Sx = sum(wi * n for wi, (n, _) in zip(w, pts)); Sy = sum(wi * t for wi, (_, t) in zip(w, pts))
    Sxx = sum(wi * n * n for wi, (n, _) in zip(w, pts)); Sxy = sum(wi * n * t for wi, (n, t) in zip(w, pts))
    b = (S * Sxy - Sx * Sy) / (S * Sxx - Sx * Sx); a = (Sy - b * Sx) / S
    if a < 0: a, b = 0, sum(n / t for n, t in pts) / sum((n / t) ** 2 for n, t in pts)
    elif b < 0: a, b = sum(1 / t for _, t in pts) / sum(1 / t ** 2 for _, t in pts), 0
    return a, b, max(abs(t - a - b * n) / t for n, t in pts)
for (label, phase), f in fits.items():
    pts = sorted((c["dataset"]["count"], statistics.median(times(c, phase)))
                 for c in d["cases"] if c["format"]["label"] == label)
    assert f["counts"] == 3 and f["min_count"] == 1000 and f["max_count"] == 100000, f
    a, b, worst = fit(pts)  # 3 counts: the only range there is
    assert f["linear"] == (worst <= tol), (f, worst)
    if f["linear"]:
        assert f["points"] == 3 and (f["valid_min_count"], f["valid_max_count"]) == (1000, 100000), f
        assert f["fixed_us"] >= 0 and f["per_value_ns"] >= 0, f
        assert abs(f["fixed_us"] - a * 1e6) <= 1e-6 * max(1, a * 1e6), (label, phase, f, a)
        assert abs(f["per_value_ns"] - b * 1e9) <= 1e-6 * max(1, b * 1e9), (label, phase, f, b)
    else:
        assert f["fixed_us"] is None and f["points"] == 0, f
        assert not any(label in (x["faster_below"], x["faster_above"]) for x in cm["crossovers"] if x["phase"] == phase)
    assert abs(f["max_rel_residual"] - worst) <= 1e-9, (f, worst)
PY
# plan --from predicts what the earlier run lacks from its cost model. The
# record's times are replaced by exact lines (raw: write 20 us + 2 ns n,
# read 10 us + 1 ns n; memory a tenth of that), so every fit is linear:
# 150000 is within 2x of the valid range 1000..100000 (model), 10^6 is not
# (scaled from 10^5, ~). The record's cases carry no identities: the fits
# must still keep raw and memory apart.
$PY - sweep.json synthetic.json <<'PY' || fail "synthetic record"
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    n, k = c["dataset"]["count"], 1 if c["format"]["label"] == "raw" else 0.1
    for s in c["samples"]:
        s["write"]["wall_s"] = k * (20e-6 + 2e-9 * n)
        s["read"]["wall_s"] = k * (10e-6 + 1e-9 * n)
        # The real run's accounting belongs to its own times: without it the
        # samples count as undisturbed (under load a sample's CPU wait made
        # its net time fall off the line, and the fit failed).
        s["write"].pop("accounting", None)
        s["read"].pop("accounting", None)
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 0 "$FB" plan sweep.yaml --from synthetic.json --set 'datasets.0.count=[1000, 150000, 1000000]' \
  --filter raw
$PY - "$work/out" <<'PY' || { cat "$work/out"; fail "plan's times from the cost model"; }
import re, sys
header, time = None, {}
for line in open(sys.argv[1]):
    cells = re.split(r" {2,}", line.strip())
    if cells[0] == "#": header = cells
    elif header and line[:1].strip() and cells[0].isdigit():
        time[cells[header.index("KEY") if "KEY" in header else 1]] = cells[header.index("TIME")]
cells = sorted(time.values())
assert len(cells) == 3, time
# repeat 2, warm-up 0: 2 x (write + read) at 150000 = 2 x 480 us = 960 us
assert "960 \u00b5s (model)" in cells, cells
assert any(c.endswith(" ~") for c in cells), cells  # 10^6, from 10^5 scaled
assert sum(1 for c in cells if not c.endswith(("~", "(model)"))) == 1, cells  # 1000: the same case
PY
expect_in "$work/out" "(model): predicted by its cost model"
# ... and the HTML report's small table
expect_status 0 "$FB" report sweep.json -o sweep.html
$PY - sweep.html <<'PY' || fail "cost model in the report"
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.cells = []; self.text = []
    def handle_data(self, d): self.text.append(d)
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
text = " ".join(p.text)
assert "cost model: time = fixed + per value x count" in text
assert "per value" in text and "max residual" in text
PY
echo "analysis: ok"

#!/usr/bin/env bash
# Access patterns end to end (docs/config.md "Access patterns"): what plan
# refuses before anything runs (a plugin without the extension a pattern
# needs, read: view with a pattern, a stride of part of an element, direct: true on a plugin that cannot, a block O_DIRECT cannot
# take), and what a run records: per-operation latencies of the READ phase,
# verified blocks, and cold direct reads that reach the disk.
source "$(dirname "$0")/lib.sh"
cd "$work"
PY=/usr/bin/python3

# ---- refused at plan, naming the plugin and the ones that can
cat >no-read-at.yaml <<'Y'
datasets: [{count: 1000}]
formats: [{plugin: ascii, access: random}]
Y
expect_status 2 "$FB" plan no-read-at.yaml
expect_in "$work/err" "access: random needs formatbench.read-at/1"
expect_in "$work/err" "plugin 'ascii' does not offer"
expect_in "$work/err" "raw"

for pattern in sequential strided; do
  sed "s/access: random/access: $pattern, access_stride: 80/" no-read-at.yaml >"no-read-at-$pattern.yaml"
  expect_status 2 "$FB" plan "no-read-at-$pattern.yaml"
  expect_in "$work/err" "access: $pattern needs formatbench.read-at/1"
  expect_in "$work/err" "plugin 'ascii' does not offer"
done

cat >no-box.yaml <<'Y'
datasets: [{shape: [10, 10]}]
formats: [{plugin: zlib, access: plane}]
Y
expect_status 2 "$FB" plan no-box.yaml
expect_in "$work/err" "access: plane needs formatbench.read-box/1"

cat >flat-plane.yaml <<'Y'
datasets: [{count: 100}]
formats: [{plugin: raw, access: plane}]
Y
expect_status 2 "$FB" plan flat-plane.yaml
expect_in "$work/err" "access: plane needs a data set with a shape"

# A stride that is not a whole number of elements was rounded down (12 B
# of f64 read every 8 B): refused.
cat >odd-stride.yaml <<'Y'
datasets: [{dtype: f64, count: 1000}]
formats: [{plugin: raw, access: strided, access_block: 8B, access_stride: 12}]
Y
expect_status 2 "$FB" plan odd-stride.yaml
expect_in "$work/err" "format 'raw'"
expect_in "$work/err" "access_stride 12 B is not a whole number of f64 elements (8 B each): give a multiple of 8 B, such as 8 B or 16 B"

# read: view with an access pattern was run as one whole-array view and
# recorded as the pattern: refused, for every pattern.
for pattern in random sequential strided plane; do
  cat >view-$pattern.yaml <<Y
datasets: [{count: 4096, shape: [16, 256]}]
formats: [{plugin: mmap, read: view, access: $pattern, access_stride: 4KiB}]
Y
  expect_status 2 "$FB" plan view-$pattern.yaml
  expect_in "$work/err" "view-$pattern.yaml"
  expect_in "$work/err" "format 'mmap'"
  expect_in "$work/err" "read: view takes one zero-copy view of the whole array and does not combine with access: $pattern"
  expect_in "$work/err" "use read: copy with access: $pattern"
  expect_status 2 "$FB" run view-$pattern.yaml --no-console
  expect_in "$work/err" "does not combine with access: $pattern"
done

cat >no-direct.yaml <<'Y'
directory: .
datasets: [{count: 100000}]
formats: [{plugin: mmap, access: random, direct: true}]
Y
expect_status 2 "$FB" plan no-direct.yaml
expect_in "$work/err" "direct: true reads with O_DIRECT, which plugin 'mmap' cannot"

# The block size the device needs comes from sysfs, for the folder's device.
dev=$(stat -c '%d' .)
major=$((dev >> 8)) minor=$((dev & 255))
lbs=$(cat "/sys/dev/block/$major:$minor/queue/logical_block_size" 2>/dev/null ||
      cat "/sys/dev/block/$major:$minor/../queue/logical_block_size" 2>/dev/null || echo none)
if [ "$lbs" != none ]; then
  cat >unaligned.yaml <<'Y'
directory: .
datasets: [{count: 100000}]
formats: [{plugin: raw, access: random, access_block: 200, direct: true}]
Y
  expect_status 2 "$FB" plan unaligned.yaml
  expect_in "$work/err" "access_block 200 B is not a multiple of $lbs B, the logical block size of the device"
fi

# ---- a run: random, sequential and strided blocks, planes along each axis
cat >run.yaml <<'Y'
directory: .
defaults: {repeat: 2, warmup: 0}
datasets:
  - {name: flat, count: 100000}
formats:
  - {plugin: raw, access: [random, sequential], access_block: 4KiB, access_ops: 50}
  - {plugin: raw, label: raw-strided, access: strided, access_block: 800, access_stride: 8000}
  - {plugin: raw, label: raw-every-block, access: sequential, access_block: 8KiB}
Y
cat >planes.yaml <<'Y'
directory: .
defaults: {repeat: 2, warmup: 0}
datasets:
  - {name: cube, shape: [20, 30, 40]}
formats:
  - {plugin: npy, access: plane, access_axis: [0, 1, 2], access_ops: 7}
  - {plugin: raw, access: plane, access_axis: 2, access_ops: 3}
Y
expect_status 0 "$FB" run run.yaml --json run.json --progress none
expect_status 0 "$FB" run planes.yaml --json planes.json --progress none
$PY - run.json planes.json <<'PY' || fail "the records of the access patterns are not what the study asked"
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.environ["FB_CHECK_REPORT"]))
from check_report import times  # the samples an estimate rests on, read again from the record
run = json.load(open(sys.argv[1]))
planes = json.load(open(sys.argv[2]))
assert run["schema_version"] == 5
ops = {}
for c in run["cases"] + planes["cases"]:
    p = c["params"]
    key = (c["format"]["label"], p["access"], p.get("access_axis", 0))
    assert c["status"] == "ok", (key, c["error"])
    assert c["verify"]["mismatches"] == 0, key
    for s in c["samples"]:
        lat = s["read"]["latency"]
        assert lat["min_ns"] <= lat["p50_ns"] <= lat["p90_ns"] <= lat["p99_ns"] <= lat["max_ns"], lat
        assert len(lat["cdf_ns"]) == 101 and lat["cdf_ns"][0] == lat["min_ns"], lat
        assert s["read"]["iops"] > 0
        assert "latency" not in s["write"]
        ops[key] = (lat["ops"], lat["bytes"], c["verify"]["compared"])
# 50 blocks of 4096 B = 512 f64; sequential reads 50 blocks from 0;
# strided: 800 B (100 f64) every 8000 B: (100000 - 100) / 1000 + 1 = 100 fit.
assert ops[("raw", "random", 0)] == (50, 50 * 4096, 50 * 512), ops
assert ops[("raw", "sequential", 0)] == (50, 50 * 4096, 50 * 512), ops
assert ops[("raw-strided", "strided", 0)] == (100, 100 * 800, 100 * 100), ops
# Every block of 800000 B: 97 of 8192 B and a last one of 5376 B (672 f64),
# so 800000 bytes read; a short last block counted whole would say 802816
# B and a read MB/s 0.35% too high.
assert ops[("raw-every-block", "sequential", 0)] == (98, 800000, 100000), ops
# planes of [20, 30, 40] f64: axis 0 is 30*40 values, axis 1 20*40, axis 2 20*30.
assert ops[("npy", "plane", 0)] == (7, 7 * 1200 * 8, 7 * 1200), ops
assert ops[("npy", "plane", 1)] == (7, 7 * 800 * 8, 7 * 800), ops
assert ops[("npy", "plane", 2)] == (7, 7 * 600 * 8, 7 * 600), ops
assert ops[("raw", "plane", 2)] == (3, 3 * 600 * 8, 3 * 600), ops
# A pattern's read throughput counts the bytes its operations read, not the
# payload: bytes / 10^6 / the median of the repetitions' wall times.
for c in run["cases"]:
    median = statistics.median(times(c, "read"))
    want = c["samples"][0]["read"]["latency"]["bytes"] / 1e6 / median
    assert abs(c["read"]["throughput_mb_s"] - want) <= 1e-9 * want, (c["format"]["label"], c["read"], want)
PY

# ---- the report's read latency CDFs against the record: one chart per
# pattern, one line per case; the line's vertex at percentile i is at the
# median over the repetitions of the samples' cdf_ns[i] (converted here from
# ns to the chart's seconds); the only markers, at 50 and 99 %, are the
# samples' median p50 and p99; each is drawn where the axis's own tick
# labels put that value; the ticks span the case's latencies (within a decade each side);
# the table's "read p50/p99" cell says the same. A CDF drawn 1000 times too
# long would show an axis from 1 ms where the table says 1.3 µs.
expect_status 0 "$FB" report run.json -o access.html --svg-dir access-svg
$PY - access.html run.json <<'PY' || fail "the report's latency CDFs do not match the record"
import json, math, re, statistics, sys
import xml.etree.ElementTree as ET
SVG, XHTML = "{http://www.w3.org/2000/svg}", "{http://www.w3.org/1999/xhtml}"
root = ET.parse(sys.argv[1]).getroot()
cases = json.load(open(sys.argv[2]))["cases"]
UNIT = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
def seconds(text):
    m = re.fullmatch(r"([0-9.]+) (ns|µs|ms|s)", text.strip())
    assert m, text
    return float(m.group(1)) * UNIT[m.group(2)]
def near(a, b, rel):
    return abs(a - b) <= rel * abs(b)
charts = {s.get("data-chart"): s for s in root.iter(SVG + "svg")
          if (s.get("data-chart") or "").startswith("latency-cdf-")}
by_pattern = {s.get("data-pattern"): s for s in charts.values()}
assert len(charts) == 4, sorted(charts)
# The table's cells by row label.
table = {}
for tr in root.iter(XHTML + "tr"):
    cells = ["".join(td.itertext()) for td in tr.findall(XHTML + "td")]
    if cells:
        table[cells[0]] = cells
header = next(["".join(th.itertext()) for th in tr.findall(XHTML + "th")]
              for tr in root.iter(XHTML + "tr") if tr.findall(XHTML + "th"))
col = header.index("read p50/p99")
checked = 0
for c in cases:
    p = c["params"]
    pattern = "%s %d B blocks" % (p["access"], p["access_block_bytes"])
    svg = by_pattern[pattern]
    assert svg.get("data-lines") == "1", svg.get("data-lines")
    lats = [s["read"]["latency"] for s in c["samples"]]
    # The test's own CDF: per percentile, the median over the repetitions, in seconds.
    cdf = [statistics.median(l["cdf_ns"][i] for l in lats) * 1e-9 for i in range(101)]
    p50 = statistics.median(l["p50_ns"] for l in lats) * 1e-9
    p99 = statistics.median(l["p99_ns"] for l in lats) * 1e-9
    # The x axis: tick labels below the plot (text-anchor middle), log scale.
    ticks = [(float(t.get("x")), seconds(t.text)) for t in svg.iter(SVG + "text")
             if t.get("class") == "tick" and t.get("text-anchor") == "middle"]
    assert len(ticks) >= 2, ticks
    (xa, va), (xb, vb) = min(ticks), max(ticks)
    px = lambda v: xa + (xb - xa) * (math.log10(v) - math.log10(va)) / (math.log10(vb) - math.log10(va))
    lo, hi = min(v for _, v in ticks), max(v for _, v in ticks)
    assert lo <= 10 * cdf[0] and hi >= cdf[100] / 10 and lo >= cdf[0] / 10 and hi <= 10 * cdf[100], (
        pattern, "axis", lo, hi, "latencies", cdf[0], cdf[100])
    # The y axis: tick labels left of the plot (text-anchor end), percent, linear.
    yticks = [(float(t.get("y")), float(t.text)) for t in svg.iter(SVG + "text")
              if t.get("class") == "tick" and t.get("text-anchor") == "end"]
    (ya, pa), (yb, pb) = min(yticks, key=lambda t: t[1]), max(yticks, key=lambda t: t[1])
    # (a label's y is its baseline, 0.35 of its 11 px font below its tick)
    py = lambda q: ya + (yb - ya) * (q - pa) / (pb - pa) - 0.35 * 11
    # The line through percentiles 0, 1, ..., 100: its values (data-xs,
    # data-ys) and its vertices (points, in px) where the axes put them.
    lines = [e for e in svg.iter(SVG + "polyline") if e.get("class") == "line"]
    assert len(lines) == 1, (pattern, len(lines))
    line = lines[0]
    ys = [float(v) for v in line.get("data-ys").split()]
    assert ys == list(range(101)), (pattern, ys)
    vertices = [tuple(map(float, v.split(","))) for v in line.get("points").split()]
    for i, (x, (vx, vy)) in enumerate(zip(map(float, line.get("data-xs").split()), vertices)):
        assert near(x, cdf[i], 1e-3), (pattern, i, x, cdf[i])
        assert abs(vx - px(cdf[i])) <= 1.5, (pattern, i, vx, px(cdf[i]))
        assert abs(vy - py(i)) <= 1.5, (pattern, i, vy, py(i))
        checked += 1
    # Markers at p50 and p99 only: the samples' median p50 and p99, on the line.
    points = [e for e in svg.iter() if e.get("class") == "point"]
    assert sorted(float(e.get("data-y")) for e in points) == [50, 99], (pattern, len(points))
    for e in points:
        i = int(float(e.get("data-y")))
        x = float(e.get("data-x"))
        assert near(x, p50 if i == 50 else p99, 1e-3), (pattern, i, x, p50, p99)
        assert abs(float(e.get("cx")) - px(x)) <= 1.5, (pattern, i, e.get("cx"), px(x))
        assert abs(float(e.get("cy")) - py(i)) <= 1.5, (pattern, i, e.get("cy"), py(i))
    # The table: "p50 / p99" with 3 significant digits.
    label = line.get("data-series")
    t50, t99 = (seconds(v) for v in table[label][col].split("/"))
    assert near(t50, p50, 6e-3) and near(t99, p99, 6e-3), (label, table[label][col], p50, p99)
print("latency CDFs: %d vertices on 4 charts and their p50/p99 markers match the record's percentiles, the axis and the table" % checked)
PY

# ---- a plugin whose read-at gets one element wrong fails the case, naming
# that element (wrong_block inverts element 1000 in every range that holds
# it; a sequential read covers every element).
cat >wrong.yaml <<'Y'
directory: .
defaults: {repeat: 1, warmup: 0}
datasets: [{count: 10000}]
formats: [{plugin: wrong_block, access: sequential, access_block: 4KiB}]
Y
expect_status 1 "$FB" --plugin-path "$FB_TEST_PLUGINS" run wrong.yaml --json wrong.json --progress none
expect_in_prose "$work/out" "1 of 10000 values read back differ, the first at element 1000 ("
$PY - wrong.json <<'PY' || fail "the wrong block is not recorded with its element"
import json, sys
c = json.load(open(sys.argv[1]))["cases"][0]
assert c["status"] != "ok" and c["verify"]["mismatches"] == 1, c
assert c["verify"]["first_mismatch_index"] == 1000, c["verify"]
PY

# ---- cold random reads with O_DIRECT reach the disk: nothing of the file
# is resident before the READ phase, and the case verifies.
if [ "$lbs" != none ]; then
  cat >direct.yaml <<'Y'
directory: .
defaults: {repeat: 2, warmup: 0}
datasets: [{count: 262144}]
formats: [{plugin: raw, access: random, access_block: 4KiB, access_ops: 100, cache: cold, direct: true},
          {plugin: npy, access: random, access_block: 4KiB, access_ops: 100, cache: cold, direct: true}]
Y
  expect_status 0 "$FB" run direct.yaml --json direct.json --progress none
  $PY - direct.json <<'PY' || fail "cold direct reads are not recorded as such"
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    assert c["status"] == "ok", c["error"]
    assert c["params"]["direct"] is True
    for s in c["samples"]:
        assert s["resident_fraction"] is not None and s["resident_fraction"] < 0.05, s["resident_fraction"]
        assert s["read"]["latency"]["ops"] == 100
PY
fi
# ---- the verdict per kind of read, and a workload's one recommendation
# (docs/results.md "The verdict"): random blocks and whole reads are ranked
# apart, each sentence led by its kind; the write once per format (raw and
# raw-whole are one plugin); the recommendation names its mix, in the
# console, the Markdown and the record (read back by report).
cat >mix.yaml <<'Y'
directory: .
defaults: {repeat: 2, warmup: 0}
datasets: [{count: 262144}]
formats: [{plugin: raw, access: random, access_ops: 50}, {plugin: npy, access: random, access_ops: 50},
          {plugin: raw, label: raw-whole}, {plugin: npy, label: npy-whole}]
workload: {write: 1, reads: [{access: random, weight: 100}, {access: whole, weight: 2}]}
Y
expect_status 0 "$FB" run mix.yaml --json mix.json --markdown mix.md --progress none --width unlimited
for f in "$work/out" mix.md; do
  expect_in "$f" "write: "
  expect_in "$f" "read [random]: "
  expect_in "$f" "read [whole]: "
  expect_in "$f" "workload (1 write, 100 reads [random], 2 reads [whole]): pick "
done
# (the legend says how the write is pooled)
expect_in "$work/out" "verdict: a row is ranked only against rows that did the same work; a format (plugin and options) is ranked once for its write"
grep -q "^ write: \(raw / raw-whole\|npy / npy-whole\) is fastest" "$work/out" ||
  { cat "$work/out"; fail "the write is not ranked once per format"; }
expect_status 0 "$FB" report mix.json -o mix.html
expect_in mix.html "workload (1 write, 100 reads [random], 2 reads [whole]): pick "
# A read of the mix that names two kinds of work of one format: an error
# before anything runs, saying which key to add.
sed 's/{access: whole, weight: 2}/{weight: 2}/' mix.yaml >mix-vague.yaml
expect_status 2 "$FB" plan mix-vague.yaml
expect_in "$work/err" "workload.reads[1]: names cases of raw and raw-whole that differ in access (random and whole); add 'access:' to say which"

echo "access: ok"

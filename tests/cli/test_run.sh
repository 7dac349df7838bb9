#!/usr/bin/env bash
# `formatbench run` end to end: the default study's record (exactness of each
# format, fixed-16 error near 1e-16), the JSON against its schema, the CSV
# against the JSON, read: view, plan, and --set (cold-cache residency is
# test_cold_cache.sh).
source "$(dirname "$0")/lib.sh"
cd "$work"
PY=/usr/bin/python3

# ---- the default study (compiled in), shortened
# Its two gfortran rows need the fortran plugin, built only with gfortran;
# without it the study stops before any case, naming the plugin.
labels=(ascii-fixed16 ascii-shortest "gfortran (f0.16) / list-directed" "gfortran unformatted stream" raw mmap zlib
        memory)
if ! "$FB" describe fortran >/dev/null 2>&1; then
  expect_status 2 "$FB" run --set repeat=2 --set warmup=0
  expect_in "$work/err" "fortran"
  fail "this build has no fortran plugin (no gfortran), and the default study names it: install gfortran"
fi
expect_status 0 "$FB" run --set repeat=2 --set warmup=0 --set min_time=0 --width 100 --progress none --json default.json \
  --csv default.csv --markdown default.md
# The table at 100 columns: no line of stdout or stderr wider (code points,
# not bytes: ± and … are one column), long labels shortened in the middle,
# the full labels in the Markdown table.
$PY - "$work/out" "$work/err" <<'PY' || fail "a line of the default study's output is wider than 100 columns"
import sys
for name in sys.argv[1:]:
    for line in open(name, encoding="utf-8"):
        line = line.rstrip("\n")
        assert len(line) <= 100, (name, len(line), line)
PY
for label in "${labels[@]}"; do expect_in default.md "| $label "; done
# (how short depends on the other cells' widths, so only its two ends are fixed)
grep -qE '^ gfortran \(f0.*….*directed ' "$work/out" || { cat "$work/out"; fail "the long label is not shortened in the middle"; }
expect_in "$work/out" "MB/s: 10^6 bytes of payload"
expect_in "$work/out" "speed-up"
# The verdict: the fastest of each phase, the seed's comparison beside the tip's figures.
expect_in "$work/out" "write: "
expect_in "$work/out" " is fastest, "
expect_in_prose "$work/out" "the Fortran tip (gfortran, 10^6 values) measured 62.5x to write and 325x to read."
$PY - default.json default.csv "${labels[@]}" <<'PY' || fail "default study record"
import csv, json, sys
d = json.load(open(sys.argv[1]))
cases = {c["format"]["label"]: c for c in d["cases"]}
assert set(cases) == set(sys.argv[3:]), set(cases)
for label, c in cases.items():
    assert c["status"] == "ok", (label, c["error"])
    assert c["payload_bytes"] == 8_000_000 and len(c["samples"]) == 2, label
    v = c["verify"]
    assert v["checked"] and v["compared"] == 1_000_000, label
    if label in ("ascii-fixed16", "gfortran (f0.16) / list-directed"):
        # (f0.16) keeps 16 decimals: values in [0,1) come back within ~1e-16.
        assert not v["lossless_expected"] and v["mismatches"] > 0, v
        assert 1e-17 < v["max_abs_error"] < 2e-16, v
    else:
        assert v["lossless_expected"] and v["mismatches"] == 0, (label, v)
assert cases["raw"]["file_bytes"] == 8_000_000 and cases["memory"]["file_bytes"] == 0
# The same statements as the reference program: the gfortran runtime writes
# the (f0.16) file the ascii plugin writes, byte for byte in size here.
assert cases["gfortran (f0.16) / list-directed"]["file_bytes"] == cases["ascii-fixed16"]["file_bytes"]
assert cases["gfortran unformatted stream"]["file_bytes"] == 8_000_000
# The seed's formatted I/O is the baseline when gfortran is built (this test needs it).
assert d["study"]["baseline"] == "gfortran (f0.16) / list-directed", d["study"]["baseline"]
assert [p["format"] for p in d["study"]["published"]] == ["gfortran unformatted stream", "raw"]
assert d["context"]["cores"] >= 1 and d["context"]["filesystem"]
# The CSV holds the same numbers as the JSON.
rows = {r["format"]: r for r in csv.DictReader(open(sys.argv[2], newline=""))}
assert set(rows) == set(cases), set(rows)
for label, c in cases.items():
    r = rows[label]
    assert int(r["file_bytes"]) == c["file_bytes"], label
    assert float(r["write_median_s"]) == c["write"]["median_s"], (label, r["write_median_s"], c["write"])
    assert float(r["read_median_s"]) == c["read"]["median_s"], label
    assert int(r["mismatches"]) == c["verify"]["mismatches"], label
print("default study: exactness as expected; CSV equals JSON")
PY
$PY - default.json "$FB_SOURCE_ROOT/docs/results-schema.json" <<'PY' || fail "JSON does not validate against docs/results-schema.json"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
print("default.json validates against the schema")
PY
expect_in default.md "| ascii-fixed16 "

# ---- read: view (zero-copy): verified in place, recorded, refused without the extension
cat > view.yaml <<'YAML'
name: view
defaults: {repeat: 2, warmup: 0}
datasets: [{dtype: f64, count: 1e6}]
formats: [{plugin: mmap, read: [copy, view]}]
YAML
mkdir -p data
expect_status 0 "$FB" run view.yaml --directory data --json view.json --csv view.csv
expect_in "$work/out" "mmap [read view]"
$PY - view.json view.csv "$FB_SOURCE_ROOT/docs/results-schema.json" <<'PY' || fail "read: view record"
import csv, json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[3])))
modes = {c["params"]["read"]: c for c in d["cases"]}
assert set(modes) == {"copy", "view"}, set(modes)
for mode, c in modes.items():
    assert c["status"] == "ok" and c["verify"]["compared"] == 1_000_000 and c["verify"]["mismatches"] == 0, c
assert modes["view"]["key"].endswith(",read=view") and "read=" not in modes["copy"]["key"]
assert {r["read"] for r in csv.DictReader(open(sys.argv[2], newline=""))} == {"copy", "view"}
print("read: view verified in place; recorded in JSON and CSV")
PY
expect_status 2 "$FB" run view.yaml --set formats.0.plugin=raw
expect_in "$work/err" "read: view needs the zero-copy read extension"

# ---- plan and --set
cat > cold.yaml <<'YAML'
name: cold
defaults: {repeat: 3, warmup: 0, cache: [warm, cold]}
datasets: [{dtype: f64, count: 4e6}]
formats: [raw]
YAML
expect_status 0 "$FB" plan cold.yaml
expect_in "$work/out" "cold"
expect_in "$work/out" "warm"
expect_status 2 "$FB" plan cold.yaml --set defaults.cahce=cold
expect_in "$work/err" "did you mean 'cache'"
expect_status 2 "$FB" run cold.yaml --set 'defaults.repeat=-1'
expect_in "$work/err" "cold.yaml:"

# ---- optional formats: a missing plugin is skipped with a note; a present one runs
cat > optional.yaml <<'YAML'
name: optional
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats:
  - raw
  - {plugin: not-built, optional: true, options: {level: [1, 2]}}
  - {plugin: memory, optional: true}
YAML
expect_status 0 "$FB" run optional.yaml --json optional.json --no-console
expect_in "$work/err" "optional.yaml:6:5: format 'not-built' skipped: plugin 'not-built' is not installed"
[ "$(grep -c "skipped: plugin" "$work/err")" = 1 ] || fail "one note per optional entry"
$PY - optional.json <<'PY' || fail "optional formats"
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["format"]["label"] for c in d["cases"]] == ["raw", "memory"], d["cases"]
assert [c["index"] for c in d["cases"]] == [0, 1]
PY
expect_status 0 "$FB" plan optional.yaml
expect_in "$work/out" "2 cases"
# Not optional: still an error. Nothing left: an error. Optional must be a boolean.
expect_status 2 "$FB" run optional.yaml --set formats.1.optional=false
expect_in "$work/err" "not-built"
expect_status 2 "$FB" plan optional.yaml --set 'formats=[{plugin: not-built, optional: true}]'
expect_in "$work/err" "nothing to run"
expect_status 2 "$FB" plan optional.yaml --set formats.1.optional=maybe
expect_in "$work/err" "formats[1].optional"

# ---- NaN payloads (docs/config.md): binary formats keep R's NA_real_ (a NaN
# with payload 1954), text cannot, and verification says so.
$PY -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<dQdQ", 1.5, 0x7FF00000000007A2, -3.25, 0x7FF8000000000000))' na.bin
cat > na.yaml <<'YAML'
name: na
defaults: {repeat: 1, warmup: 0}
datasets: [{from_file: {path: na.bin, plugin: raw}, dtype: f64, count: 4}]
formats: [raw, zstd, ascii]
YAML
expect_status 1 "$FB" run na.yaml --json na.json
$PY - na.json <<'PY' || fail "NaN payloads"
import json, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
for label in ("raw", "zstd"):
    assert cases[label]["status"] == "ok" and cases[label]["verify"]["mismatches"] == 0, cases[label]
a = cases["ascii"]
assert a["status"] == "failed" and a["verify"]["mismatches"] == 1 and a["verify"]["max_abs_error"] == 0, a
PY
expect_in "$work/out" "1 differ"

# ---- tolerance (docs/config.md): a lossy format is judged by it. 0.123456
# written with 3 decimals reads back 0.123: error 0.000456 on every value,
# 4.56x an abs tolerance of 1e-4 (the case fails, the worst is the first
# value, index 0), 0.369% of it, within a rel tolerance of 4e-3 (the case
# is ok); without a tolerance, refused at plan.
cat > tol.yaml <<'YAML'
name: tol
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000, distribution: constant, value: 0.123456}]
formats:
  - {label: tight, plugin: ascii, options: {notation: fixed, precision: 3}, tolerance: {abs: 1e-4}}
  - {label: loose, plugin: ascii, options: {notation: fixed, precision: 3}, tolerance: {rel: 4e-3}}
YAML
expect_status 1 "$FB" run tol.yaml --json tol.json --width 200
expect_in "$work/out" "1000 of 1000 values read back are outside the tolerance (abs 0.0001); the worst is element 0: 0.123456 written, 0.123 read back, error 0.000456, 4.56x what it may be"
$PY - tol.json <<'PY' || fail "tolerance"
import json, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
t, l = cases["tight"], cases["loose"]
assert t["status"] == "failed" and l["status"] == "ok", (t["status"], l["status"])
assert t["format"]["tolerance"] == {"abs": 1e-4} and l["format"]["tolerance"] == {"rel": 4e-3}, t["format"]
v = t["verify"]
assert v["outside_tolerance"] == 1000 and l["verify"]["outside_tolerance"] == 0, (v, l["verify"])
assert v["worst"]["index"] == 0 and v["worst"]["written"] == 0.123456 and v["worst"]["read"] == 0.123, v
assert abs(v["rmse"] - 0.000456) < 1e-15 and abs(v["max_abs_error"] - 0.000456) < 1e-15, v
assert v["psnr_db"] is None, v  # constant data: no range, no PSNR
PY
sed -i 's/, tolerance: {[^}]*}//' tol.yaml
expect_status 2 "$FB" plan tol.yaml
expect_in "$work/err" "format 'tight': plugin 'ascii' is lossy with these options for dtype f64"

# ---- plugin metrics (ABI 1.1) of the compressing plugins: compressed_bytes
# is the file's size as formatbench measured it; codec_s and io_s are parts
# of the stream's own time (serial paths: within the phase's wall time;
# zlib's worker threads: within threads x wall time).
cat > metrics.yaml <<'YAML'
name: metrics
defaults: {repeat: 2, warmup: 0}
datasets: [{dtype: f64, count: 2e5, distribution: smooth}]
formats:
  - zlib
  - {plugin: zlib, label: zlib-t2, options: {threads: 2, shuffle: true}, chunk: 64KiB}
  - zstd
  - {plugin: zstd, label: zstd-shuffle, options: {shuffle: true}, chunk: 4KiB}
YAML
expect_status 0 "$FB" run metrics.yaml --json metrics.json --csv metrics.csv
expect_in "$work/out" "plugin metrics (median per repetition)"
expect_in "$work/out" "write compressed_bytes"
$PY - metrics.json metrics.csv <<'PY' || fail "plugin metrics"
import csv, json, sys
d = json.load(open(sys.argv[1]))
assert len(d["cases"]) == 4
for c in d["cases"]:
    label = c["format"]["label"]
    threads = 2 if label == "zlib-t2" else 1
    for s in c["samples"]:
        for phase in ("write", "read"):
            m, wall = s[phase]["metrics"], s[phase]["wall_s"]
            assert set(m) == {"compressed_bytes", "codec_s", "io_s"}, (label, m)
            assert m["compressed_bytes"] == c["file_bytes"], (label, phase, m, c["file_bytes"])
            assert 0 < m["codec_s"] <= (threads if phase == "write" else 1) * wall, (label, phase, m, wall)
            assert 0 <= m["io_s"] and (threads > 1 or m["codec_s"] + m["io_s"] <= wall), (label, phase, m, wall)
rows = {r["format"]: r for r in csv.DictReader(open(sys.argv[2], newline=""))}
assert float(rows["zstd"]["write.compressed_bytes"]) == d["cases"][2]["file_bytes"], rows["zstd"]
print("metrics: compressed_bytes = file size; codec_s, io_s within the phase time")
PY
expect_status 0 "$FB" report metrics.json -o metrics.html
expect_in metrics.html "codec_s"
echo "run: ok"

#!/usr/bin/env bash
# formatbench on MPI ranks, end to end with Open MPI's mpirun (two ranks on
# this machine, --oversubscribe so two ranks fit however many cores there
# are). Checked against independent references: the shared file of two
# ranks against the file one process writes for all the values (no MPI),
# the per-rank files against the slices of that file, the JSON record's
# aggregate and per-rank figures against each other, and -np 1 against a run
# without mpirun; the report's charts against ranks are recomputed from the
# records by tests/compare/check_report.py. SKIP (77) when mpirun is missing.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/mpi_lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"

# ---- both layouts, weak scaling, 2 ranks; files kept to compare
mkdir -p two one
cat > layouts.yaml <<'YAML'
name: layouts
defaults: {repeat: 2, warmup: 1, layout: [file_per_rank, shared_file]}
datasets: [{dtype: f64, count: 100003, seed: 7}]
formats:
  - raw
  - mmap
  - {plugin: ascii, options: {notation: scientific, precision: 16, width: 24}}
keep_files: true
YAML
expect_status 0 mpi 2 "$FB" run layouts.yaml --directory two --json two.json --csv two.csv
expect_in "$work/out" "raw [shared_file]"
# The same values from one process: count 2 x 100003, no mpirun.
expect_status 0 "$FB" run layouts.yaml --directory one --set datasets.0.count=200006 \
  --set defaults.layout=file_per_rank --json one.json --no-console
$PY - two.json one.json two.csv <<'PY' || fail "layouts"
import csv, json, os, sys
two, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert two["context"]["ranks"] == 2 and one["context"]["ranks"] == 1, (two["context"]["ranks"], one["context"]["ranks"])
ref = {c["format"]["label"]: c for c in one["cases"]}
def data(case, record):
    d = record["context"]["data_directory"]
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.startswith("case-%04d-" % case["index"])]
for c in two["cases"]:
    label, layout = c["format"]["label"], c["params"]["layout"]
    assert c["status"] == "ok", (label, layout, c["error"])
    assert c["ranks"] == 2 and c["payload_bytes"] == 200006 * 8, c["payload_bytes"]
    assert c["verify"]["compared"] == 200006 and c["verify"]["mismatches"] == 0, c["verify"]
    (one_file,) = data(ref[label], one)
    whole = open(one_file, "rb").read()
    files = data(c, two)
    if layout == "shared_file":
        assert len(files) == 1, files
        got = open(files[0], "rb").read()
    else:
        # FILE.0 and FILE.1: the halves, each as a whole file of 100003 values.
        assert [f[-2:] for f in files] == [".0", ".1"], files
        got = b"".join(open(f, "rb").read() for f in files)
    assert got == whole, (label, layout, len(got), len(whole))
    assert c["file_bytes"] == len(whole), (label, layout, c["file_bytes"], len(whole))
    for s in c["samples"]:
        for phase in ("write", "read"):
            p = s[phase]
            r = p["ranks"]
            # The aggregate spans every rank's own time; the spread is ordered.
            assert r["min_s"] <= r["median_s"] <= r["max_s"] <= p["wall_s"] + 1e-6, (label, phase, p)
    assert c["write"]["ranks"]["max_s"] >= c["write"]["ranks"]["min_s"]
    assert "layout=%s" % layout in c["key"] or layout == "file_per_rank", c["key"]
rows = list(csv.DictReader(open(sys.argv[3], newline="")))
assert len(rows) == 6 and {r["layout"] for r in rows} == {"file_per_rank", "shared_file"}, rows[0].keys()
print("two ranks: shared file = one process's file; per-rank files = its halves; ranks and spread recorded")
PY

# ---- strong scaling with an odd count, read_rank_shift: each rank reads the
# other's slice, and the slices are 50001 and 50000 values.
cat > strong.yaml <<'YAML'
name: strong
defaults: {repeat: 1, warmup: 0, scaling: strong, read_rank_shift: 1, layout: [file_per_rank, shared_file]}
datasets: [{dtype: i32, count: 100001, distribution: integers, low: -1000000, high: 1000000}]
formats: [raw, {plugin: ascii, options: {width: 11}}]
keep_files: true
YAML
mkdir -p strong
expect_status 0 mpi 2 "$FB" run strong.yaml --directory strong --json strong.json --no-console
$PY - strong.json <<'PY' || fail "strong scaling"
import json, os, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    assert c["status"] == "ok", c["error"]
    assert c["payload_bytes"] == 100001 * 4 and c["verify"]["compared"] == 100001, c
    assert c["verify"]["mismatches"] == 0 and "read_rank_shift=1" in c["key"] and "scaling=strong" in c["key"]
    if c["params"]["layout"] == "file_per_rank" and c["format"]["plugin"] == "raw":
        base = os.path.join(d["context"]["data_directory"], "case-%04d-raw.raw" % c["index"])
        assert [os.path.getsize(base + ".0"), os.path.getsize(base + ".1")] == [50001 * 4, 50000 * 4]
print("strong scaling: uneven slices, each rank verified the other's data")
PY

# ---- a plugin that crashes on rank 1 only: that case fails on both ranks,
# naming rank 1; the study goes on to the next case.
cat > crash.yaml <<EOF
name: crash
defaults: {repeat: 2, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats:
  - {label: crashes, plugin: misbehave, options: {mode: segfault, only_rank: 1}}
  - raw
plugin_path: [$FB_TEST_PLUGINS]
EOF
expect_status 1 mpi 2 "$FB" run crash.yaml --json crash.json
expect_in "$work/out" "crashes"
$PY - crash.json <<'PY' || fail "crash on one rank"
import json, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
c = cases["crashes"]
assert c["status"] == "crashed" and c["error"].startswith("rank 1: ") and "signal 11" in c["error"], c["error"]
assert cases["raw"]["status"] == "ok", cases["raw"]
print("crash on rank 1: failed on both ranks, the next case ran")
PY
# Rank 1 reports nothing of its own: one table, from rank 0.
[ "$(grep -c 'study .crash.' "$work/out")" = 1 ] || fail "more than one rank printed the table"

# ---- -np 1 against no MPI: same keys and verification
cat > one.yaml <<'YAML'
name: np1
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f32, count: 5000}]
formats: [raw, {plugin: raw, label: raw-shared, layout: shared_file}]
YAML
expect_status 0 mpi 1 "$FB" run one.yaml --json np1.json --no-console
expect_status 0 "$FB" run one.yaml --json plain.json --no-console
$PY - np1.json plain.json <<'PY' || fail "-np 1"
import json, sys
a, b = (json.load(open(p))["cases"] for p in sys.argv[1:3])
assert [c["key"] for c in a] == [c["key"] for c in b], ([c["key"] for c in a], [c["key"] for c in b])
assert [c["verify"] for c in a] == [c["verify"] for c in b]
assert all(c["ranks"] == 1 and "ranks" not in c["samples"][0]["write"] for c in a)
print("-np 1: the keys and verification of a run without mpirun")
PY

# ---- the report of records of 1 and 2 ranks draws throughput against ranks
expect_status 0 mpi 2 "$FB" run one.yaml --json np2.json --no-console
expect_status 0 "$FB" report np1.json plain.json np2.json -o ranks.html --svg-dir ranks-svg
grep -q 'Scaling over MPI ranks' ranks.html || fail "the report of 1 and 2 ranks has no chart against ranks"
$PY "$here/../compare/check_report.py" ranks.html np1.json plain.json np2.json --svg-dir ranks-svg \
  || fail "the charts against ranks do not match the records"

# ---- errors before the run: every rank stops, rank 0 says why, once
expect_status 2 mpi 2 "$FB" run one.yaml --set defaults.layout=shared_file --set 'formats=[zlib]'
expect_in "$work/err" "layout: shared_file needs the shared-file extension"
[ "$(grep -c 'shared-file extension' "$work/err")" = 1 ] || fail "the error was printed by more than one rank"
echo "mpi: ok"

#!/usr/bin/env bash
# Figures of MPI runs against values this test computes itself (issue 45):
# access patterns verified on every rank (each rank's expected values are
# those of its slice's place in the data set), a rank made slow on purpose
# (the phase's time and the ranks' spread must show it), and the first
# mismatch over ranks that all read wrong data (the lowest global index,
# whichever rank found it). SKIP (77) when mpirun is missing.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/mpi_lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"

# ---- access patterns on 2 ranks, each reading its own file or (shift 1)
# the other rank's. Rank r's file holds the values of global elements
# r x n .. (r+1) x n - 1 (weak scaling), so every block a pattern reads must
# be checked against the values at r x n + its offset in the file. If the
# expected values were taken at the offset in the file alone (the slice's
# place in the data set forgotten), every rank but 0 (shift 0), and rank 0
# too (shift 1), would see mismatches: the user would see the case failed,
# "N of M values read back differ", for a plugin that read every byte right.
# Shape 16 x 16 x 80 f64 = 20480 values (160 KiB) per rank.
cat > patterns.yaml <<'YAML'
name: mpi-patterns
defaults: {repeat: 2, warmup: 0, read_rank_shift: [0, 1]}
datasets: [{name: cube, dtype: f64, shape: [16, 16, 80], seed: 11}]
formats:
  - {plugin: raw, access: random, access_block: 4KiB, access_ops: 16}
  - {plugin: raw, label: raw-strided, access: strided, access_block: 800, access_stride: 8000}
  - {plugin: raw, label: raw-plane, access: plane, access_axis: 1, access_ops: 3}
YAML
expect_status 0 mpi 2 "$FB" run patterns.yaml --json patterns.json --no-console
$PY - patterns.json <<'PY' || fail "access patterns under mpirun"
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.environ["FB_CHECK_REPORT"]))
from check_report import times  # the samples an estimate rests on
d = json.load(open(sys.argv[1]))
assert d["context"]["ranks"] == 2, d["context"]["ranks"]
n = 16 * 16 * 80
# Values each rank's operations compare, by hand (docs/config.md "Access patterns"):
#  random: 16 whole blocks of 4096 B = 512 f64;
#  strided: 800 B = 100 f64 from byte k x 8000 (element k x 1000) while it fits;
#  plane along axis 1: 16 x 80 values, 3 planes.
strided_ops = len([k for k in range(n) if k * 1000 + 100 <= n])
per_rank = {"raw": 16 * 512, "raw-strided": strided_ops * 100, "raw-plane": 3 * 16 * 80}
seen = set()
for c in d["cases"]:
    label, shift = c["format"]["label"], c["params"]["read_rank_shift"]
    assert c["status"] == "ok", (label, shift, c["status"], c["error"])
    assert c["ranks"] == 2, c["ranks"]
    v = c["verify"]
    assert v["checked"] and v["mismatches"] == 0, (label, shift, v)
    # Both ranks verified all their operations (summed over the ranks).
    assert v["compared"] == 2 * per_rank[label], (label, shift, v["compared"], 2 * per_rank[label])
    # The ranks' operations together: ops and bytes summed over both ranks
    # (random 16 ops, strided and planes as above, 8 bytes a value), every
    # percentile between the ranks' least and greatest latency. Without them
    # the read's MB/s would count the whole payload (11.7 MB/s where the
    # blocks read give 4.7) and the table would show no latency or IOPS.
    ops = {"raw": 16, "raw-strided": strided_ops, "raw-plane": 3}[label]
    for smp in c["samples"]:
        lat = smp["read"].get("latency")
        assert lat, (label, shift, "no latency under mpirun")
        assert lat["ops"] == 2 * ops and lat["bytes"] == 2 * per_rank[label] * 8, (label, lat["ops"], lat["bytes"])
        assert lat["min_ns"] <= lat["p50_ns"] <= lat["p99_ns"] <= lat["max_ns"], lat
        assert len(lat["cdf_ns"]) == 101 and lat["cdf_ns"][0] == lat["min_ns"] and lat["cdf_ns"][100] == lat["max_ns"]
    want = 2 * per_rank[label] * 8 / 1e6 / statistics.median(times(c, "read"))
    assert abs(c["read"]["throughput_mb_s"] - want) <= 1e-9 * want, (label, c["read"]["throughput_mb_s"], want)
    seen.add((label, shift))
assert seen == {(l, s) for l in per_rank for s in (0, 1)}, seen
print("patterns under mpirun: random, strided and plane reads verified exact on both ranks, shift 0 and 1:",
      {l: 2 * x for l, x in per_rank.items()})
PY

# ---- one slow rank of three: misbehave's write streams take slow_ms longer
# to open on rank 2 only (the open is inside the timed WRITE phase). The
# phase's time runs from the first rank's start to the last rank's end, so
# it is at least the delay; the ranks' spread is (fastest, median, slowest)
# of the three ranks' own times: two fast ones and rank 2, so the slowest is
# at least the delay and the fastest and the median (a fast rank) are not.
# If the slowest rank's time were replaced by the median rank's, the user
# would see a write phase (and a rank table's "slowest") of a few ms where
# one rank spent 300 ms, and a balanced run where it is not.
delay_ms=300
cat > slow.yaml <<EOF
name: slow-rank
defaults: {repeat: 3, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [{label: slow2, plugin: misbehave, options: {slow_opens: 1000, slow_ms: $delay_ms, only_rank: 2}}]
plugin_path: [$FB_TEST_PLUGINS]
EOF
expect_status 0 mpi 3 "$FB" run slow.yaml --json slow.json --no-console
$PY - slow.json "$delay_ms" <<'PY' || fail "one slow rank"
import json, statistics, sys
c = json.load(open(sys.argv[1]))["cases"][0]
delay = float(sys.argv[2]) / 1e3
assert c["status"] == "ok" and c["ranks"] == 3, (c["status"], c["error"])
assert len(c["samples"]) == 3
hi = []
for s in c["samples"]:
    w, r = s["write"], s["read"]
    spread = w["ranks"]
    assert w["wall_s"] >= delay, ("the write phase is shorter than rank 2's delay", w)
    assert spread["max_s"] >= delay, ("the slowest rank is faster than its delay", spread)
    # Two of three ranks are fast: the median rank is one of them.
    assert spread["min_s"] < delay and spread["median_s"] < delay, ("a fast rank took the delay", spread)
    assert spread["min_s"] <= spread["median_s"] <= spread["max_s"] <= w["wall_s"] + 1e-6, w
    # Only write streams are slow: no rank's read took the delay.
    assert r["ranks"]["max_s"] < delay and r["wall_s"] < delay, ("a read took the write's delay", r)
    hi.append(spread["max_s"])
# The case's spread is the median over the repetitions of each figure.
fig = c["write"]["ranks"]
assert abs(fig["max_s"] - statistics.median(hi)) <= 1e-9, (fig, hi)
assert fig["max_s"] >= delay, fig
print("one slow rank of three: write phase %.3f s, slowest rank %.3f s (delay %.3f s), median rank %.4f s"
      % (statistics.median(s["write"]["wall_s"] for s in c["samples"]), fig["max_s"], delay, fig["median_s"]))
PY

# ---- every rank reads wrong data: misbehave (wrong_data) flips a bit of the
# first value of every read call, and the case reads in chunks of 1000
# values, so each rank finds 10 mismatches, the first at the first element
# of the slice it reads. 3 ranks of n = 10000 values: with read_rank_shift 0
# rank r reads slice r (first mismatch r x n); with shift 2 rank 0 reads
# slice 2, rank 1 slice 0, rank 2 slice 1. The first mismatch of the case is
# the lowest of these global indices: element 0 in both, found by rank 0 and
# by rank 1. Taken from the highest rank the user would see "the first at
# element 20000" (shift 0) or 10000 (shift 2), from rank 0 "20000" (shift 2),
# pointing at the wrong part of the file. `wrong1` reads wrong data on rank
# 1 only: its first mismatch is that of the slice rank 1 reads (n with
# shift 0, 0 with shift 2); the ranks without mismatches have no say.
cat > wrong.yaml <<EOF
name: wrong-ranks
defaults: {repeat: 1, warmup: 0, chunk: 8000, read_rank_shift: [0, 2]}
datasets: [{dtype: f64, count: 10000}]
formats:
  - {label: wrong, plugin: misbehave, options: {mode: wrong_data}}
  - {label: wrong1, plugin: misbehave, options: {mode: wrong_data, only_rank: 1}}
plugin_path: [$FB_TEST_PLUGINS]
EOF
expect_status 1 mpi 3 "$FB" run wrong.yaml --json wrong.json --no-console
$PY - wrong.json <<'PY' || fail "the first mismatch over the ranks"
import json, sys
d = json.load(open(sys.argv[1]))
n, ranks, chunk = 10000, 3, 1000
got = {}
for c in d["cases"]:
    label, shift = c["format"]["label"], c["params"]["read_rank_shift"]
    assert c["status"] != "ok" and c["ranks"] == ranks, (label, shift, c["status"])
    # Rank r reads slice (r + shift) mod 3; its first wrong value is that slice's first.
    wrong_ranks = range(ranks) if label == "wrong" else [1]
    want_first = min(((r + shift) % ranks) * n for r in wrong_ranks)
    v = c["verify"]
    assert v["compared"] == ranks * n, v
    assert v["mismatches"] == len(wrong_ranks) * (n // chunk), (label, shift, v["mismatches"])
    assert v["first_mismatch_index"] == want_first, (label, shift, v["first_mismatch_index"], want_first)
    got[(label, shift)] = v["first_mismatch_index"]
assert sorted(got) == [("wrong", 0), ("wrong", 2), ("wrong1", 0), ("wrong1", 2)], got
print("every rank read wrong data: the first mismatch is the lowest global index,", got)
PY
echo "mpi_figures: ok"

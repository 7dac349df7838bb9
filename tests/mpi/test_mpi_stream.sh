#!/usr/bin/env bash
# Streamed phases on two MPI ranks (docs/methodology.md, "MPI"): a phase
# times only its transfers, so one rank's untimed work between chunks
# (generating a chunk, verifying one) never shows in another rank's timed
# calls, even when the plugin's calls wait for every rank (mpiio with
# collective calls on a shared file). The test hook
# FORMATBENCH_TEST_PIECE_DELAY_MS (docs/testing.md) makes rank 1's untimed
# work 10 ms longer per chunk; the phases' median wall times must not move
# with it. Also: ranks with different numbers of chunks, in forked workers
# and in the rank, and a rank that fails, crashes or hangs mid-stream: the
# case fails on both ranks, naming the rank, and no rank waits for it.
# SKIP (77) when mpirun is missing.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/mpi_lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"

# ---- the delay of one rank's untimed work is not in the phase's time.
# 16 MiB of u8 per rank (weak scaling) in 16 chunks of 1 MiB, streamed
# (--memory-limit 4MiB), through mpiio's collective calls (one per chunk:
# piece_size = chunk) on one shared file: a rank's collective call returns
# only when the other rank has made it too. Measured on the development VM
# (2 vCPUs, two ranks oversubscribed): the phases last about 11 ms (write)
# and 3 ms (read). Without the ranks' meetings, rank 0's calls waited for
# rank 1's 16 x 10 ms of sleep: about +160 ms per phase.
#
# The check, per phase: median with the delay - median without <= 5% of
# the median without + a slack of 1 ms per chunk (a tenth of the delay).
# The slack is there because the transfers that follow a pause are
# themselves slower on such a machine (docs/methodology.md, "What a phase
# follows"): with the meetings in place rank 1's transfers after each
# 10 ms pause measured up to ~0.3 ms slower per chunk there, busy-waiting
# or sleeping alike. That is the transfer's own time, not the other rank's
# chores; the injected delay, 10 times the slack, is not. One-sided: the
# defect can only add time, while a run without the delay that other
# processes slowed down (two ranks busy-polling on two shared cores) was
# seen at 3-4x its usual median, which says nothing about the defect. The
# machine is shared and noisy, so a pair of runs is tried up to three
# times; every attempt's figures are printed.
chunks=16
delay_ms=10
cat > timing.yaml <<'YAML'
name: stream-timing
defaults: {repeat: 9, warmup: 1, layout: shared_file, chunk: 1MiB}
datasets: [{dtype: u8, count: 2**24}]
formats:
  - {plugin: mpiio, options: {transfer: collective, piece_size: 1MiB}}
YAML
timing_ok=false
for attempt in 1 2 3; do
  expect_status 0 mpi 2 "$FB" run timing.yaml --memory-limit 4MiB --json plain.json --no-console
  FORMATBENCH_TEST_PIECE_DELAY_MS=$delay_ms FORMATBENCH_TEST_PIECE_DELAY_RANK=1 \
    expect_status 0 mpi 2 "$FB" run timing.yaml --memory-limit 4MiB --json delayed.json --no-console
  if $PY - plain.json delayed.json "$chunks" "$delay_ms" "$attempt" <<'PY'; then timing_ok=true; break; fi
import json, statistics, sys
plain, delayed = (json.load(open(p))["cases"][0] for p in sys.argv[1:3])
chunks, delay_ms, attempt = int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
ok = True
for c in (plain, delayed):
    assert c["status"] == "ok", c["error"]
    assert c["ranks"] == 2 and c["verify"]["mismatches"] == 0 and c["verify"]["compared"] == 2 * 2**24, c["verify"]
    # Streamed in `chunks` chunks per rank: one collective call each, summed over the two ranks.
    for phase in ("write", "read"):
        assert c[phase]["metrics"]["collective_calls"] == 2 * chunks, c[phase]["metrics"]
slack_s = chunks * delay_ms * 1e-3 / 10
for phase in ("write", "read"):
    a = statistics.median(s[phase]["wall_s"] for s in plain["samples"])
    b = statistics.median(s[phase]["wall_s"] for s in delayed["samples"])
    allowed = 0.05 * a + slack_s
    good = b - a <= allowed
    ok = ok and good
    print("attempt %s, %s: median %.2f ms without the delay, %.2f ms with %d x %g ms on rank 1: "
          "%+.2f ms (allowed +%.2f ms) %s"
          % (attempt, phase, a * 1e3, b * 1e3, chunks, delay_ms, (b - a) * 1e3, allowed * 1e3,
             "ok" if good else "TOO FAR"))
sys.exit(0 if ok else 1)
PY
done
$timing_ok || fail "one rank's untimed work between chunks shows in the phases' times"

# ---- uneven chunks: strong scaling of 2 x 4 MiB + 1 u8 values gives rank 0
# one value more, so 5 chunks of 1 MiB against rank 1's 4; each rank reads
# the other's slice back (read_rank_shift 1). raw runs in forked workers
# (their meetings go through the rank), mpiio collective in the rank; the
# shared files are the same bytes.
cat > uneven.yaml <<'YAML'
name: uneven
defaults: {repeat: 2, warmup: 1, chunk: 1MiB, scaling: strong, read_rank_shift: 1, layout: shared_file}
datasets: [{dtype: u8, count: 8388609, seed: 3}]
formats:
  - raw
  - {plugin: mpiio, options: {transfer: collective, piece_size: 1MiB}}
keep_files: true
YAML
mkdir -p uneven
expect_status 0 mpi 2 "$FB" run uneven.yaml --memory-limit 1MiB --directory uneven --json uneven.json \
  --no-console
$PY - uneven.json <<'PY' || fail "uneven chunks"
import json, os, sys
d = json.load(open(sys.argv[1]))
files = []
for c in d["cases"]:
    assert c["status"] == "ok", (c["format"]["label"], c["error"])
    assert c["verify"]["compared"] == 8388609 and c["verify"]["mismatches"] == 0, c["verify"]
    (f,) = [os.path.join(d["context"]["data_directory"], n) for n in os.listdir(d["context"]["data_directory"])
            if n.startswith("case-%04d-" % c["index"])]
    files.append(open(f, "rb").read())
assert len(files) == 2 and files[0] == files[1] and len(files[0]) == 8388609
print("uneven chunks (5 and 4 per rank): both ranks ok, in forked workers and in the rank")
PY

# ---- a rank that fails mid-stream: the case fails on both ranks, naming
# rank 1 and its own error (not rank 0's "stopped: another rank's phase
# failed"), and the next case runs. misbehave fails its first write, crashes
# at its first read, or hangs there until the case's timeout, on rank 1
# only; rank 0 waits for it at its next meeting, which its rank's worker
# relay tells it failed.
cat > failing.yaml <<EOF
name: failing
defaults: {repeat: 2, warmup: 0, chunk: 64KiB, timeout: 5s}
datasets: [{dtype: f64, count: 100000}]
formats:
  - {label: fails, plugin: misbehave, options: {mode: fail_write, only_rank: 1}}
  - {label: crashes, plugin: misbehave, options: {mode: segfault, only_rank: 1}}
  - {label: hangs, plugin: misbehave, options: {mode: hang, only_rank: 1}}
  - raw
plugin_path: [$FB_TEST_PLUGINS]
EOF
expect_status 1 mpi 2 "$FB" run failing.yaml --memory-limit 64KiB --json failing.json --no-console
$PY - failing.json <<'PY' || fail "a rank failing mid-stream"
import json, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
want = {"fails": ("failed", "rank 1: plugin 'misbehave': write to", "failed on purpose"),
        "crashes": ("crashed", "rank 1: plugin process killed by signal 11", ""),
        "hangs": ("timeout", "rank 1: case did not finish within its timeout", "")}
for label, (status, start, end) in want.items():
    c = cases[label]
    assert c["status"] == status and c["error"].startswith(start) and c["error"].endswith(end), (
        label, c["status"], c["error"])
assert cases["raw"]["status"] == "ok", cases["raw"]["error"]
print("a rank failing, crashing or hanging mid-stream: the case fails on both ranks, naming rank 1; raw ran")
PY
echo "mpi_stream: ok"

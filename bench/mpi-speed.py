#!/usr/bin/env python3
"""formatbench under MPI against bare MPI + POSIX calls, in one run (issue 15).

  bench/mpi-speed.py [BUILD_DIR] [--count 2000000] [--repeat 7] [--rounds 5] [--ranks 1,2]

For each rank count N: `mpirun -np N --bind-to core formatbench run` of a
study with the raw plugin in both layouts (file per rank, one shared file;
COUNT float64 values per rank, `chunk: whole`, `cache: warm`), beside
BUILD_DIR/bench/mpi_bare (bench/mpi_bare.c), which makes the same
write()/read() calls between the same barriers and times a phase the same
way (last rank's end minus first rank's start). Each round runs formatbench
and the bare program once each for N, in an order that alternates between
rounds; the figure of a run is the median over its repetitions. Printed:
aggregate write and read bandwidth (MB/s, 10^6 bytes) of both, medians over
the rounds, and the median of the per-round ratios formatbench / bare
(bandwidths: 1 means as fast as the bare calls).

Then formatbench without mpirun beside `mpirun -np 1`, the same study with
file per rank only, alternating in each round: the median per-round ratio
of their median times (target 0.95 to 1.05).

As root, OpenMPI needs OMPI_ALLOW_RUN_AS_ROOT=1 and
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (set here when running as root). Needs as
many cores as the largest N (no --oversubscribe: shared cores would make the
figures meaningless). Figures only: nothing here passes or fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

STUDY = """name: mpi-speed
datasets: [{{name: f64, dtype: f64, count: {count}, seed: 1}}]
formats: [raw]
defaults: {{chunk: whole, cache: warm, repeat: {repeat}, warmup: 1, min_time: 0, layout: [{layouts}]}}
"""


def mpirun(n):
    return ["mpirun", "-np", str(n), "--bind-to", "core"]


def run_formatbench(prefix, fb, study, work, tag):
    out = os.path.join(work, f"{tag}.json")
    data = os.path.join(work, "data")
    os.makedirs(data, exist_ok=True)
    subprocess.run(prefix + [fb, "run", study, "--json", out, "--no-console", "--directory", data],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result = {}
    for c in json.load(open(out))["cases"]:
        layout = c["params"].get("layout", "file_per_rank")
        w = statistics.median(s["write"]["wall_s"] for s in c["samples"])
        r = statistics.median(s["read"]["wall_s"] for s in c["samples"])
        result[layout] = (w, r, c["payload_bytes"])
    return result


def run_bare(n, bare, layout, count, repeat, work):
    data = os.path.join(work, "bare")
    os.makedirs(data, exist_ok=True)
    out = subprocess.run(mpirun(n) + [bare, "per_rank" if layout == "file_per_rank" else "shared", str(count),
                                      data, str(repeat + 1)],
                         check=True, capture_output=True, text=True).stdout
    d = json.loads(out.strip().splitlines()[-1])
    # The first round is the warm-up, as formatbench's warmup: 1.
    return statistics.median(d["write_s"][1:]), statistics.median(d["read_s"][1:]), n * count * 8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--count", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ranks", default="1,2")
    a = ap.parse_args()
    if os.geteuid() == 0:
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    fb = os.path.abspath(os.path.join(a.build, "core", "formatbench"))
    bare = os.path.abspath(os.path.join(a.build, "bench", "mpi_bare"))
    for p in (fb, bare):
        if not os.access(p, os.X_OK):
            sys.exit(f"mpi-speed.py: {p} not built (MPI found? ninja -C {a.build})")
    work = tempfile.mkdtemp(prefix="fb-mpi-speed-")
    both = os.path.join(work, "both.yaml")
    open(both, "w").write(STUDY.format(count=a.count, repeat=a.repeat, layouts="file_per_rank, shared_file"))
    per_rank = os.path.join(work, "per-rank.yaml")
    open(per_rank, "w").write(STUDY.format(count=a.count, repeat=a.repeat, layouts="file_per_rank"))

    print(f"# {a.count} float64 per rank ({a.count * 8 / 1e6:.1f} MB), raw plugin, {a.repeat} repetitions "
          f"+ 1 warm-up per run, {a.rounds} rounds; MB/s = 10^6 bytes / s of aggregate time")
    for n in (int(x) for x in a.ranks.split(",")):
        rows = {}  # (layout, phase) -> list of (fb_mb_s, bare_mb_s, ratio)
        for k in range(a.rounds):
            order = ["fb", "bare"] if k % 2 == 0 else ["bare", "fb"]
            got = {}
            for who in order:
                if who == "fb":
                    got["fb"] = run_formatbench(mpirun(n), fb, both, work, f"n{n}-{k}")
                else:
                    got["bare"] = {l: run_bare(n, bare, l, a.count, a.repeat, work)
                                   for l in ("file_per_rank", "shared_file")}
            for layout in ("file_per_rank", "shared_file"):
                fw, fr, payload = got["fb"][layout]
                bw, br, bpayload = got["bare"][layout]
                assert payload == bpayload, (payload, bpayload)
                for phase, ft, bt in (("write", fw, bw), ("read", fr, br)):
                    rows.setdefault((layout, phase), []).append((payload / 1e6 / ft, payload / 1e6 / bt, bt / ft))
        print(f"\nN = {n} ranks")
        print(f"  {'layout':14} {'phase':6} {'formatbench MB/s':>17} {'bare MB/s':>10} {'ratio':>6}  per-round ratios")
        for (layout, phase), v in rows.items():
            print(f"  {layout:14} {phase:6} {statistics.median(x[0] for x in v):17.0f} "
                  f"{statistics.median(x[1] for x in v):10.0f} {statistics.median(x[2] for x in v):6.2f}  "
                  + " ".join(f"{x[2]:.2f}" for x in v))

    ratios = {"write": [], "read": []}
    for k in range(a.rounds):
        order = [[], mpirun(1)] if k % 2 == 0 else [mpirun(1), []]
        got = {}
        for prefix in order:
            got[bool(prefix)] = run_formatbench(prefix, fb, per_rank, work, f"np1-{k}-{bool(prefix)}")
        for i, phase in enumerate(("write", "read")):
            ratios[phase].append(got[False]["file_per_rank"][i] / got[True]["file_per_rank"][i])
    print("\nno mpirun against mpirun -np 1 (time without / time with; 1 = same)")
    for phase, v in ratios.items():
        print(f"  {phase:6} median {statistics.median(v):.3f}  per round " + " ".join(f"{x:.3f}" for x in v))
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()

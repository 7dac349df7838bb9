#!/usr/bin/env python3
"""How stable the default study's answer is under load (figures only, never
pass/fail).

Runs `formatbench run` (the built-in stream-io study) RUNS times while LOAD
busy loops keep the cores occupied, and prints, for each headline ratio, the
value of every run, the median and the spread (max / min - 1): raw and
gfortran's unformatted stream against gfortran's (f0.16) / list-directed,
write and read (the seed's enhancement table), and each run's wall time.
Then how the samples split (docs/methodology.md, "Disturbed samples"): per
headline phase, the median time of its undisturbed and of its disturbed
samples over all runs, and how many of each; per run, the phases whose
estimate rests on disturbed samples and the noisy ones.

    bench/default-spread.py build/core/formatbench            # 5 runs, load 2
    bench/default-spread.py build/core/formatbench --runs 5 --load 0
"""
import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time

BASE = "gfortran (f0.16) / list-directed"
HEADLINES = [("raw", "write"), ("raw", "read"),
             ("gfortran unformatted stream", "write"), ("gfortran unformatted stream", "read")]


def busy(stop):
    while not stop.is_set():
        pass


def one_run(fb, extra):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        start = time.monotonic()
        subprocess.run([fb, "run", "--progress", "none", "--no-console", "--json", path] + extra,
                       check=True, stderr=subprocess.DEVNULL)
        seconds = time.monotonic() - start
        record = json.load(open(path))
    medians = {c["format"]["label"]: (c["write"]["median_s"], c["read"]["median_s"]) for c in record["cases"]}
    if BASE not in medians:
        sys.exit(f"default-spread.py: no '{BASE}' case: build formatbench with gfortran")
    ratios = {}
    for label, phase in HEADLINES:
        i = 0 if phase == "write" else 1
        ratios[(label, phase)] = medians[BASE][i] / medians[label][i]
    times = {(label, phase): medians[label][0 if phase == "write" else 1]
             for label in [BASE] + [h for h, _ in HEADLINES[::2]] for phase in ("write", "read")}
    split = {}
    for c in record["cases"]:
        for phase in ("write", "read"):
            clean, hit = [], []
            for s in c["samples"]:
                (hit if disturbed(s[phase]) else clean).append(s[phase]["wall_s"])
            split[(c["format"]["label"], phase)] = (clean, hit)
    flags = (sum(c[p]["on_disturbed"] for c in record["cases"] for p in ("write", "read")),
             sum(c[p]["noisy"] for c in record["cases"] for p in ("write", "read")))
    return ratios, seconds, times, split, flags


def disturbed(p):
    """The rule of docs/methodology.md, from the record's accounting."""
    a = p.get("accounting")
    if not a or not a["measured"] or not p["wall_s"] > 0:
        return False
    full = a["cpus"] > 0 and p["user_s"] + p["sys_s"] >= 0.9 * a["cpus"] * p["wall_s"]
    wait = 0 if full else a["thread_wait_s"]
    return a["steal_s"] + wait > 0.02 * p["wall_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("formatbench")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--load", type=int, default=2, help="busy loops running beside it (default 2)")
    ap.add_argument("--set", action="append", default=[], help="passed to run as --set")
    a = ap.parse_args()
    extra = [x for s in a.set for x in ("--set", s)]
    stop = multiprocessing.Event()
    loops = [multiprocessing.Process(target=busy, args=(stop,), daemon=True) for _ in range(a.load)]
    for p in loops:
        p.start()
    try:
        runs = [one_run(a.formatbench, extra) for _ in range(a.runs)]
    finally:
        stop.set()
        for p in loops:
            p.join()
    print(f"default study, {a.runs} runs beside {a.load} busy loops ({os.cpu_count()} CPUs)"
          + (f", {' '.join(extra)}" if extra else ""))
    print(f"{'ratio against ' + BASE:<62} {'runs':<40} median  spread")
    for key in HEADLINES:
        values = [r[key] for r, *_ in runs]
        cells = " ".join(f"{v:7.1f}" for v in values)
        spread = max(values) / min(values) - 1
        print(f"{key[0] + ' ' + key[1]:<62} {cells:<40} {statistics.median(values):6.1f}  {spread:6.1%}")
    print(f"{'median phase time (ms)':<62}")
    for key in runs[0][2]:
        values = [t[key] * 1e3 for _, _, t, *_ in runs]
        cells = " ".join(f"{v:7.2f}" for v in values)
        spread = max(values) / min(values) - 1
        print(f"{'  ' + key[0] + ' ' + key[1]:<62} {cells:<40} {statistics.median(values):6.2f}  {spread:6.1%}")
    times = [s for _, s, *_ in runs]
    print(f"{'wall time of a run (s)':<62} {' '.join(f'{s:7.1f}' for s in times):<40} {statistics.median(times):6.1f}")
    print(f"{'phases resting on disturbed samples / noisy, per run':<62} "
          + " ".join(f"{d}/{n}" for *_, (d, n) in runs))
    print("samples of the headline phases: undisturbed median (count) | disturbed median (count), all runs")
    for key in runs[0][2]:
        clean = [x for r in runs for x in r[3][key][0]]
        hit = [x for r in runs for x in r[3][key][1]]
        med = lambda v: f"{statistics.median(v) * 1e3:8.3f} ms ({len(v):3d})" if v else f"{'-':>11} (  0)"
        print(f"{'  ' + key[0] + ' ' + key[1]:<62} {med(clean)} | {med(hit)}")


if __name__ == "__main__":
    main()

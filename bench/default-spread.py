#!/usr/bin/env python3
"""How stable the default study's answer is under load (figures only, never
pass/fail).

Runs `formatbench run` (the built-in stream-io study) RUNS times while LOAD
busy loops keep the cores occupied, and prints, for each headline ratio, the
value of every run, the median and the spread (max / min - 1): raw and
gfortran's unformatted stream against gfortran's (f0.16) / list-directed,
write and read (the seed's enhancement table), and each run's wall time.

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
    return ratios, seconds, times


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
        values = [r[key] for r, _, _ in runs]
        cells = " ".join(f"{v:7.1f}" for v in values)
        spread = max(values) / min(values) - 1
        print(f"{key[0] + ' ' + key[1]:<62} {cells:<40} {statistics.median(values):6.1f}  {spread:6.1%}")
    print(f"{'median phase time (ms)':<62}")
    for key in runs[0][2]:
        values = [t[key] * 1e3 for _, _, t in runs]
        cells = " ".join(f"{v:7.2f}" for v in values)
        spread = max(values) / min(values) - 1
        print(f"{'  ' + key[0] + ' ' + key[1]:<62} {cells:<40} {statistics.median(values):6.2f}  {spread:6.1%}")
    times = [s for _, s, _ in runs]
    print(f"{'wall time of a run (s)':<62} {' '.join(f'{s:7.1f}' for s in times):<40} {statistics.median(times):6.1f}")


if __name__ == "__main__":
    main()

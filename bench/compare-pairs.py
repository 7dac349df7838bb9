#!/usr/bin/env python3
"""Does `compare` cry wolf? (figures only, never pass/fail)

Runs a study (default: the built-in stream-io) 2 x PAIRS times with the same
binary while LOAD busy loops keep the cores occupied, compares each pair
with `formatbench compare --threshold THRESHOLD --format json`, and prints
per pair the cases flagged significantly slower or faster, the run-to-run
spread compare estimated and the phases each side had resting on disturbed
samples; then how many pairs flagged anything.

    bench/compare-pairs.py build/core/formatbench                     # 10 pairs, idle
    bench/compare-pairs.py build/core/formatbench --pairs 10 --load 2
"""
import argparse
import json
import multiprocessing
import os
import subprocess
import tempfile
import time


def busy(stop):
    while not stop.is_set():
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("formatbench")
    ap.add_argument("--study", default=None, help="a study file or ready study (default: the built-in one)")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--load", type=int, default=0, help="busy loops running beside it (default 0)")
    ap.add_argument("--threshold", default="5%")
    ap.add_argument("--set", action="append", default=[], help="passed to run as --set")
    a = ap.parse_args()
    extra = [x for s in a.set for x in ("--set", s)]
    stop = multiprocessing.Event()
    loops = [multiprocessing.Process(target=busy, args=(stop,), daemon=True) for _ in range(a.load)]
    for p in loops:
        p.start()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as d:
            for i in range(a.pairs):
                paths = []
                for side in ("a", "b"):
                    path = os.path.join(d, f"{i}{side}.json")
                    cmd = [a.formatbench, "run"] + ([a.study] if a.study else []) + \
                          ["--progress", "none", "--no-console", "--json", path] + extra
                    start = time.monotonic()
                    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
                    paths.append((path, time.monotonic() - start))
                out = subprocess.run([a.formatbench, "compare", paths[0][0], paths[1][0], "--threshold",
                                      a.threshold, "--format", "json"], capture_output=True, text=True)
                c = json.loads(out.stdout)
                slower = [k["label"] + " " + p for k in c["cases"] for p in ("write", "read") if k[p]["slower"]]
                faster = [k["label"] + " " + p for k in c["cases"] for p in ("write", "read") if k[p]["faster"]]
                rows.append((slower, faster, c["run_spread"], c["base_disturbed_phases"],
                             c["new_disturbed_phases"], c["phases"], paths[0][1], paths[1][1], out.returncode))
    finally:
        stop.set()
        for p in loops:
            p.join()
    print(f"compare --threshold {a.threshold}: {a.pairs} pairs of runs of "
          f"{a.study or 'the default study'} beside {a.load} busy loops ({os.cpu_count()} CPUs)"
          + (f", {' '.join(extra)}" if extra else ""))
    for i, (slower, faster, spread, bd, nd, phases, ta, tb, rc) in enumerate(rows):
        spread_text = f"{spread:.3f}" if spread is not None else "-"
        print(f"pair {i}: exit {rc}; slower: {', '.join(slower) or '-'}; faster: {', '.join(faster) or '-'}; "
              f"run spread {spread_text}; disturbed phases {bd}/{phases} and {nd}/{phases}; "
              f"runs {ta:.1f} s and {tb:.1f} s")
    flagged = sum(1 for r in rows if r[0] or r[1])
    gated = sum(1 for r in rows if r[8] == 1)
    print(f"pairs with a phase flagged: {flagged} of {len(rows)}; pairs whose gate failed (exit 1): {gated}")


if __name__ == "__main__":
    main()

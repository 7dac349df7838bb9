#!/usr/bin/env python3
"""Do the schedules measure the same thing? (the run-engine issue's target)

  bench/schedules.py [BUILD_DIR] [--runs 5] [--repeat 11] [--count 1e6]
                     [--warmup-time 50ms] [--formats memory,raw,ascii] [--set KEY=VALUE ...]

Runs one study of memory, raw and ascii (shortest) at --count f64 values
under each schedule (sequential, interleave, shuffle), --runs times, the
schedules in a rotating order so that none always runs first. Prints, per
format and phase, the median over the runs of each schedule's median time,
and the ratio of interleave and shuffle to sequential, of those medians and
the median of the per-run ratios (each run's schedules run within seconds of
each other, so a per-run ratio is not moved by the machine's slow drift
between runs). Every schedule keeps one worker per case alive from its
warm-up to its last repetition, so the ratios should be near 1; before the
run engine, interleave started a new worker with no warm-up for every
repetition (memory write 0.9 ms sequential, 12.4 ms interleaved). The studies run with warmup_time 50ms (--warmup-time;
0 for the engine's default): a re-warm of one repetition does not bring a
sub-millisecond phase back to its steady state after a neighbour that moves
much memory (ascii), a re-warm of 50 ms does (docs/methodology.md,
"Schedules"). --formats and --set (passed to every run, e.g.
isolation=none) vary the experiment when a ratio is off. Figures only:
nothing here passes or fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SCHEDULES = ["sequential", "interleave", "shuffle"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--count", default="1e6")
    ap.add_argument("--warmup-time", default="50ms", help="the studies' warmup_time (0: the engine's default)")
    ap.add_argument("--formats", default="memory,raw,ascii", help="plugins, one case each, in plan order")
    ap.add_argument("--set", action="append", default=[], help="a study setting for every run (repeatable)")
    a = ap.parse_args()
    formats = [x for x in a.formats.split(",") if x]
    fb = os.path.join(a.build, "core", "formatbench")
    medians = {s: {} for s in SCHEDULES}  # schedule -> (label, phase) -> [median per run]
    with tempfile.TemporaryDirectory(prefix="fb-schedules-") as work:
        study = os.path.join(work, "s.yaml")
        with open(study, "w") as f:
            f.write(f"""name: schedules
defaults: {{repeat: {a.repeat}, warmup: 1, warmup_time: {a.warmup_time}}}
datasets: [{{dtype: f64, count: {a.count}}}]
formats: [{", ".join(f"{{label: {p}, plugin: {p}}}" for p in formats)}]
""")
        for run in range(a.runs):
            order = SCHEDULES[run % 3:] + SCHEDULES[:run % 3]
            for schedule in order:
                out = os.path.join(work, f"{schedule}.json")
                sets = [x for kv in a.set for x in ("--set", kv)]
                subprocess.run([fb, "run", study, "--set", f"schedule={schedule}", *sets, "--json", out,
                                "--no-console", "--quiet", "--directory", work], check=True)
                for c in json.load(open(out))["cases"]:
                    for phase in ("write", "read"):
                        medians[schedule].setdefault((c["format"]["label"], phase), []).append(
                            c[phase]["median_s"])
            print(f"run {run + 1} of {a.runs} done ({', '.join(order)})", file=sys.stderr)
    print(f"medians over {a.runs} runs of each run's median ({a.repeat} repetitions, warm-up 1, "
          f"warmup_time {a.warmup_time}, {a.count} f64{', ' + ' '.join(a.set) if a.set else ''}), in ms; "
          "ratio to sequential: of those medians / the median of the per-run ratios")
    print(f"{'format':8} {'phase':6} {'sequential':>11} {'interleave':>11} {'ratio':>12} "
          f"{'shuffle':>11} {'ratio':>12}")
    for key in medians["sequential"]:
        seqs = medians["sequential"][key]
        seq = statistics.median(seqs)
        cells = [f"{seq * 1e3:11.3f}"]
        for s in ("interleave", "shuffle"):
            runs = medians[s][key]
            m = statistics.median(runs)
            # A run's schedules follow each other within seconds: their
            # ratio is taken before the machine drifts.
            paired = statistics.median([x / y for x, y in zip(runs, seqs)])
            cells += [f"{m * 1e3:11.3f}", f"{m / seq:5.2f} / {paired:4.2f}"]
        print(f"{key[0]:8} {key[1]:6} " + " ".join(cells))


if __name__ == "__main__":
    main()

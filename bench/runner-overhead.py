#!/usr/bin/env python3
"""The runner's own cost, and streaming memory bound (issue targets).

  bench/runner-overhead.py [BUILD_DIR] [--reps 101] [--rounds 41] [--streamed-count 1e9]

1. The memory plugin through the runner against bench/memory_loop, a tight
   loop of the same copies with the same untimed work around them, at 10^6
   doubles: medians of --reps repetitions each, and their ratio, in
   --rounds alternations; the summary is the median of the per-round
   ratios. A copy of 8 MB takes 0.3-0.6 ms, and two processes started a
   second apart differ here by up to 20% on it, so this is measured twice:
   a) in one process: the run engine (runner loop, the case's session and
      case_runner, with the in-process executor; formatbench run runs the
      same code in a forked worker) and the loop alternate (memory_loop's
      second form);
   b) across processes: `formatbench run` (fork isolation, CLI, reports)
      and the loop program alternate.
2. A streamed raw case (default 10^9 doubles = 8 GB, chunk 16 MiB): write,
   read and verify through the runner; prints the peak RSS it reports.
Figures only: nothing here passes or fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--reps", type=int, default=101)
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--streamed-count", default="1e9")
    ap.add_argument("--skip-streamed", action="store_true")
    a = ap.parse_args()
    fb = os.path.join(a.build, "core", "formatbench")
    loop = os.path.join(a.build, "bench", "memory_loop")
    with tempfile.TemporaryDirectory(prefix="fb-overhead-") as work:
        print(f"== a) memory plugin through the run engine vs a tight loop of the same copies, "
              f"one process, n = 10^6 f64, median of {a.reps}")
        d = json.loads(subprocess.run([loop, "1000000", str(a.reps), str(a.rounds), os.path.join(a.build, "plugins")],
                                      check=True, capture_output=True, text=True).stdout)
        rounds = [(r["runner_write_s"], r["loop_write_s"], r["runner_read_s"], r["loop_read_s"]) for r in d["rounds"]]
        print_rounds(rounds)
        study = os.path.join(work, "memory.yaml")
        with open(study, "w") as f:
            f.write("name: runner-overhead\n"
                    f"defaults: {{repeat: {a.reps}, warmup: 1}}\n"
                    "datasets: [{dtype: f64, count: 1e6}]\nformats: [memory]\n")
        print(f"\n== b) memory plugin through `formatbench run` vs the tight loop program, alternating, "
              f"n = 10^6 f64, median of {a.reps}")
        rounds = []
        for i in range(a.rounds):
            out = os.path.join(work, f"r{i}.json")
            subprocess.run([fb, "run", study, "--json", out, "--no-console"], check=True)
            case = json.load(open(out))["cases"][0]
            rw, rr = case["write"]["median_s"], case["read"]["median_s"]
            d = json.loads(subprocess.run([loop, "1000000", str(a.reps)], check=True, capture_output=True,
                                          text=True).stdout)
            rounds.append((rw, d["write_s"], rr, d["read_s"]))
        print_rounds(rounds)
        if a.skip_streamed:
            return 0
        study = os.path.join(work, "streamed.yaml")
        with open(study, "w") as f:
            f.write("name: streamed\n"
                    "defaults: {repeat: 1, warmup: 0, chunk: 16MiB}\n"
                    f"datasets: [{{dtype: f64, count: {a.streamed_count}}}]\nformats: [raw]\n")
        out = os.path.join(work, "streamed.json")
        data = os.path.join(work, "data")
        os.mkdir(data)
        subprocess.run([fb, "run", study, "--json", out, "--no-console", "--directory", data], check=True)
        case = json.load(open(out))["cases"][0]
        print(f"\n== streamed raw case: {a.streamed_count} f64 = {case['payload_bytes'] / 1e9:.1f} GB, chunk 16 MiB")
        print(f"status {case['status']}, verified {case['verify']['compared']} values, "
              f"{case['verify']['mismatches']} mismatches")
        print(f"write {case['write']['median_s']:.2f} s, read {case['read']['median_s']:.2f} s, "
              f"peak RSS {case['peak_rss_bytes'] / 2**20:.1f} MiB (target: under 256 MB)")


def print_rounds(rounds):
    print(f"{'round':<7}{'runner write':>14}{'loop write':>12}{'ratio':>8}{'runner read':>14}{'loop read':>12}{'ratio':>8}")
    for i, (rw, lw, rr, lr) in enumerate(rounds):
        print(f"{i + 1:<7}{rw * 1e3:>11.3f} ms{lw * 1e3:>9.3f} ms{rw / lw:>8.3f}"
              f"{rr * 1e3:>11.3f} ms{lr * 1e3:>9.3f} ms{rr / lr:>8.3f}")
    mw = statistics.median([rw / lw for rw, lw, _, _ in rounds])
    mr = statistics.median([rr / lr for _, _, rr, lr in rounds])
    print(f"{'median':<7}{'':>23}{mw:>8.3f}{'':>23}{mr:>8.3f}")
    print("ratio = runner median / loop median (target: within 2%, i.e. 0.98 to 1.02)")


if __name__ == "__main__":
    sys.exit(main())

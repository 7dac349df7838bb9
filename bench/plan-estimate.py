#!/usr/bin/env python3
"""plan's time estimate against the run it estimates (issue 44).

  bench/plan-estimate.py [BUILD_DIR] [STUDY...] [--mpi N]

For each ready study (default: access, cache, chunks, compression,
containers, float-compression, scaling, stream-io): `formatbench plan STUDY`
(its calibration runs, timed), then `formatbench run STUDY --no-console
--progress none` timed from start to exit. Printed per study: the
estimate's total ("time: about ..."), how long plan took (its calibration
included), the run's wall time, and estimate / measured (the goal: between
0.5 and 2). With --mpi N, the studies given (e.g. mpi-scaling parallel-io)
run under `mpirun --oversubscribe -np N`, plan without it (its estimate is
then that of one process). Figures only: nothing here passes or fails; run
it on an idle machine (the load average is printed before and after).
"""
import os
import re
import subprocess
import sys
import time

STUDIES = ["access", "cache", "chunks", "compression", "containers", "float-compression", "scaling", "stream-io"]
UNITS = {"ns": 1e-9, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(text):
    number, unit = text.split()
    return float(number) * UNITS[unit]


def main():
    args = sys.argv[1:]
    mpi = 0
    if "--mpi" in args:
        i = args.index("--mpi")
        mpi = int(args[i + 1])
        del args[i : i + 2]
    build = args.pop(0) if args and os.path.isdir(args[0]) else "build"
    fb = os.path.join(build, "core", "formatbench")
    studies = args or STUDIES
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(f"{'study':<18} {'estimate':>10} {'plan took':>10} {'run took':>10} {'ratio':>6}")
    for name in studies:
        t0 = time.monotonic()
        plan = subprocess.run([fb, "plan", name], capture_output=True, text=True, env=env)
        plan_s = time.monotonic() - t0
        m = re.search(r"time: about (\S+ \S+) for the (\d+) of (\d+) cases calibrated", plan.stdout)
        if plan.returncode != 0 or not m:
            print(f"{name:<18} plan failed ({plan.returncode}): {plan.stderr.strip()[-300:]}")
            continue
        estimate = seconds(m.group(1))
        command = [fb, "run", name, "--no-console", "--progress", "none"]
        if mpi:
            command = ["mpirun", "--oversubscribe", "-np", str(mpi)] + command
        t0 = time.monotonic()
        run = subprocess.run(command, capture_output=True, text=True, env=env)
        run_s = time.monotonic() - t0
        note = "" if run.returncode == 0 else f"  (run exit {run.returncode})"
        if m.group(2) != m.group(3):
            note += f"  ({m.group(2)} of {m.group(3)} cases estimated)"
        print(f"{name:<18} {estimate:>9.1f}s {plan_s:>9.1f}s {run_s:>9.1f}s {estimate / run_s:>6.2f}{note}",
              flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()

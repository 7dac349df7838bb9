#!/usr/bin/env python3
"""formatbench's random 4 KiB reads beside fio's on the same file (issue 27).

  bench/access-speed.py [BUILD_DIR] [--count 1e8] [--ops 20000] [--cold-ops 4000]
                        [--rounds 5] [--dir DIR]

One file of COUNT float64 values (10^8: 800 MB), written by the raw plugin
and kept (keep_files). Two cases, each beside fio 3.33 doing the same reads
on the same file:
  warm: `access: random`, 4 KiB blocks, OPS reads, the file in the page
        cache; fio --rw=randread --bs=4k --ioengine=psync --number_ios=OPS
        --invalidate=0 (fio drops the file's pages first unless told not to)
        --norandommap (offsets drawn with replacement, as formatbench's)
        --io_size=OPS*4096 (without it fio stops after `size` bytes);
  cold: the same with `cache: cold, direct: true` (O_DIRECT), COLD_OPS
        reads; fio with --direct=1.
Each round runs formatbench (a warm-up and 3 repetitions of both cases,
`sync: data` so that no write-back of the file overlaps the reads) and fio
on both files, formatbench first in odd rounds and fio first in even ones (fio then
reads the files of the previous round). formatbench's figures are its
record's read latency (each operation timed alone between two steady_clock
readings) and IOPS (1e9 / mean latency), medians over its repetitions; fio's are its read IOPS and the
percentiles of its total latency (--lat_percentiles=1). Printed: medians
over the rounds of both, and the median of the per-round ratios
formatbench / fio (IOPS: above 1 is faster; latency: below 1 is faster).

The offsets differ (fio draws its own), which matters little for a
uniform draw over 195312 blocks. DIR must be on a block device (not tmpfs)
for O_DIRECT; default: a temporary folder under /var/tmp. Figures only:
nothing here passes or fails.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

STUDY = """name: access-speed
directory: {directory}
keep_files: true
datasets: [{{name: f64, dtype: f64, count: {count}, seed: 1}}]
formats:
  - {{plugin: raw, label: warm, access: random, access_block: 4KiB, access_ops: {ops}}}
  - {{plugin: raw, label: cold, access: random, access_block: 4KiB, access_ops: {cold_ops},
     cache: cold, direct: true}}
defaults: {{chunk: whole, repeat: 3, warmup: 1, min_time: 0, sync: data}}
"""


def run_formatbench(exe, study, record):
    r = subprocess.run([exe, "run", study, "--no-console", "--progress", "none", "--json", record, "--force"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"access-speed: formatbench run failed ({r.returncode}):\n{r.stderr}")
    out = {}
    for c in json.load(open(record))["cases"]:
        if c["status"] != "ok":
            sys.exit(f"access-speed: formatbench case {c['format']['label']}: {c['error']}")
        lat = c["read"]["latency"]
        out[c["format"]["label"]] = {"iops": lat["iops"], "p50": lat["p50_ns"], "p99": lat["p99_ns"]}
    return out


def run_fio(path, ops, direct):
    cmd = ["fio", "--name=randread", f"--filename={path}", "--rw=randread", "--bs=4k", "--ioengine=psync",
           "--norandommap",
           f"--number_ios={ops}", f"--size={os.path.getsize(path)}", f"--io_size={ops * 4096}", f"--direct={1 if direct else 0}",
           "--invalidate=0", "--lat_percentiles=1", "--percentile_list=50:99", "--output-format=json"]
    r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)["jobs"][0]["read"]
    pct = r["lat_ns"]["percentile"]
    return {"iops": r["iops"], "p50": pct["50.000000"], "p99": pct["99.000000"], "ios": r["total_ios"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--count", type=float, default=1e8)
    ap.add_argument("--ops", type=int, default=20000)
    ap.add_argument("--cold-ops", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", default=None)
    a = ap.parse_args()
    exe = os.path.join(a.build, "core", "formatbench")
    if not shutil.which("fio"):
        sys.exit("access-speed: fio not found (apt-get install fio; scripts/setup-debian.sh installs it)")
    work = tempfile.mkdtemp(prefix="fb-access-speed.", dir=a.dir or "/var/tmp")
    try:
        study = os.path.join(work, "study.yaml")
        data = os.path.join(work, "data")
        os.mkdir(data)
        with open(study, "w") as f:
            f.write(STUDY.format(directory=data, count=int(a.count), ops=a.ops, cold_ops=a.cold_ops))
        files = {"warm": os.path.join(data, "case-0000-raw.raw"), "cold": os.path.join(data, "case-0001-raw.raw")}
        ops = {"warm": a.ops, "cold": a.cold_ops}
        rows = {k: {"fb": [], "fio": []} for k in files}
        for r in range(a.rounds):
            fio_first = r % 2 == 1
            if not fio_first:
                fb = run_formatbench(exe, study, os.path.join(work, "r.json"))
            fio = {k: run_fio(files[k], ops[k], k == "cold") for k in files}
            if fio_first:
                fb = run_formatbench(exe, study, os.path.join(work, "r.json"))
            for k in files:
                if fio[k]["ios"] != ops[k]:
                    sys.exit(f"access-speed: fio made {fio[k]['ios']} reads, not {ops[k]}")
                rows[k]["fb"].append(fb[k])
                rows[k]["fio"].append(fio[k])
            print(f"round {r + 1}/{a.rounds}: " + "; ".join(
                f"{k} IOPS {fb[k]['iops']:.0f} vs fio {fio[k]['iops']:.0f}" for k in files), flush=True)
        print(f"\nraw, random 4 KiB reads of a {int(a.count) * 8 / 1e6:.0f} MB file, {a.rounds} rounds "
              f"(medians; ratio: median of the per-round formatbench / fio)")
        print(f"{'case':6} {'figure':8} {'formatbench':>12} {'fio':>12} {'ratio':>7}")
        for k in files:
            for fig in ("iops", "p50", "p99"):
                fbv = [x[fig] for x in rows[k]["fb"]]
                fiov = [x[fig] for x in rows[k]["fio"]]
                ratio = statistics.median(x / y for x, y in zip(fbv, fiov))
                print(f"{k:6} {fig:8} {statistics.median(fbv):>12.0f} {statistics.median(fiov):>12.0f} "
                      f"{ratio:>6.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

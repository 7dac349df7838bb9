#!/usr/bin/env python3
"""The python bridge's cost (issue 42): its plugins beside a bare Python loop
making the same library calls, and beside their C counterparts.

  bench/python-bridge.py [BUILD_DIR] [--counts 1e6,1e7] [--repeat 5] [--dir DIR]

For each COUNT of float64 values (uniform [0,1)), one formatbench study
(warm cache, a warm-up and REPEAT repetitions, the whole array in one write
and one read) runs py-numpy, py-h5py, py-netcdf4 and py-zarr (those built)
with their default options, and raw, hdf5 and netcdf. Then, in a separate
/usr/bin/python3 (the interpreter the bridge embeds), a bare loop makes the
calls each module makes, with the same settings, a warm-up and REPEAT
repetitions, each timed from open to close and starting from no file:
  numpy   tofile / fromfile (the bridge copies fromfile's array once into
          its buffer: that copy is in its read time, not in the loop's)
  h5py    File, create_dataset, d[0:n] = a, close / File, read_direct, close
  netCDF4 Dataset, createDimension, createVariable (contiguous, no fill),
          v[0:n] = a, close / Dataset, v[0:n], close
  zarr    open_array (DirectoryStore, 2^20-element chunks, no compressor),
          z[0:n] = a / open_array, get_basic_selection(out=), (no close)
The loop runs twice: as it is, its array staying in the CPU caches
between phases, and (`ev/br`) with 32 MB of other memory traffic before
each phase, as the bridge's worker has (it poisons the read buffer and
compares the data it read between phases), so that the two differences
can be told apart.
Printed: medians of both, `loop/bridge` (the loop's time over the
bridge's: 1 is no cost, the goal is at least 0.95), and each Python plugin
against its C counterpart (`py/C`, the Python plugin's time over the C
plugin's: above 1, the Python plugin is slower).
Figures only: nothing here passes or fails.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

PAIRS = {"py-numpy": "raw", "py-h5py": "hdf5", "py-netcdf4": "netcdf", "py-zarr": None}

LOOP = r'''
import json, os, shutil, statistics, sys, time
import numpy as np
module, n, repeat, path, evict = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
a = np.random.default_rng(1).random(n)
out = np.empty_like(a)
scratch = np.zeros(4 * 10**6)  # 32 MB: more than the caches hold

def traffic():
    if evict:
        scratch.__iadd__(1.0)

def remove():
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.unlink(path)

if module == "py-numpy":
    def write():
        with open(path, "wb", buffering=0) as f:
            a.tofile(f)
    def read():
        with open(path, "rb", buffering=0) as f:
            np.fromfile(f, dtype=a.dtype, count=n)
elif module == "py-h5py":
    import h5py
    def write():
        with h5py.File(path, "w") as f:
            f.create_dataset("/data", shape=(n,), dtype=a.dtype)[0:n] = a
    def read():
        with h5py.File(path, "r") as f:
            f["/data"].read_direct(out, source_sel=np.s_[0:n])
elif module == "py-netcdf4":
    import netCDF4
    def write():
        with netCDF4.Dataset(path, "w", format="NETCDF4") as f:
            f.createDimension("n", n)
            v = f.createVariable("data", a.dtype, ("n",), fill_value=False, contiguous=True)
            v.set_auto_maskandscale(False)
            v[0:n] = a
    def read():
        with netCDF4.Dataset(path, "r") as f:
            v = f.variables["data"]
            v.set_auto_maskandscale(False)
            v[0:n]
else:
    import zarr
    def write():
        z = zarr.open_array(zarr.DirectoryStore(path), mode="w", shape=(n,), chunks=(min(n, 1 << 20),),
                            dtype=a.dtype, compressor=None, fill_value=None)
        z[0:n] = a
    def read():
        z = zarr.open_array(zarr.DirectoryStore(path), mode="r")
        z.get_basic_selection(slice(0, n), out=out)
times = {"write": [], "read": []}
for rep in range(repeat + 1):
    remove()
    traffic()
    t0 = time.perf_counter(); write(); t1 = time.perf_counter()
    traffic()
    t2 = time.perf_counter(); read(); t3 = time.perf_counter()
    if rep:
        times["write"].append(t1 - t0)
        times["read"].append(t3 - t2)
remove()
print(json.dumps({k: statistics.median(v) for k, v in times.items()}))
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--counts", default="1e6,1e7")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    fb = os.path.join(args.build, "core", "formatbench")
    built = subprocess.run([fb, "plugins"], capture_output=True, text=True, check=True).stdout.split("\n")
    ids = {line.split()[0] for line in built if line.strip()}
    pythons = [p for p in PAIRS if p in ids]
    formats = []
    for p in pythons:
        formats.append(p)
        if PAIRS[p] in ids:
            formats.append(PAIRS[p])
    counts = [int(float(c)) for c in args.counts.split(",")]
    work = tempfile.mkdtemp(prefix="fb-python-bridge-", dir=args.dir or "/var/tmp")
    try:
        study = os.path.join(work, "study.yaml")
        with open(study, "w") as f:
            f.write("name: python-bridge\n")
            f.write(f"defaults: {{repeat: {args.repeat}, warmup: 1, cache: warm}}\n")
            f.write("datasets:\n")
            for n in counts:
                f.write(f"  - {{dtype: f64, count: {n}, distribution: uniform, seed: 1}}\n")
            f.write(f"formats: [{', '.join(formats)}]\n")
            f.write(f"directory: {work}\n")
        record = os.path.join(work, "record.json")
        subprocess.run([fb, "run", study, "--json", record, "--quiet"], check=False)
        bridge = {}
        for c in json.load(open(record))["cases"]:
            if c["status"] == "ok":
                bridge[(c["format"]["label"], c["dataset"]["count"])] = (c["write"]["median_s"],
                                                                        c["read"]["median_s"])
        print(f"formatbench python-bridge: f64 uniform, warm cache, whole array, medians of {args.repeat}")
        print(f"{'plugin':<11} {'count':>9}  {'bridge w':>9} {'loop w':>9} {'loop/br':>7} {'ev/br':>6}  "
              f"{'bridge r':>9} {'loop r':>9} {'loop/br':>7} {'ev/br':>6}  {'C':<7} {'py/C w':>6} {'py/C r':>6}")
        for n in counts:
            for p in pythons:
                loop, ev = (json.loads(subprocess.run(
                    ["/usr/bin/python3", "-c", LOOP, p, str(n), str(args.repeat), os.path.join(work, "loop"), e],
                    capture_output=True, text=True, check=True).stdout) for e in ("0", "1"))
                b = bridge.get((p, n))
                cpart = PAIRS[p]
                cw = bridge.get((cpart, n))
                if not b:
                    print(f"{p:<11} {n:>9}  (failed in formatbench)")
                    continue
                ratio_c = f"{b[0] / cw[0]:6.2f} {b[1] / cw[1]:6.2f}" if cw else f"{'-':>6} {'-':>6}"
                print(f"{p:<11} {n:>9}  {b[0] * 1e3:7.2f}ms {loop['write'] * 1e3:7.2f}ms "
                      f"{loop['write'] / b[0]:7.2f} {ev['write'] / b[0]:6.2f}  {b[1] * 1e3:7.2f}ms "
                      f"{loop['read'] * 1e3:7.2f}ms {loop['read'] / b[1]:7.2f} {ev['read'] / b[1]:6.2f}  "
                      f"{cpart or '-':<7} {ratio_c}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

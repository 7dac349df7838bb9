#!/usr/bin/env python3
"""Plugin speed against its references, measured in one run (issue targets).

  bench/plugin-speed.py [BUILD_DIR] [--runs 5] [--sizes 1000000,10000000]

Runs the reference Fortran program (gfortran -O2, n from the command line)
--runs times per size, and build/bench/plugin_speed, which times every
plugin beside bare to_chars/from_chars loops on both cores, one plain
write()/read() and zlib's compress2. Prints medians and the ratios the
targets are stated in. Figures only: nothing here passes or fails.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def fortran_medians(work, n, runs):
    exe = os.path.join(work, "stream_io_n")
    if not os.path.exists(exe):
        subprocess.run(["gfortran", "-O2", "-o", exe, os.path.join(HERE, "fortran", "stream_io_n.f90")],
                       check=True, cwd=work)
    rows = []
    for _ in range(runs):
        for f in ("temp.txt", "temp.bin"):  # each run writes new files, as formatbench does
            if os.path.exists(os.path.join(work, f)):
                os.unlink(os.path.join(work, f))
        out = subprocess.run([exe, str(n)], check=True, cwd=work, capture_output=True, text=True).stdout.split()
        rows.append([float(v) for v in out[1:5]])
    return [statistics.median(col) for col in zip(*rows)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="1000000,10000000")
    a = ap.parse_args()
    speed = os.path.join(a.build, "bench", "plugin_speed")
    plugins = os.path.join(a.build, "plugins")
    work = tempfile.mkdtemp(prefix="fb-bench-", dir=os.environ.get("TMPDIR", "/tmp"))
    try:
        for n in [int(s) for s in a.sizes.split(",")]:
            fw, fr, uw, ur = fortran_medians(work, n, a.runs) if shutil.which("gfortran") else [float("nan")] * 4
            d = json.loads(subprocess.run([speed, plugins, work, str(n), str(a.runs)], check=True,
                                          capture_output=True, text=True).stdout)
            p, ref = d["plugins"], d["ref"]
            mb = n * 8 / 1e6
            print(f"\n== n = {n} float64 uniform [0,1), page cache, median of {a.runs} "
                  f"(MB/s = 10^6 bytes of payload per second)")
            print(f"{'case':<24}{'write s':>11}{'read s':>11}{'write MB/s':>12}{'read MB/s':>12}{'ratio':>7}")
            for k, v in p.items():
                print(f"{k:<24}{v['write_s']:>11.5f}{v['read_s']:>11.5f}{mb / v['write_s']:>12.0f}"
                      f"{mb / v['read_s']:>12.0f}{v['ratio']:>7.3f}")
            print(f"{'fortran (f0.16) / list':<24}{fw:>11.5f}{fr:>11.5f}")
            print(f"{'fortran unformatted':<24}{uw:>11.5f}{ur:>11.5f}")
            print(f"{'plain write()/read()':<24}{ref['plain_write_s']:>11.5f}{ref['plain_read_s']:>11.5f}")
            print(f"{'to_chars/from_chars x2':<24}{ref['to_chars_shortest_2cores_s']:>11.5f}"
                  f"{ref['from_chars_2cores_s']:>11.5f}   (fixed16 to_chars x2: "
                  f"{ref['to_chars_fixed16_2cores_s']:.5f} s)")
            print(f"{'compress2 level 6':<24}{ref['compress2_l6_uniform_s']:>11.5f}{'':>11}{'':>12}{'':>12}"
                  f"{ref['compress2_l6_uniform_ratio']:>7.3f}")
            print("ratios (target in brackets):")
            s = p["ascii_shortest"]
            f16 = p["ascii_fixed16"]
            print(f"  ascii shortest write vs fortran write       {fw / s['write_s']:7.1f}x  [>= 12x]")
            print(f"  ascii fixed16  write vs fortran write       {fw / f16['write_s']:7.1f}x")
            print(f"  ascii read vs fortran list-directed read    {fr / s['read_s']:7.1f}x  [>= 20x]")
            print(f"  ascii shortest write vs to_chars x2 loop    {ref['to_chars_shortest_2cores_s'] / s['write_s']:7.2f}   [>= 0.80]")
            print(f"  ascii fixed16 write vs fixed16 to_chars x2  {ref['to_chars_fixed16_2cores_s'] / f16['write_s']:7.2f}")
            print(f"  ascii read vs from_chars x2 loop            {ref['from_chars_2cores_s'] / s['read_s']:7.2f}   [>= 0.80]")
            print(f"  raw write vs plain write()                  {ref['plain_write_s'] / p['raw']['write_s']:7.2f}   [>= 0.90]")
            print(f"  raw read vs plain read()                    {ref['plain_read_s'] / p['raw']['read_s']:7.2f}   [>= 0.90]")
            print(f"  raw write vs fortran unformatted write      {uw / p['raw']['write_s']:7.2f}   [>= 1.00]")
            print(f"  raw read vs fortran unformatted read        {ur / p['raw']['read_s']:7.2f}   [>= 1.00]")
            print(f"  mmap read vs raw read                       {p['raw']['read_s'] / p['mmap']['read_s']:7.2f}   [>= 1.00]")
            z1, z2 = p["zlib_l6_t1"], p["zlib_l6_t2"]
            print(f"  zlib l6 1 thread vs compress2               {ref['compress2_l6_uniform_s'] / z1['write_s']:7.2f}   [>= 0.90]")
            print(f"  zlib l6 2 threads vs compress2              {ref['compress2_l6_uniform_s'] / z2['write_s']:7.2f}   [>= 1.70]")
            print("  zlib ratios: uniform {:.3f}, uniform+shuffle {:.3f}, smooth {:.3f}, smooth+shuffle {:.3f}".format(
                z1["ratio"], p["zlib_l6_shuffle"]["ratio"], p["zlib_l6_t1_smooth"]["ratio"],
                p["zlib_l6_shuffle_smooth"]["ratio"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

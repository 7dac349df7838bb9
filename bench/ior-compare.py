#!/usr/bin/env python3
"""formatbench beside IOR on the same parallel work, in alternating rounds.

  bench/ior-compare.py [BUILD_DIR] (--ior-src TARBALL | --ior BINARY)
                       [--ior-build DIR] [--ranks 1,2] [--block 16MiB]
                       [--iterations 7] [--rounds 3] [--work DIR]
                       [--pairs posix,mpiio,hdf5,ncmpi[,ncmpi-f64]]

IOR (https://github.com/hpc/ior, GPL-2.0) is the reference of parallel I/O
benchmarks. With --ior-src the IOR source tarball is unpacked into
--ior-build (default /var/tmp/formatbench-ior) and built there once
(./bootstrap, ./configure --with-hdf5 / --with-ncmpi when a parallel HDF5 /
PnetCDF is found by pkg-config, make); later runs reuse the binary. Nothing
of IOR is copied into formatbench. --ior BINARY uses an IOR already built.

For each rank count N and each pair below, one round runs IOR once
(`-w -r -i ITERATIONS`) and formatbench once (`repeat: ITERATIONS`,
`warmup: 0`, `cache: warm`, as IOR reads what it just wrote), in an order
that alternates between rounds, on the same folder and the same work: BLOCK
bytes per rank (IOR `-b`, formatbench `count` = BLOCK / 8 float64), one
transfer per rank (`-t BLOCK`, `chunk: whole`) and 1 MiB transfers
(`-t 1m`, `chunk: 1MiB`). IOR moves every transfer through one buffer of
the transfer's size, which stays in the CPU's cache; formatbench holds the
whole block (it verifies what it read, after the phase), so with 1 MiB
transfers it also runs streamed (`--memory-limit 1MiB`: one buffer of the
transfer's size, as IOR), printed as "1MiB str":

  IOR                   formatbench
  -a POSIX -F           raw, layout: file_per_rank
  -a POSIX              raw, layout: shared_file
  -a MPIIO              mpiio transfer: independent, layout: shared_file
  -a MPIIO -c           mpiio transfer: collective, piece_size: TRANSFER
                        (one _all call per transfer, as IOR), layout: shared_file
  -a HDF5 --hdf5.noFill hdf5_mpio transfer: independent, layout: shared_file
                        (fill time never: both write each element once)
  -a HDF5 -c ...        hdf5_mpio transfer: collective, piece_size: TRANSFER
  -a NCMPI [-c]         pnetcdf transfer: independent [collective,
                        piece_size: TRANSFER], format 64bit_data (CDF-5, as
                        IOR); IOR's variable is 3-D bytes (NC_BYTE) with a
                        record dimension, formatbench's 1-D u8 (NC_UBYTE):
                        bytes on both sides, stored as they are
  (ncmpi-f64)           the same with float64, which PnetCDF byte-swaps to
                        netCDF's big-endian order (a cost of the format)

A pair whose side is missing (IOR built without the backend, formatbench
without the plugin) is printed as not measured, with the reason.

A run's bandwidth is the median over its iterations: IOR's per-iteration
bwMiB converted to MB/s (x 1.048576: aggregate bytes / its totalTime, which
spans open, transfers and close between barriers), formatbench's aggregate
payload / the phase's time (first rank's start to last rank's end, open
to close). Printed per N, pair and phase: both medians over the rounds and
the median of the per-round ratios formatbench / IOR (> 1: formatbench
faster), then each round's ratio. Figures only: nothing passes or fails.
As root, OpenMPI's OMPI_ALLOW_RUN_AS_ROOT variables are set here. Needs as
many cores as the largest N (no --oversubscribe).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

MIB = 1 << 20

STUDY = """name: ior-compare
datasets: [{{name: {dtype}, dtype: {dtype}, count: {count}, seed: 1}}]
formats: [{format}]
defaults: {{chunk: {chunk}, cache: warm, repeat: {repeat}, warmup: 0, min_time: 0, layout: {layout}}}
"""

# name, IOR arguments, formatbench format (YAML flow), layout, plugin needed,
# dtype of formatbench's data set. The ncmpi pairs write bytes (u8, a CDF-5
# NC_UBYTE variable), as IOR's NC_BYTE variable: netCDF stores values
# big-endian, so PnetCDF byte-swaps float64 through a buffer of its own, a
# cost IOR's bytes never pay; ncmpi-f64 (by --pairs) measures it.
NCMPI_INDEPENDENT = "{plugin: pnetcdf, options: {transfer: independent, format: 64bit_data}}"
NCMPI_COLLECTIVE = "{plugin: pnetcdf, options: {transfer: collective, format: 64bit_data, piece_size: TRANSFER}}"
PAIRS = [
    ("posix file per rank", ["-a", "POSIX", "-F"], "raw", "file_per_rank", "raw", "f64"),
    ("posix shared", ["-a", "POSIX"], "raw", "shared_file", "raw", "f64"),
    ("mpiio independent", ["-a", "MPIIO"], "{plugin: mpiio, options: {transfer: independent}}", "shared_file",
     "mpiio", "f64"),
    ("mpiio collective", ["-a", "MPIIO", "-c"],
     "{plugin: mpiio, options: {transfer: collective, piece_size: TRANSFER}}", "shared_file", "mpiio", "f64"),
    ("hdf5 independent", ["-a", "HDF5", "--hdf5.noFill"], "{plugin: hdf5_mpio, options: {transfer: independent}}",
     "shared_file", "hdf5_mpio", "f64"),
    ("hdf5 collective", ["-a", "HDF5", "-c", "--hdf5.noFill"],
     "{plugin: hdf5_mpio, options: {transfer: collective, piece_size: TRANSFER}}", "shared_file", "hdf5_mpio", "f64"),
    ("ncmpi independent", ["-a", "NCMPI"], NCMPI_INDEPENDENT, "shared_file", "pnetcdf", "u8"),
    ("ncmpi collective", ["-a", "NCMPI", "-c"], NCMPI_COLLECTIVE, "shared_file", "pnetcdf", "u8"),
    ("ncmpi-f64 independent", ["-a", "NCMPI"], NCMPI_INDEPENDENT, "shared_file", "pnetcdf", "f64"),
    ("ncmpi-f64 collective", ["-a", "NCMPI", "-c"], NCMPI_COLLECTIVE, "shared_file", "pnetcdf", "f64"),
]


def size(text):
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    mult = {"k": 1 << 10, "m": MIB, "g": 1 << 30}.get(t[-1:], 1)
    return int(float(t.rstrip("kmg")) * mult)


def mpirun(n):
    return ["mpirun", "-np", str(n), "--bind-to", "core"]


def pkg_config(name):
    return subprocess.run(["pkg-config", "--exists", name]).returncode == 0


def pkg_config_flags(name, what):
    return subprocess.run(["pkg-config", what, name], capture_output=True, text=True, check=True).stdout.split()


def build_ior(tarball, folder):
    """IOR's binary, built in folder from the tarball once."""
    os.makedirs(folder, exist_ok=True)
    for entry in sorted(os.listdir(folder)):
        binary = os.path.join(folder, entry, "src", "ior")
        if os.access(binary, os.X_OK):
            return binary
    subprocess.run(["tar", "xzf", os.path.abspath(tarball), "-C", folder], check=True)
    src = next(os.path.join(folder, e) for e in sorted(os.listdir(folder))
               if os.path.isfile(os.path.join(folder, e, "configure.ac")))
    configure = ["./configure"]
    # Debian's parallel HDF5 and PnetCDF live outside the default paths:
    # their pkg-config flags go to configure's compile and link checks.
    cflags, ldflags = [], []
    for name, flag in (("hdf5-openmpi", "--with-hdf5"), ("pnetcdf", "--with-ncmpi")):
        if pkg_config(name):
            configure.append(flag)
            cflags += pkg_config_flags(name, "--cflags")
            ldflags += pkg_config_flags(name, "--libs-only-L")
    if cflags:
        configure += ["CPPFLAGS=" + " ".join(cflags), "LDFLAGS=" + " ".join(ldflags)]
    log = os.path.join(folder, "build.log")
    with open(log, "w") as out:
        for step in (["./bootstrap"], configure, ["make", f"-j{os.cpu_count() or 1}"]):
            print(f"# building IOR in {src}: {' '.join(step)} (log: {log})", file=sys.stderr)
            if subprocess.run(step, cwd=src, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                sys.exit(f"ior-compare.py: '{' '.join(step)}' failed in {src}; see {log}")
    return os.path.join(src, "src", "ior")


def ior_backends(ior):
    """The -a backends this IOR binary was built with (from its -h)."""
    text = subprocess.run([ior, "-h"], capture_output=True, text=True).stdout
    line = next((l for l in text.splitlines() if l.strip().startswith("-a=")), "")
    return {b for b in ("POSIX", "MPIIO", "HDF5", "NCMPI") if b in line}


def run_ior(n, ior, args, block, transfer, iterations, folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    out = subprocess.run(mpirun(n) + [ior] + args + [
        "-b", str(block), "-t", str(transfer), "-w", "-r", "-i", str(iterations), "-o",
        os.path.join(folder, "ior.dat"), "-O", "summaryFormat=JSON"], check=True, capture_output=True,
        text=True).stdout
    # IOR prints some warnings on standard output, inside its JSON ("WARNING:
    # File write only not implemented in NCMPI"): they are dropped first.
    out = "\n".join(l for l in out.splitlines() if not l.startswith("WARNING:"))
    results = json.loads(out[out.index("{"):])["tests"][0]["Results"]
    flat = [r for it in results for r in (it if isinstance(it, list) else [it])]
    mb_s = {p: statistics.median(r["bwMiB"] * 1.048576 for r in flat if r["access"] == p) for p in ("write", "read")}
    return mb_s["write"], mb_s["read"]


def run_formatbench(n, fb, plugins, fmt, layout, dtype, block, transfer, iterations, folder, streamed=False):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    study = os.path.join(folder, "study.yaml")
    chunk = "whole" if transfer == block else str(transfer)
    open(study, "w").write(STUDY.format(dtype=dtype, count=block // {"u8": 1, "f64": 8}[dtype], format=fmt.replace("TRANSFER", str(transfer)), chunk=chunk,
                                        repeat=iterations,
                                        layout=layout))
    out = os.path.join(folder, "r.json")
    # streamed: a memory limit below the block, so the host writes and reads
    # each transfer through one buffer of the transfer's size, as IOR does.
    limit = ["--memory-limit", str(transfer)] if streamed else []
    subprocess.run(mpirun(n) + [fb, "--plugin-path", plugins, "run", study, "--json", out, "--no-console",
                                "--quiet", "--directory", folder] + limit, check=True,
                   stdout=subprocess.DEVNULL)
    (c,) = json.load(open(out))["cases"]
    if c["status"] != "ok":
        sys.exit(f"ior-compare.py: formatbench case {c['format']['label']} ended {c['status']}: {c.get('error')}")
    payload = c["payload_bytes"]
    assert payload == n * block, (payload, n, block)
    return tuple(payload / 1e6 / statistics.median(s[p]["wall_s"] for s in c["samples"]) for p in ("write", "read"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", nargs="?", default="build")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--ior-src", help="IOR's source tarball, built once into --ior-build")
    src.add_argument("--ior", help="an IOR binary already built")
    ap.add_argument("--ior-build", default="/var/tmp/formatbench-ior")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--block", default="16MiB", help="bytes per rank (a multiple of 1 MiB)")
    ap.add_argument("--iterations", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--work", default=None, help="folder for the files (default: a new one under /var/tmp)")
    ap.add_argument("--pairs", default="posix,mpiio,hdf5,ncmpi",  # ncmpi-f64 when asked
                    help="the pairs to run, by the first word of their name (comma-separated)")
    a = ap.parse_args()
    if os.geteuid() == 0:
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    block = size(a.block)
    if block % MIB:
        sys.exit(f"ior-compare.py: --block {a.block} is not a multiple of 1 MiB")
    fb = os.path.abspath(os.path.join(a.build, "core", "formatbench"))
    plugins = os.path.abspath(os.path.join(a.build, "plugins"))
    if not os.access(fb, os.X_OK):
        sys.exit(f"ior-compare.py: {fb} not built (ninja -C {a.build})")
    ior = os.path.abspath(a.ior) if a.ior else build_ior(a.ior_src, a.ior_build)
    backends = ior_backends(ior)
    work = a.work or tempfile.mkdtemp(prefix="fb-ior-compare-", dir="/var/tmp")

    def missing(pair):
        name, args, fmt, _, plugin, _ = pair
        if args[1] not in backends:
            return f"IOR built without -a {args[1]}"
        if fmt is None:
            return "formatbench has no plugin for it"
        if not os.path.exists(os.path.join(plugins, f"libfb_{plugin}.so")):
            return f"plugin {plugin} not built in {plugins}"
        return None

    print(f"# IOR {ior} (backends: {', '.join(sorted(backends))}); formatbench {fb}")
    print(f"# {block // MIB} MiB per rank, {a.iterations} iterations per run, {a.rounds} rounds; "
          f"MB/s = 10^6 bytes/s; ratio = formatbench / IOR (> 1: formatbench faster)")
    for n in (int(x) for x in a.ranks.split(",")):
        print(f"\nN = {n}")
        print(f"  {'pair':22} {'transfer':>9} {'phase':6} {'formatbench':>11} {'IOR':>8} {'ratio':>6}  per round")
        for pair in (p for p in PAIRS if p[0].split()[0] in a.pairs.split(",")):
            name, args, fmt, layout, _, dtype = pair
            why = missing(pair)
            if why:
                print(f"  {name:22} not measured: {why}")
                continue
            for transfer in (block, MIB):
                # With transfers smaller than the block, formatbench runs twice
                # a round: holding the whole block (its default: what it
                # verifies is what it read) and streamed through one buffer.
                kinds = ["fb"] if transfer == block else ["fb", "fb-streamed"]
                rows = {(kind, phase): [] for kind in kinds for phase in ("write", "read")}
                for k in range(a.rounds):
                    order = kinds + ["ior"] if k % 2 == 0 else ["ior"] + kinds
                    got = {}
                    for who in order:
                        folder = os.path.join(work, who)
                        if who == "ior":
                            got[who] = run_ior(n, ior, args, block, transfer, a.iterations, folder)
                        else:
                            got[who] = run_formatbench(n, fb, plugins, fmt, layout, dtype, block, transfer, a.iterations,
                                                       folder, streamed=who == "fb-streamed")
                    for kind in kinds:
                        for i, phase in enumerate(("write", "read")):
                            rows[(kind, phase)].append((got[kind][i], got["ior"][i]))
                for (kind, phase), v in rows.items():
                    t = "block" if transfer == block else "1MiB" + (" str" if kind == "fb-streamed" else "")
                    ratios = [f / i for f, i in v]
                    print(f"  {name:22} {t:>9} {phase:6} {statistics.median(f for f, _ in v):11.0f} "
                          f"{statistics.median(i for _, i in v):8.0f} {statistics.median(ratios):6.2f}  "
                          + " ".join(f"{r:.2f}" for r in ratios), flush=True)
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

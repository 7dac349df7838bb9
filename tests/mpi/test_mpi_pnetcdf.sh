#!/usr/bin/env bash
# The pnetcdf plugin (plugins/pnetcdf) under Open MPI's mpirun (two ranks,
# --oversubscribe). Checked against references from outside the plugin:
# the serial netcdf plugin's file of one process (netCDF-C) for the same
# values, both read with netCDF4-python and compared array against array,
# the file format as netCDF4-python and ncdump -k report it, ncdump's text
# of both files; raw's file of one process for i64 (which the netcdf
# plugin does not offer), read with numpy; call counts worked out by hand;
# damaged files made with head and the messages they must give. Every
# mpirun is bounded by `timeout`: a collective call left unmatched would
# hang, and the hang fails the test.
#
# SKIP (77) only when meson did not build the plugin (FB_PNETCDF_BUILT is
# not true: no libpnetcdf-dev, no MPI, or -Dpnetcdf=disabled) or mpirun is
# missing; a plugin built but not in FB_PLUGIN_DIR, or a missing reference
# tool, fails.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../cli/lib.sh"
: "${FB_PLUGIN_DIR:?}" "${FB_HINT_SHIM:?}"
if [ "${FB_PNETCDF_BUILT:-}" != true ]; then
  echo "SKIP: the pnetcdf plugin was not built (needs libpnetcdf-dev and MPI; see meson's summary)"
  exit 77
fi
[ -f "$FB_PLUGIN_DIR/libfb_pnetcdf.so" ] || fail "meson built the pnetcdf plugin, but $FB_PLUGIN_DIR/libfb_pnetcdf.so is missing"
[ "${FB_NETCDF_BUILT:-}" = true ] && [ -f "$FB_PLUGIN_DIR/libfb_netcdf.so" ] ||
  fail "the reference files need the serial netcdf plugin (libnetcdf-dev), which was not built"
mpirun=$(command -v mpirun || true)
[ -n "$mpirun" ] || { echo "SKIP: mpirun not installed (apt-get install openmpi-bin)"; exit 77; }
PY=/usr/bin/python3
$PY -c 'import netCDF4, numpy' 2>/dev/null || fail "netCDF4-python is missing (apt-get install python3-netcdf4)"
command -v ncdump >/dev/null || fail "ncdump is missing (apt-get install netcdf-bin)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { timeout 120 "$mpirun" --oversubscribe -np "$@"; }
cd "$work"
host=$(ompi_info --version | sed -n 's/^Open MPI v\([0-9.]*\).*/\1/p' | head -1)
[ -n "$host" ] || fail "ompi_info --version names no Open MPI version"

# ---- without mpirun: the host refuses a study with pnetcdf before anything
# runs, and the plugin itself refuses to open a file without MPI (as a
# from_file data set, whose plugin the host does not check)
cat > alone.yaml <<'YAML'
name: alone
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw, pnetcdf]
YAML
mkdir -p alone
expect_status 2 "$FB" run alone.yaml --directory alone --json alone.json
expect_in "$work/err" "format 'pnetcdf': plugin 'pnetcdf' calls MPI itself (formatbench.mpi/1, built against Open MPI $host)"
expect_in "$work/err" "run the study under mpirun"
[ ! -e alone.json ] && [ -z "$(ls alone)" ] || fail "something ran before pnetcdf was refused"
# i64 in CDF-1 or CDF-2 is refused at plan (formatbench.check-options/1),
# naming the dtype, the format and the one to use.
cat > i64-classic.yaml <<'YAML'
name: i64-classic
datasets: [{dtype: i64, count: 1000}]
formats: [{label: cdf2, plugin: pnetcdf, options: {format: 64bit_offset}}]
YAML
expect_status 2 "$FB" plan i64-classic.yaml
expect_in "$work/err" "pnetcdf: dtype i64 needs netCDF's int64, which format 64bit_offset (CDF-2) does not have; use format 64bit_data (CDF-5), which has it"
echo "no mpirun: a study with pnetcdf is refused before it runs; i64 in CDF-2 is refused at plan"

# ---- the single-process references: the serial netcdf plugin's files of
# 2n values (every format, f64 i32 u8) and raw's file of 2n i64
n=10007
n2=$((2 * n))
datasets="
  - {name: f64, dtype: f64, count: COUNT, seed: 7}
  - {name: i32, dtype: i32, count: COUNT, distribution: integers, low: -1000000, high: 1000000, seed: 3}
  - {name: u8, dtype: u8, count: COUNT, seed: 5}"
cat > one.yaml <<YAML
name: one
defaults: {repeat: 1, warmup: 0}
datasets: ${datasets//COUNT/$n2}
formats:
  - {label: nc, plugin: netcdf, options: {format: [classic, 64bit_offset, 64bit_data]}}
  - {label: nc4, plugin: netcdf, options: {format: netcdf4}}
keep_files: true
YAML
cat > one-i64.yaml <<YAML
name: one-i64
defaults: {repeat: 1, warmup: 0}
datasets: [{name: i64, dtype: i64, count: $((2 * n)), distribution: integers, low: -9000000000000, high: 9000000000000, seed: 11}]
formats: [raw]
keep_files: true
YAML
mkdir -p one one-i64
expect_status 0 "$FB" run one.yaml --directory one --json one.json --no-console
expect_status 0 "$FB" run one-i64.yaml --directory one-i64 --json one-i64.json --no-console

# ---- the shared file of 2 ranks x n values, independent, collective, and
# collective with host chunks that cut across the pieces (chunks of 3000
# bytes, pieces of 4000: staged pieces); n = 10007 is no multiple of a
# piece (500 f64, 1000 i32, 4000 u8), so each part ends with a short one
cat > two.yaml <<YAML
name: two
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: ${datasets//COUNT/$n}
formats:
  - {label: ind, plugin: pnetcdf, options: {transfer: independent, format: [classic, 64bit_offset, 64bit_data]}}
  - {label: coll, plugin: pnetcdf, options: {piece_size: 4000, format: [classic, 64bit_offset, 64bit_data]}}
  - {label: coll-chunked, plugin: pnetcdf, chunk: 3000, options: {piece_size: 4000, format: [classic, 64bit_offset, 64bit_data]}}
  - {label: fpr, plugin: pnetcdf, layout: file_per_rank, options: {piece_size: 4000}}
keep_files: true
YAML
cat > two-i64.yaml <<YAML
name: two-i64
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{name: i64, dtype: i64, count: $n, distribution: integers, low: -9000000000000, high: 9000000000000, seed: 11}]
formats:
  - {label: ind, plugin: pnetcdf, options: {transfer: independent}}
  - {label: coll, plugin: pnetcdf, options: {piece_size: 4000}}
keep_files: true
YAML
mkdir -p two two-i64
expect_status 0 mpi 2 "$FB" run two.yaml --directory two --json two.json --no-console
expect_status 0 mpi 2 "$FB" run two-i64.yaml --directory two-i64 --json two-i64.json --no-console
$PY - "$n" one.json two.json one-i64.json two-i64.json <<'PY' || fail "shared file against the references"
import glob, json, subprocess, sys
import netCDF4, numpy as np

n = int(sys.argv[1])
one, two, one64, two64 = (json.load(open(p)) for p in sys.argv[2:6])
kinds = {"classic": ("NETCDF3_CLASSIC", "classic"), "64bit_offset": ("NETCDF3_64BIT_OFFSET", "64-bit offset"),
         "64bit_data": ("NETCDF3_64BIT_DATA", "cdf5")}

def files(folder, case):
    return sorted(glob.glob("%s/case-%04d-*" % (folder, case["index"])))

def load(p):
    with netCDF4.Dataset(p) as f:
        v = f["data"]
        v.set_auto_mask(False)
        return (f.file_format, {k: len(d) for k, d in f.dimensions.items()}, list(f.variables),
                v.datatype.str, v.dimensions, {a: v.getncattr(a) for a in v.ncattrs()}, np.array(v[:]))

def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()

def kind(p):
    return subprocess.run(["ncdump", "-k", p], capture_output=True, text=True, check=True).stdout.strip()

for c in two["cases"] + two64["cases"]:
    assert c["status"] == "ok", (c["format"]["label"], c["error"])
    assert c["verify"]["compared"] == 2 * n and c["verify"]["mismatches"] == 0, c["verify"]
ref = {}
for c in one["cases"]:
    assert c["status"] == "ok", c["error"]
    (p,) = files("one", c)
    ref[(c["dataset"]["name"], c["format"]["options"]["format"])] = p
checked = 0
for c in two["cases"]:
    label, name = c["format"]["label"], c["dataset"]["name"]
    fmt = c["format"]["options"].get("format", "64bit_data")
    expect = load(ref[(name, fmt)])
    assert expect[0] == kinds[fmt][0] and expect[1] == {"index": 2 * n}, expect[:2]
    if label == "fpr":  # FILE.0 and FILE.1: n values each, the halves
        ps = files("two", c)
        assert [p[-2:] for p in ps] == [".0", ".1"], ps
        halves = [load(p) for p in ps]
        for h in halves:
            assert h[:6] == (expect[0], {"index": n}) + expect[2:6], (h[:6], expect[:6])
        assert same(np.concatenate([h[6] for h in halves]), expect[6]), "file_per_rank halves differ"
        checked += 1
        continue
    (p,) = files("two", c)
    got = load(p)
    # the format, one dimension index of 2n, one variable data of the same
    # type and attributes (u8: _Unsigned in CDF-1/2), the same values
    assert got[:6] == expect[:6], (p, got[:6], expect[:6])
    assert same(got[6], expect[6]), (p, "values differ from the netcdf plugin's")
    assert kind(p) == kinds[fmt][1], (p, kind(p))
    checked += 1
assert checked == 30, checked
# i64: CDF-5's int64, the values of raw's file of 2n i64
(rawfile,) = files("one-i64", one64["cases"][0])
expect = np.fromfile(rawfile, dtype=np.int64)
assert expect.size == 2 * n
for c in two64["cases"]:
    (p,) = files("two-i64", c)
    got = load(p)
    assert got[:5] == ("NETCDF3_64BIT_DATA", {"index": 2 * n}, ["data"], "<i8", ("index",)), got[:5]
    assert same(got[6], expect), (p, "i64 values differ from raw's")
    assert kind(p) == "cdf5"
print("shared file = the netcdf plugin's file of 2n values (30 files, 3 formats, f64 i32 u8); i64 = raw's")
PY
# ncdump's text of each shared file is the netcdf plugin's (header and
# every value; the first line names the file)
for i in $($PY -c 'import json,sys; print(" ".join(str(c["index"]) for c in json.load(open(sys.argv[1]))["cases"] if c["format"]["label"] == "coll"))' two.json); do
  p=$(ls two/case-$(printf %04d "$i")-*)
  name=$($PY -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"][int(sys.argv[2])]; print(c["dataset"]["name"], c["format"]["options"]["format"])' two.json "$i")
  r=$($PY -c 'import json,sys,glob
for c in json.load(open(sys.argv[1]))["cases"]:
    if (c["dataset"]["name"], c["format"]["options"]["format"]) == tuple(sys.argv[2:4]): print(glob.glob("one/case-%04d-*" % c["index"])[0])' one.json $name)
  diff <(ncdump -p 9,17 "$p" | sed 1d) <(ncdump -p 9,17 "$r" | sed 1d) >/dev/null ||
    fail "ncdump of $p ($name) differs from the netcdf plugin's $r"
done
# independent and collective (whole or staged pieces) write the same bytes
$PY - two.json <<'PY' > same.txt || fail "grouping the files"
import json, sys
groups = {}
for c in json.load(open(sys.argv[1]))["cases"]:
    if c["format"]["label"] != "fpr":
        groups.setdefault((c["dataset"]["name"], c["format"]["options"]["format"]), []).append(c["index"])
for k, v in sorted(groups.items()):
    assert len(v) == 3, (k, v)
    print(" ".join("%04d" % i for i in v))
PY
[ "$(wc -l < same.txt)" = 9 ] || fail "not 9 groups of independent and collective files"
while read -r a b c; do
  cmp two/case-"$a"-pnetcdf.nc two/case-"$b"-pnetcdf.nc || fail "independent and collective files differ ($a $b)"
  cmp two/case-"$a"-pnetcdf.nc two/case-"$c"-pnetcdf.nc || fail "independent and staged collective files differ ($a $c)"
done < same.txt
cmp two-i64/case-0000-pnetcdf.nc two-i64/case-0001-pnetcdf.nc || fail "i64: independent and collective files differ"
echo "shared_file (independent, collective, staged; CDF-1, -2, -5) = netcdf's file of 2n values; the three are byte-identical"

# ---- strong scaling, an uneven split, collective: rank 0 has 10001
# elements, rank 1 10000; pieces of 4000 bytes are 1000 i32 (11 and 10
# pieces) or 500 f64 (21 and 20). Every rank makes the larger count per
# phase: 22 and 42 calls over the ranks, 1 of count 0 (rank 1 writing; rank
# 0 reading rank 1's slice with read_rank_shift 1).
cat > strong.yaml <<'YAML'
name: strong
defaults: {repeat: 1, warmup: 0, scaling: strong, read_rank_shift: 1, layout: shared_file}
datasets:
  - {name: i32, dtype: i32, count: 20001, distribution: integers, low: -1000000, high: 1000000, seed: 3}
  - {name: f64, dtype: f64, count: 20001, seed: 7}
formats:
  - {label: coll, plugin: pnetcdf, options: {piece_size: 4000}}
keep_files: true
YAML
mkdir -p strong1
expect_status 0 "$FB" run strong.yaml --directory strong1 --set 'formats=[{label: nc, plugin: netcdf, options: {format: 64bit_data}}]' \
  --set defaults.layout=file_per_rank --json strong1.json --no-console
# Open MPI's default collective component for two ranks on one machine
# does not wait for the other rank, so an unmatched call could pass unseen:
# also with components that do (OMPIO's two_phase, ROMIO).
for mca in "" "--mca fcoll two_phase" "--mca io romio321"; do
  rm -rf strong strong.json && mkdir strong
  # shellcheck disable=SC2086
  expect_status 0 mpi 2 $mca "$FB" run strong.yaml --directory strong --json strong.json --no-console
  $PY - strong.json strong1.json <<'PY' || fail "strong scaling, collective ($mca)"
import json, sys
import netCDF4, numpy as np
calls = {"i32": 22, "f64": 42}
ref = {c["dataset"]["name"]: c["index"] for c in json.load(open(sys.argv[2]))["cases"]}
for c in json.load(open(sys.argv[1]))["cases"]:
    name = c["dataset"]["name"]
    assert c["status"] == "ok", c["error"]
    assert c["verify"]["compared"] == 20001 and c["verify"]["mismatches"] == 0, c["verify"]
    for phase in ("write", "read"):
        m = c["samples"][0][phase]["metrics"]
        assert m["collective_calls"] == calls[name] and m["padding_calls"] == 1, (name, phase, m)
    arrays = []
    for p in ("strong/case-%04d-pnetcdf.nc" % c["index"], "strong1/case-%04d-netcdf.nc" % ref[name]):
        with netCDF4.Dataset(p) as f:
            arrays.append(np.array(f["data"][:]))
    assert arrays[0].dtype == arrays[1].dtype and arrays[0].tobytes() == arrays[1].tobytes(), name
print("strong: 11 + 11 and 21 + 21 collective calls per phase, one of count 0, the netcdf plugin's values")
PY
done
echo "strong scaling, uneven split (default, two_phase, ROMIO): no deadlock, the values are netcdf's"

# ---- hints: one the MPI library ignores or changes fails the case, named;
# dropped on one rank only (rank 1 under the shim), the open fails on both
# ranks and neither waits in a collective call
preload=$FB_HINT_SHIM
asan=$(ldd "$FB" | awk '/libasan/ {print $3}')
[ -z "$asan" ] || preload="$asan:$preload"
cat > hints.yaml <<'YAML'
name: hints
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{dtype: f64, count: 1000}]
formats:
  - {label: striped, plugin: pnetcdf, options: {striping_factor: 4}}
  - {label: aggregators, plugin: pnetcdf, options: {cb_nodes: 2, transfer: independent}}
YAML
expect_status 0 mpi 2 "$FB" run hints.yaml --json hints-ok.json --no-console
expect_status 1 mpi 2 -x LD_PRELOAD="$preload" -x FB_SHIM_DROP_HINT=striping_factor \
  -x FB_SHIM_CHANGE_HINT=cb_nodes=1 "$FB" run hints.yaml --json hints.json --no-console
expect_status 1 timeout 120 "$mpirun" --oversubscribe -np 1 "$FB" run hints.yaml --json hints-one.json --no-console : \
  -np 1 env LD_PRELOAD="$preload" FB_SHIM_DROP_HINT=striping_factor "$FB" run hints.yaml --json hints-one.json --no-console
$PY - hints-ok.json hints.json hints-one.json <<'PY' || fail "hints"
import json, sys
ok, bad, one = ({c["format"]["label"]: c for c in json.load(open(p))["cases"]} for p in sys.argv[1:4])
assert all(c["status"] == "ok" for c in ok.values()), [(c["format"]["label"], c["error"]) for c in ok.values()]
e = bad["striped"]["error"]
assert bad["striped"]["status"] == "failed" and "pnetcdf: hint 'striping_factor' (4) was ignored" in e, e
e = bad["aggregators"]["error"]
assert bad["aggregators"]["status"] == "failed" and "pnetcdf: hint 'cb_nodes' (2) was changed to '1'" in e, e
e = one["striped"]["error"]
assert one["striped"]["status"] == "failed" and "hint 'striping_factor' (4) was ignored" in e, e
assert "pnetcdf: rank 1 of the communicator failed to open" in e and "so this rank's open was undone" in e, e
assert one["striped"]["error"].startswith("rank 0: "), e  # the host reports rank 0's error: rank 1's reason
assert one["aggregators"]["status"] == "ok", one["aggregators"]["error"]
print("hints: an ignored and a changed hint fail their case, named; one rank's failure fails both")
PY
echo "hints: checked after the open; one rank's failure fails the open on every rank, no hang"

# ---- reading: the netcdf plugin's file (netCDF-C) as a from_file data set
# read by pnetcdf, written again with raw: raw's file of the same values
f64ref=$($PY -c 'import json,sys,glob
for c in json.load(open(sys.argv[1]))["cases"]:
    if (c["dataset"]["name"], c["format"]["options"]["format"]) == ("f64", "64bit_data"): print(glob.glob("one/case-%04d-*" % c["index"])[0])' one.json)
i32ref=$($PY -c 'import json,sys,glob
for c in json.load(open(sys.argv[1]))["cases"]:
    if (c["dataset"]["name"], c["format"]["options"]["format"]) == ("i32", "classic"): print(glob.glob("one/case-%04d-*" % c["index"])[0])' one.json)
nc4ref=$(ls one/case-*-netcdf.nc | tail -1)
$PY -c 'import netCDF4,sys; assert netCDF4.Dataset(sys.argv[1]).file_format == "NETCDF4"' "$nc4ref" || fail "$nc4ref is not netCDF-4"
from_file() { # from_file NAME PATH DTYPE COUNT [OPTIONS]: a study reading PATH with pnetcdf
  cat > "$1.yaml" <<YAML
name: $1
isolation: none
defaults: {repeat: 1, warmup: 0}
datasets: [{name: $1, from_file: {path: $2, plugin: pnetcdf, options: {${5:-}}}, dtype: $3, count: $4}]
formats: [raw]
keep_files: true
YAML
}
from_file interop "$PWD/$f64ref" f64 $((2 * n))
mkdir -p interop gen
expect_status 0 mpi 1 "$FB" run interop.yaml --directory interop --json interop.json --no-console
expect_status 0 "$FB" run one.yaml --directory gen --set 'datasets=[{dtype: f64, count: 20014, seed: 7}]' \
  --set 'formats=[raw]' --json gen.json --no-console
cmp interop/case-0000-raw.raw gen/case-0000-raw.raw || fail "pnetcdf read the netcdf plugin's file differently"
echo "reading: the netcdf plugin's CDF-5 file read by pnetcdf gives raw's file of the same values"

# ---- reading damaged or wrong files fails at open, with a message naming
# the file and what is wrong (under mpirun -np 1; the from_file data set
# fails the case)
size=$(stat -c %s "$f64ref")
head -c $((size - 8)) "$f64ref" > short.nc
head -c 40 "$f64ref" > header.nc
: > empty.nc
bad() { # bad NAME PATH DTYPE COUNT OPTIONS TEXT...: reading fails with each TEXT
  local name=$1 path=$2 dtype=$3 count=$4 options=$5
  shift 5
  from_file "$name" "$path" "$dtype" "$count" "$options"
  got=0
  timeout 120 "$mpirun" -np 1 "$FB" run "$name.yaml" --json "$name.json" --no-console >"$name.out" 2>"$name.err" || got=$?
  [ "$got" != 0 ] && [ "$got" != 124 ] || { cat "$name.out" "$name.err"; fail "$name: reading did not fail ($got)"; }
  for text in "$@"; do
    grep -qF -- "$text" "$name.out" "$name.err" $([ -e "$name.json" ] && echo "$name.json") ||
      { cat "$name.out" "$name.err"; fail "$name: '$text' not in the error"; }
  done
}
bad short "$PWD/short.nc" f64 $((2 * n)) "" \
  "failed (truncated input): pnetcdf: '$PWD/short.nc' is truncated: its variable 'data' ends at byte $size, the file has $((size - 8))"
bad header "$PWD/header.nc" f64 $((2 * n)) "" \
  "failed (corrupt input): pnetcdf: the classic netCDF header of '$PWD/header.nc' is damaged: the header runs past the end of the file"
bad empty "$PWD/empty.nc" f64 10 "" "failed (truncated input): pnetcdf: '$PWD/empty.nc' is empty (0 bytes), not a netCDF file"
bad type "$PWD/$i32ref" f64 $((2 * n)) "" \
  "failed (corrupt input): pnetcdf: variable 'data' of '$PWD/$i32ref' holds int (32-bit), not f64; read it with the dtype it holds"
bad count "$PWD/$f64ref" f64 30000 "" \
  "failed (truncated input): pnetcdf: variable 'data' of '$PWD/$f64ref' holds $((2 * n)) elements, 30000 were expected"
bad variable "$PWD/$f64ref" f64 $((2 * n)) "variable: temp" \
  "failed (corrupt input): pnetcdf: '$PWD/$f64ref' has no variable 'temp'; its variables are data: name one with the option variable"
bad netcdf4 "$PWD/$nc4ref" f64 $((2 * n)) "" \
  "failed (unsupported): pnetcdf: '$PWD/$nc4ref' is a netCDF-4 (HDF5) file; PnetCDF reads the classic formats only" \
  "read it with the netcdf plugin"
# Without MPI the plugin itself refuses (the host checks formats, not a
# from_file data set's plugin).
from_file nompi "$PWD/$f64ref" f64 $((2 * n))
got=0
"$FB" run nompi.yaml --json nompi.json --no-console >nompi.out 2>nompi.err || got=$?
[ "$got" != 0 ] || fail "pnetcdf opened a file without MPI"
grep -qF "failed (unsupported): pnetcdf: '$PWD/$f64ref': MPI is not initialised in this process; this plugin runs only on the ranks of an MPI job" \
  nompi.out nompi.err $([ -e nompi.json ] && echo nompi.json) || { cat nompi.out nompi.err; fail "no MPI: not the plugin's refusal"; }
echo "reading: truncated data, a cut header, an empty file, another type, another count, no such variable, netCDF-4 and no MPI fail, named"

echo "pnetcdf: ok"

#!/usr/bin/env bash
# The hdf5_mpio plugin (parallel HDF5) under Open MPI's mpirun (two ranks,
# --oversubscribe). Checked against references from outside the code under
# test: h5py (Debian's serial h5py) reads the shared file, and its values
# must be those of the serial hdf5 plugin's file of the same values written
# by one process without MPI; collective call counts worked out by hand.
# Every mpirun is bounded by `timeout`: a collective call left unmatched
# would hang, and the hang fails the test.
here=$(cd "$(dirname "$0")" && pwd)
mpi_timeout=120
source "$here/mpi_lib.sh"
: "${FB_PLUGIN_DIR:?}"
cd "$work"
[ -f "$FB_PLUGIN_DIR/libfb_hdf5_mpio.so" ] || fail "the hdf5_mpio plugin was not built in $FB_PLUGIN_DIR"
$PY -c 'import h5py' || fail "h5py is missing (apt-get install python3-h5py)"

# ---- without mpirun it is refused before anything runs
cat > alone.yaml <<'YAML'
name: alone
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw, hdf5_mpio]
YAML
mkdir -p alone
expect_status 2 "$FB" run alone.yaml --directory alone --json alone.json
expect_in "$work/err" "format 'hdf5_mpio': plugin 'hdf5_mpio' calls MPI itself (formatbench.mpi/1"
expect_in "$work/err" "run the study under mpirun"
[ ! -e alone.json ] && [ -z "$(ls alone)" ] || fail "something ran before hdf5_mpio was refused"
echo "no mpirun: hdf5_mpio refused before the first case"

# ---- two ranks x n values in one file: the values of one process's 2n,
# independent and collective, in pieces or in the host's chunks; and the
# serial hdf5 plugin beside it in the same processes (each links its own
# HDF5 library).
cat > shared.yaml <<'YAML'
name: shared
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{dtype: f64, count: 100003, seed: 7}]
formats:
  - {label: ind, plugin: hdf5_mpio}
  - {label: coll, plugin: hdf5_mpio, options: {transfer: collective, piece_size: 65536}}
  # chunks of 40000 bytes against pieces of 65536: staged pieces
  - {label: coll-chunked, plugin: hdf5_mpio, chunk: 40000, options: {transfer: collective, piece_size: 65536}}
  - {label: fpr-coll, plugin: hdf5_mpio, layout: file_per_rank, options: {transfer: collective}}
  - {label: serial, plugin: hdf5, layout: file_per_rank}
keep_files: true
YAML
mkdir -p two one
expect_status 0 mpi 2 "$FB" run shared.yaml --directory two --json two.json --no-console
cat > one.yaml <<'YAML'
name: one
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 200006, seed: 7}]
formats: [hdf5]
keep_files: true
YAML
expect_status 0 "$FB" run one.yaml --directory one --json one.json --no-console
$PY - two.json one/case-0000-hdf5.h5 two <<'PY' || fail "shared: values"
import json, sys, h5py, numpy as np
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    assert c["status"] == "ok", (c["format"]["label"], c["error"])
    assert c["verify"]["compared"] == 200006 and c["verify"]["mismatches"] == 0, c["verify"]
with h5py.File(sys.argv[2], "r") as f:
    ref = f["data"][...]
assert ref.dtype == np.dtype("<f8") and ref.shape == (200006,), (ref.dtype, ref.shape)
for i in (0, 1, 2):
    with h5py.File("%s/case-000%d-hdf5_mpio.h5" % (sys.argv[3], i), "r") as f:
        ds = f["data"]
        assert ds.dtype == np.dtype("<f8") and ds.shape == (200006,) and ds.chunks is None, (ds.dtype, ds.shape, ds.chunks)
        assert np.array_equal(ds[...].view("u8"), ref.view("u8")), "case %d: values differ" % i
halves = []
for r in (0, 1):
    with h5py.File("%s/case-0003-hdf5_mpio.h5.%d" % (sys.argv[3], r), "r") as f:
        halves.append(f["data"][...])
assert np.array_equal(np.concatenate(halves).view("u8"), ref.view("u8")), "file_per_rank halves differ"
print("h5py: shared files (independent, collective, chunked) hold the serial file's 200006 values; file_per_rank its halves")
PY
# h5dump, HDF5's own tool, sees one contiguous little-endian float64
# dataset of 200006 values written with fill time "never".
h5dump -H -p -d /data two/case-0000-hdf5_mpio.h5 > h5dump.txt || fail "h5dump cannot read the shared file"
for want in 'DATATYPE  H5T_IEEE_F64LE' 'SIMPLE { ( 200006 ) / ( 200006 ) }' CONTIGUOUS H5D_FILL_TIME_NEVER; do
  grep -qF "$want" h5dump.txt || { cat h5dump.txt; fail "h5dump: no '$want'"; }
done
# Independent and collective transfers make the same file, byte for byte
# (the same metadata, written by HDF5 in the same place).
for i in 1 2; do
  cmp two/case-0000-hdf5_mpio.h5 "two/case-000$i-hdf5_mpio.h5" || fail "case $i's file differs from the independent one's"
done
# The same values written again a second later make the same file: HDF5
# keeps no modification times in it (they made the cmp above fail whenever
# the cases' writes fell in different seconds).
sleep 1.1
mkdir -p later
expect_status 0 mpi 2 "$FB" run shared.yaml --directory later --set 'formats=[hdf5_mpio]' --no-console
cmp two/case-0000-hdf5_mpio.h5 later/case-0000-hdf5_mpio.h5 || fail "the same values written a second later make a different file"
echo "shared_file = the serial hdf5 plugin's values of 2n; independent = collective, byte for byte, and again a second later; the serial plugin ran beside it"

# ---- strong scaling, an uneven split, collective: rank 0 has 50001 i32,
# rank 1 50000; pieces of 40000 bytes = 10000 elements: 6 and 5 pieces, so
# both make 6 calls per phase, 12 over the ranks, one selecting nothing
# (rank 1 writing; rank 0 reading rank 1's slice with read_rank_shift 1).
# Also under ROMIO, whose collective calls wait for every rank.
cat > strong.yaml <<'YAML'
name: strong
defaults: {repeat: 1, warmup: 0, scaling: strong, read_rank_shift: 1, layout: shared_file}
datasets: [{dtype: i32, count: 100001, distribution: integers, low: -1000000, high: 1000000, seed: 3}]
formats:
  - {label: coll, plugin: hdf5_mpio, options: {transfer: collective, piece_size: 40000}}
  - {label: ind, plugin: hdf5_mpio}
keep_files: true
YAML
mkdir -p strong1
expect_status 0 "$FB" run strong.yaml --directory strong1 --set 'formats=[hdf5]' --set defaults.layout=file_per_rank \
  --json strong1.json --no-console
for mca in "" "--mca io romio321"; do
rm -rf strong strong.json && mkdir strong
# shellcheck disable=SC2086
expect_status 0 mpi 2 $mca "$FB" run strong.yaml --directory strong --json strong.json --no-console
$PY - strong.json strong1/case-0000-hdf5.h5 strong <<'PY' || fail "strong scaling, collective ($mca)"
import json, sys, h5py, numpy as np
coll, ind = json.load(open(sys.argv[1]))["cases"]
for c in (coll, ind):
    assert c["status"] == "ok", c["error"]
    assert c["verify"]["compared"] == 100001 and c["verify"]["mismatches"] == 0, c["verify"]
for phase in ("write", "read"):
    m = coll["samples"][0][phase]["metrics"]
    assert m["collective_calls"] == 12 and m["padding_calls"] == 1, (phase, m)
with h5py.File(sys.argv[2], "r") as f:
    ref = f["data"][...]
assert ref.dtype == np.dtype("<i4") and ref.shape == (100001,)
for i in (0, 1):
    with h5py.File("%s/case-000%d-hdf5_mpio.h5" % (sys.argv[3], i), "r") as f:
        got = f["data"][...]
    assert got.dtype == np.dtype("<i4") and np.array_equal(got, ref), "case %d" % i
print("strong: 6 collective calls per rank and phase, one selecting nothing; h5py reads the serial file's values")
PY
done
echo "strong scaling, uneven split (default, ROMIO): no deadlock, the values are the serial file's"

# ---- what it refuses: a shape (1-D only), named with what to do instead
cat > shaped.yaml <<'YAML'
name: shaped
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{dtype: f64, shape: [10, 10]}]
formats: [hdf5_mpio]
YAML
expect_status 1 mpi 2 "$FB" run shaped.yaml --json shaped.json --no-console
$PY - shaped.json <<'PY' || fail "a shape"
import json, sys
(c,) = json.load(open(sys.argv[1]))["cases"]
assert c["status"] == "failed" and "hdf5_mpio:" in c["error"] and "1-D datasets only" in c["error"], c["error"]
print("a shape: the case fails, naming the plugin and the hdf5 plugin instead")
PY
echo "hdf5_mpio: ok"

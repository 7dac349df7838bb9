#!/usr/bin/env bash
# The plugins that call MPI on a disk that fills up during the write: two
# ranks write one shared file of 2 x 800000 bytes into a 1 MiB tmpfs that
# holds 600 KiB already, so neither rank's part fits. mpiio, pnetcdf and
# hdf5_mpio, independent and collective, must each fail in the WRITE phase
# (never at the read, with "truncated input") with a message that says the
# disk is full and to free disk space, and the case's error must keep each
# rank's message (rank 0's part starts at byte 0, rank 1's at byte 800000:
# 100000 f64 values per rank, worked out by hand). The same study in a
# folder with room passes. Mounting the tmpfs needs root, as in
# cli/test_full_disk.sh: without it the test reports SKIP (exit 77).
here=$(cd "$(dirname "$0")" && pwd)
mpi_timeout=180
source "$here/mpi_lib.sh"
: "${FB_PLUGIN_DIR:?}" "${FB_PNETCDF_BUILT:?}" "${FB_HDF5_MPIO_BUILT:?}"
cd "$work"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: mounting a small tmpfs needs root"
  exit 77
fi
mkdir small room
if ! mount -t tmpfs -o size=1m tmpfs small 2>mount.err; then
  echo "SKIP: cannot mount a tmpfs here: $(cat mount.err)"
  exit 77
fi
trap 'umount "$work/small" 2>/dev/null || true; rm -rf "$work"' EXIT
head -c 600k /dev/zero > small/filler

# The plugins meson built; each one built must be here.
formats='  - {label: mpiio-ind, plugin: mpiio}
  - {label: mpiio-coll, plugin: mpiio, options: {transfer: collective, piece_size: 65536}}'
[ -f "$FB_PLUGIN_DIR/libfb_mpiio.so" ] || fail "the mpiio plugin was not built in $FB_PLUGIN_DIR"
if [ "$FB_PNETCDF_BUILT" = true ]; then
  [ -f "$FB_PLUGIN_DIR/libfb_pnetcdf.so" ] || fail "the pnetcdf plugin was not built in $FB_PLUGIN_DIR"
  formats+='
  - {label: pnetcdf-ind, plugin: pnetcdf, options: {transfer: independent}}
  - {label: pnetcdf-coll, plugin: pnetcdf, options: {transfer: collective, piece_size: 65536}}'
else
  echo "note: pnetcdf was not built (no libpnetcdf-dev); its cases are left out"
fi
if [ "$FB_HDF5_MPIO_BUILT" = true ]; then
  [ -f "$FB_PLUGIN_DIR/libfb_hdf5_mpio.so" ] || fail "the hdf5_mpio plugin was not built in $FB_PLUGIN_DIR"
  formats+='
  - {label: hdf5_mpio-ind, plugin: hdf5_mpio}
  - {label: hdf5_mpio-coll, plugin: hdf5_mpio, options: {transfer: collective, piece_size: 65536}}'
else
  echo "note: hdf5_mpio was not built (no libhdf5-openmpi-dev); its cases are left out"
fi
cat > full.yaml <<YAML
name: full-disk
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{dtype: f64, count: 100000}]
formats:
$formats
YAML

# With room, every case passes (the checks below are the disk's doing).
expect_status 0 mpi 2 "$FB" run full.yaml --directory room --json room.json --no-console
$PY - room.json <<'PY' || fail "the study with room"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert cases and all(c["status"] == "ok" for c in cases), [(c["format"]["label"], c["error"]) for c in cases]
PY

expect_status 1 mpi 2 "$FB" run full.yaml --directory small --json full.json --no-console
$PY - full.json <<'PY' || fail "a full disk under MPI"
import json, re, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
for label, c in cases.items():
    e = c["error"]
    plugin = c["format"]["plugin"]
    assert c["status"] == "failed", (label, c["status"], e)
    # The write phase fails: the host names the write (or the close that
    # ends it), never the read that would follow.
    assert ("plugin '%s': write to '" % plugin in e or "plugin '%s': close after writing '" % plugin in e), (label, e)
    assert "for read" not in e and "truncated input" not in e, (label, e)
    assert "the disk is full" in e and "free disk space" in e, (label, e)
    # Every rank's error is kept: each rank named, with its own message,
    # or both with one shared message.
    assert e.startswith("rank 0: ") or e.startswith("ranks 0-1: "), (label, e)
    if not e.startswith("ranks 0-1: "):
        assert "; rank 1: plugin '%s': " % plugin in e, (label, e)
        assert e.count("the disk is full") == 2, (label, e)
# mpiio says how many bytes of how many each rank's write moved, and where.
e = cases["mpiio-ind"]["error"]
r0, r1 = e.split("; rank 1: ")
assert re.search(r"MPI_File_write_at to '[^']*' wrote \d+ of the 800000 bytes asked at byte 0;", r0), e
assert re.search(r"MPI_File_write_at to '[^']*' wrote \d+ of the 800000 bytes asked at byte 800000;", r1), e
e = cases["mpiio-coll"]["error"]
assert re.search(r"MPI_File_write_at_all to '[^']*' wrote \d+ of the 65536 bytes asked at byte \d+;", e), e
for label in ("pnetcdf-ind", "pnetcdf-coll"):
    if label in cases:
        e = cases[label]["error"]
        assert e.count("of the 800000 bytes of this rank's part") == 2, (label, e)
for label in ("hdf5_mpio-ind", "hdf5_mpio-coll"):
    if label in cases:
        assert "file write failed" in cases[label]["error"], cases[label]["error"]
print("full disk: %d cases failed at write, every rank named" % len(cases))
PY
[ "$(ls -A small)" = filler ] || fail "files left in the full folder: $(ls small)"
echo "full disk under MPI: each plugin fails at write, naming the full disk, with every rank's error"

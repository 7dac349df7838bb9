#!/usr/bin/env bash
# The python bridge end to end (plugins/python), through `formatbench run`:
#   1. the planted faults of fb_test_faults.py: a raise in write and in read,
#      and a write into the host's (read-only) buffer,
#      fails its case with the exception's type and message, one element
#      one ulp off fails verification naming that element, a crash through
#      ctypes is one crashed case, and the next case still runs;
#   1b. the interpreter starts once per worker, before the case's first
#      open (formatbench.prepare/1): no repetition, not even the first of a
#      case without warm-up, carries it (the metric python_start_s), the
#      case records its time (plugin.prepare_s), and a failing import fails
#      the case naming the module and the exception, and another python3
#      first on PATH does not change the interpreter;
#   2. a module with a bad OPTIONS table gets no plugin: describe_module
#      refuses it naming the module and the entry;
#   3. py-h5py's (contiguous, and blosc-zstd through hdf5plugin), py-netcdf4's
#      and py-numpy's (api: save) files are read
#      bit for bit by the C hdf5, netcdf and npy plugins (from_file) and by
#      h5py, netCDF4 and numpy.load in a separate Python process, against
#      the raw plugin's file of the same data set.
#   3b. py-h5py, py-netcdf4 and py-zarr write a 3-D data set as a 3-D
#      dataset, variable or array, read bit for bit by their library (and
#      the C hdf5 and netcdf plugins), and its planes read back exact;
#   4. py-zarr's folder is read bit for bit by zarr in another process;
#   5. py-xarray's netCDF file (api netcdf) is read bit for bit by netCDF4
#      and the C netcdf plugin, its zarr folder (api zarr) by zarr,
#      py-pandas' files by pd.read_pickle and pd.read_hdf, py-pickle's by
#      its documented layout and pickle.loads (out of band and in-band),
#      py-numpy's (api memmap) by numpy.fromfile, all in another process
#      against the raw plugin's file; and the planes of xarray's and the
#      memmap's 3-D data sets read back exact.
#   FB: the formatbench binary; DESCRIBE: describe_module; TEST_PLUGINS:
#   the folder of the faults plugin; TEST_MODULES: this folder.
set -euo pipefail
FB=${FB:?FB must name the formatbench binary}
DESCRIBE=${DESCRIBE:?DESCRIBE must name describe_module}
PY=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-python-bridge.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# The plugins this build has, listed once: `"$FB" plugins | grep -q` under
# pipefail fails when grep stops reading early (SIGPIPE), which looked like
# a plugin not built and skipped checks.
built_plugins=$("$FB" plugins)
built() { grep -q "^$1 " <<<"$built_plugins"; }
expect() { # expect FILE TEXT: the output holds TEXT
  grep -qF -- "$2" "$1" || { cat "$1"; fail "the output lacks: $2"; }
}

# ---- 1. planted faults
cat >"$work/faults.yaml" <<YAML
name: python-faults
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 100000, distribution: uniform, seed: 1}]
formats:
  - {plugin: py-test-faults, label: raise-write, options: {fault: raise_write}}
  - {plugin: py-test-faults, label: raise-read, options: {fault: raise_read}}
  - {plugin: py-test-faults, label: wrong, options: {fault: wrong_element, element: 54321}}
  - {plugin: py-test-faults, label: crash, options: {fault: crash_write}}
  - {plugin: py-test-faults, label: change-write, options: {fault: change_write}}
  - {plugin: py-test-faults, label: fine}
directory: $work/run1
YAML
mkdir -p "$work/run1"
status=0
"$FB" run "$work/faults.yaml" --plugin-path "$TEST_PLUGINS" --json "$work/faults.json" \
  >"$work/out1" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/out1"; fail "a study with failed cases exited $status, not 1"; }
"$PY" - "$work/faults.json" <<'PY' || fail "the faults' cases do not say what failed"
import json, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
def text(label):
    c = cases[label]
    return c["status"], json.dumps(c)
status, t = text("raise-write")
assert status == "failed" and "Planted: planted failure in write, at element 0" in t, t
assert "fb_test_faults.py line" in t and "python module fb_test_faults" in t, t
status, t = text("raise-read")
assert status == "failed" and "Planted: planted failure in read" in t, t
status, t = text("wrong")
assert status == "failed" and "1 of 100000 values read back differ, the first at element 54321" in t, t
status, t = text("crash")
assert status == "crashed" and "signal 11" in t, t
status, t = text("change-write")
assert status == "failed" and "ValueError: assignment destination is read-only" in t, t
status, t = text("fine")
assert status == "ok", t
print("faults: each case failed as planted, the fault-free case passed")
PY

# ---- 1b. the interpreter starts once per worker, before the case's first
# open: no recorded repetition reports python_start_s (the bridge's metric
# for a start inside an open), with or without warm-up, and each case
# records the prepare's time
cat >"$work/start.yaml" <<YAML
name: python-start
defaults: {repeat: 3}
datasets: [{dtype: f64, count: 1000, distribution: uniform, seed: 1}]
formats:
  - {plugin: py-test-faults, label: no-warmup, warmup: 0}
  - {plugin: py-test-faults, label: warmup}
directory: $work/run-start
YAML
mkdir -p "$work/run-start"
"$FB" run "$work/start.yaml" --plugin-path "$TEST_PLUGINS" --json "$work/start.json" >"$work/out-start" 2>&1 ||
  { cat "$work/out-start"; fail "the start study failed"; }
"$PY" - "$work/start.json" <<'PY' || fail "the interpreter's start is not where it belongs"
import json, sys
cases = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
def starts(label):
    return [("python_start_s" in s["write"].get("metrics", {}), "python_start_s" in s["read"].get("metrics", {}))
            for s in cases[label]["samples"]]
assert starts("no-warmup") == [(False, False)] * 3, starts("no-warmup")
assert starts("warmup") == [(False, False)] * 3, starts("warmup")
for label in ("no-warmup", "warmup"):
    prepare = cases[label]["plugin"].get("prepare_s")
    assert isinstance(prepare, float) and 0 < prepare < 60, (label, prepare)
print("the interpreter starts once per worker, before the first open")
PY

# A failing import fails the case at prepare, naming the module and the
# exception, and no repetition runs
status=0
FB_TEST_IMPORT_FAULT=1 "$FB" run "$work/start.yaml" --plugin-path "$TEST_PLUGINS" --json "$work/start-fault.json" \
  >"$work/out-start-fault" 2>&1 || status=$?
[ "$status" != 0 ] || { cat "$work/out-start-fault"; fail "a failing import did not fail its cases"; }
"$PY" - "$work/start-fault.json" <<'PY' || fail "a failing import did not fail its case as it should"
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    assert c["status"] == "failed" and c["samples"] == [], c
    for part in ("prepare for f64 failed", "ImportError: planted import failure",
                 "plugin py-test-faults, python module fb_test_faults"):
        assert part in c["error"], (part, c["error"])
print("a failing import fails its case at prepare:", c["error"])
PY

# Another "python3" first on PATH (a pyenv, conda or venv interpreter) does
# not change the interpreter the bridge embeds: here one whose prefix holds
# a standard library of nothing but an empty os.py, which an interpreter
# that took its paths from it could not start with
mkdir -p "$work/other-python/bin" "$work/other-python/lib/python3.11"
cp /bin/true "$work/other-python/bin/python3" # a file: a link would be followed to /usr
: >"$work/other-python/lib/python3.11/os.py"
PATH="$work/other-python/bin:$PATH" "$FB" run "$work/start.yaml" --plugin-path "$TEST_PLUGINS" \
  --json "$work/start-path.json" >"$work/out-start-path" 2>&1 ||
  { cat "$work/out-start-path"; fail "another python3 first on PATH broke the bridge's interpreter"; }
echo "another python3 first on PATH: the bridge's interpreter starts as built"

# ---- 2. a bad OPTIONS table
status=0
"$DESCRIBE" "$TEST_MODULES" fb_test_bad_options "$work/bad.hpp" >"$work/out2" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/out2"; fail "describe_module accepted a bad OPTIONS table (exit $status)"; }
expect "$work/out2" "python module 'fb_test_bad_options'"
expect "$work/out2" "OPTIONS entry 1 ('level'): the default: option 'level': '12' is not an integer in [0, 9]"
[ ! -e "$work/bad.hpp" ] || fail "describe_module wrote a header for a bad module"
echo "bad OPTIONS: refused naming the module and the entry"

# ---- 3. py-h5py's (also through hdf5plugin's blosc-zstd filter) and
# py-netcdf4's files read by the C plugins and by their Python library in
# another process
n=0
for pair in "py-h5py hdf5 h5 {}" "py-h5py hdf5 h5 {compression: blosc-zstd, level: 3}" \
  "py-netcdf4 netcdf nc {}" "py-numpy npy - {api: save}"; do
  n=$((n + 1))
  set -- $pair
  pyplugin=$1 cplugin=$2 ext=${3#-} # - : no extension
  shift 3
  pyoptions=$*
  tag=$pyplugin-$n # this pair's files and folders
  if ! built "$pyplugin" || ! built "$cplugin"; then
    echo "SKIP: $pyplugin or $cplugin not built"
    continue
  fi
  cat >"$work/write-$tag.yaml" <<YAML
name: $tag-files
defaults: {repeat: 1, warmup: 0}
datasets:
  - {dtype: f64, count: 100003, distribution: normal, seed: 7}
  - {dtype: i32, count: 70001, distribution: uniform, seed: 8}
formats: [raw, {plugin: $pyplugin, label: $pyplugin, options: $pyoptions}]
directory: $work/run-$tag
keep_files: true
YAML
  mkdir -p "$work/run-$tag"
  "$FB" run "$work/write-$tag.yaml" >"$work/out-$tag" 2>&1 ||
    { cat "$work/out-$tag"; fail "the $pyplugin study failed"; }
  # cases: data set first, so 0 raw f64, 1 the Python plugin's f64, 2 raw i32, 3 its i32
  for set in "f64 0 1 100003" "i32 2 3 70001"; do
    set -- $set
    raw=$(printf '%s/run-%s/case-%04d-raw.raw' "$work" "$tag" "$2")
    file=$(printf '%s/run-%s/case-%04d-%s%s' "$work" "$tag" "$3" "$pyplugin" "${ext:+.$ext}")
    [ -f "$raw" ] && [ -f "$file" ] || { ls "$work/run-$tag"; fail "the study's files are not where expected"; }
    cat >"$work/read-$tag-$1.yaml" <<YAML
name: $tag-by-$cplugin
defaults: {repeat: 1, warmup: 0}
datasets: [{from_file: {path: $file, plugin: $cplugin, options: {}}, dtype: $1, count: $4}]
formats: [raw]
directory: $work/back-$tag-$1
keep_files: true
YAML
    mkdir -p "$work/back-$tag-$1"
    "$FB" run "$work/read-$tag-$1.yaml" >"$work/out-back" 2>&1 ||
      { cat "$work/out-back"; fail "$cplugin cannot read $pyplugin's $1 file"; }
    cmp "$work/back-$tag-$1/case-0000-raw.raw" "$raw" ||
      fail "$pyplugin's $1 file read by the $cplugin plugin differs from raw's"
    "$PY" - "$file" "$raw" "$1" "$cplugin" "$pyoptions" <<'PY' || fail "the Python library does not read $pyplugin's $1 file bit for bit"
import sys, numpy as np
path, raw, dtype, cplugin, options = sys.argv[1:]
want = np.fromfile(raw, dtype={'f64': '<f8', 'i32': '<i4'}[dtype])
if cplugin == 'hdf5':
    import h5py
    import hdf5plugin  # the blosc filter of the second py-h5py file
    with h5py.File(path, 'r') as f:
        got = f['data'][()]
        if 'blosc' in options:  # the dataset really went through the blosc filter (id 32001)
            assert 32001 in [f['data'].id.get_create_plist().get_filter(i)[0]
                             for i in range(f['data'].id.get_create_plist().get_nfilters())], "no blosc filter"
elif cplugin == 'npy':
    got = np.load(path)
else:
    import netCDF4
    with netCDF4.Dataset(path) as f:
        v = f['data']
        v.set_auto_mask(False)
        got = v[:]
assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
assert got.tobytes() == want.tobytes(), "values differ"
PY
    echo "$pyplugin's ($pyoptions) $1 file: read bit for bit by the $cplugin plugin and by its Python library"
  done
done

# ---- 3b. shaped data sets: py-h5py and py-netcdf4 write a 3-D dataset or
# variable, which their library in another process and the C plugin read
# bit for bit, and its planes on every axis read back exact (read_box)
for pair in "py-h5py hdf5 .h5" "py-netcdf4 netcdf .nc" "py-zarr - -"; do
  set -- $pair
  pyplugin=$1 cplugin=$2 ext=${3#-} # -: no C plugin, no extension
  if ! built "$pyplugin" || { [ "$cplugin" != - ] && ! built "$cplugin"; }; then
    continue
  fi
  cat >"$work/shaped-$pyplugin.yaml" <<YAML
name: $pyplugin-shaped
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, shape: [30, 20, 17], distribution: normal, seed: 5}]
formats: [raw, $pyplugin]
directory: $work/shaped-$pyplugin
keep_files: true
YAML
  mkdir -p "$work/shaped-$pyplugin"
  "$FB" run "$work/shaped-$pyplugin.yaml" >"$work/out-shaped" 2>&1 ||
    { cat "$work/out-shaped"; fail "the shaped $pyplugin study failed"; }
  file=$(ls -d "$work/shaped-$pyplugin"/case-0001-*"$ext")
  raw=$(ls "$work/shaped-$pyplugin"/case-0000-raw*.raw)
  "$PY" - "$file" "$raw" "$cplugin" <<'PY' || fail "the Python library does not read $pyplugin's 3-D file bit for bit"
import sys, numpy as np
path, raw, cplugin = sys.argv[1:]
if cplugin == 'hdf5':
    import h5py
    with h5py.File(path, 'r') as f:
        got = f['data'][()]
elif cplugin == 'netcdf':
    import netCDF4
    with netCDF4.Dataset(path) as f:
        v = f['data']
        v.set_auto_mask(False)
        got = v[:]
else:
    import zarr
    got = zarr.open_array(zarr.DirectoryStore(path), mode='r')[:]
want = np.fromfile(raw, dtype='<f8').reshape(30, 20, 17)
assert got.shape == want.shape and got.tobytes() == want.tobytes(), got.shape
PY
  if [ "$cplugin" != - ]; then
  cat >"$work/shaped-back.yaml" <<YAML
name: $pyplugin-shaped-by-$cplugin
defaults: {repeat: 1, warmup: 0}
datasets: [{from_file: {path: $file, plugin: $cplugin, options: {}}, dtype: f64, count: 10200}]
formats: [raw]
directory: $work/back-shaped-$pyplugin
keep_files: true
YAML
  mkdir -p "$work/back-shaped-$pyplugin"
  "$FB" run "$work/shaped-back.yaml" >"$work/out-back" 2>&1 ||
    { cat "$work/out-back"; fail "$cplugin cannot read $pyplugin's 3-D file"; }
  cmp "$work/back-shaped-$pyplugin/case-0000-raw.raw" "$raw" ||
    fail "$pyplugin's 3-D file read by the $cplugin plugin differs from raw's"
  fi
  cat >"$work/planes.yaml" <<YAML
name: $pyplugin-planes
defaults: {repeat: 1, warmup: 0, access: plane, access_axis: [0, 1, 2], access_ops: 8}
datasets: [{dtype: f64, shape: [30, 20, 17], distribution: normal, seed: 5}]
formats: [$pyplugin]
directory: $work/planes-$pyplugin
YAML
  mkdir -p "$work/planes-$pyplugin"
  "$FB" run "$work/planes.yaml" --json "$work/planes.json" >"$work/out-planes" 2>&1 ||
    { cat "$work/out-planes"; fail "$pyplugin's plane reads failed"; }
  "$PY" - "$work/planes.json" <<'PY' || fail "$pyplugin's planes are not exact"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert len(cases) == 3 and all(c["status"] == "ok" for c in cases), [(c["status"], c["error"]) for c in cases]
PY
  by="its library"
  [ "$cplugin" = - ] || by="$by and the $cplugin plugin"
  echo "$pyplugin's 3-D data set: read bit for bit by $by; its planes on every axis exact"
done

# ---- 4. py-zarr's folder read by zarr in another process
if built py-zarr; then
  cat >"$work/zarr.yaml" <<YAML
name: py-zarr-files
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 100003, distribution: normal, seed: 7}]
formats: [raw, {plugin: py-zarr, options: {chunk: 16384, compressor: zstd, level: 3}}]
directory: $work/run-zarr
keep_files: true
YAML
  mkdir -p "$work/run-zarr"
  "$FB" run "$work/zarr.yaml" >"$work/out-zarr" 2>&1 || { cat "$work/out-zarr"; fail "the py-zarr study failed"; }
  "$PY" - "$work/run-zarr/case-0001-py-zarr" "$work/run-zarr/case-0000-raw.raw" <<'PY' ||
import sys, numpy as np, zarr, numcodecs
path, raw = sys.argv[1:]
want = np.fromfile(raw, dtype='<f8')
z = zarr.open_array(zarr.DirectoryStore(path), mode='r')
assert z.chunks == (16384,) and isinstance(z.compressor, numcodecs.Zstd), (z.chunks, z.compressor)
got = z[:]
assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
assert got.tobytes() == want.tobytes(), "values differ"
PY
    { ls "$work/run-zarr"; fail "zarr does not read py-zarr's folder bit for bit"; }
  echo "py-zarr's folder: read bit for bit by zarr, chunks and compressor as the options say"
fi

# ---- 5. py-xarray's, py-pandas', py-pickle's and py-numpy's (api: memmap)
# files read by other readers in another process, bit for bit against the
# raw plugin's file of the same data set: xarray's netCDF file by netCDF4
# and the C netcdf plugin, its zarr folder by zarr, pandas' pickle and HDF5
# files by pd.read_pickle and pd.read_hdf, py-pickle's file by its
# documented layout and pickle.loads, the memmap's by numpy.fromfile; and
# the planes of xarray's and the memmap's 3-D data sets read back exact
have() { built "$1"; }
if have py-xarray && have py-pandas && have py-pickle; then
  cat >"$work/more.yaml" <<YAML
name: python-more-files
defaults: {repeat: 1, warmup: 0}
datasets:
  - {dtype: f64, shape: [30, 20, 17], distribution: normal, seed: 5}
  - {dtype: i32, count: 70001, distribution: uniform, seed: 8}
formats:
  - raw
  - {plugin: py-xarray, label: xr-netcdf}
  - {plugin: py-xarray, label: xr-zarr, options: {api: zarr, chunk: 4096}}
  - {plugin: py-pandas, label: pd-pickle, options: {api: pickle, compression: gzip}}
  - {plugin: py-pandas, label: pd-hdf, options: {api: hdf, format: table, complevel: 3}}
  - py-pickle
  - {plugin: py-pickle, label: pickle-inband, options: {out_of_band: false}}
  - {plugin: py-numpy, label: np-memmap, options: {api: memmap}}
directory: $work/more
keep_files: true
YAML
  mkdir -p "$work/more"
  "$FB" run "$work/more.yaml" >"$work/out-more" 2>&1 || { cat "$work/out-more"; fail "the study of the new modules failed"; }
  # cases: data set first, format second: 0-7 the 3-D f64 set, 8-15 the flat i32 set
  for set in "f64 0 30,20,17 10200" "i32 8 70001 70001"; do
    set -- $set
    dtype=$1 first=$2 shape=$3 count=$4
    case_file() { ls -d "$work/more/$(printf 'case-%04d-' $((first + $1)))"*; }
    "$PY" - "$dtype" "$shape" "$(case_file 0)" "$(case_file 1)" "$(case_file 2)" "$(case_file 3)" \
      "$(case_file 4)" "$(case_file 5)" "$(case_file 6)" "$(case_file 7)" <<'PY' ||
import pickle, struct, sys
import numpy as np
dtype, shape = sys.argv[1], tuple(int(x) for x in sys.argv[2].split(','))
raw, xr_nc, xr_zarr, pd_pickle, pd_hdf, pk_oob, pk_inband, np_memmap = sys.argv[3:]
want = np.fromfile(raw, dtype={'f64': '<f8', 'i32': '<i4'}[dtype]).reshape(shape)

def same(what, got, shape):
    assert got.dtype == want.dtype and got.shape == shape, (what, got.dtype, got.shape)
    assert got.tobytes() == want.tobytes(), f"{what}: values differ"

import netCDF4
with netCDF4.Dataset(xr_nc + '/data.nc') as f:
    v = f['data']
    v.set_auto_mask(False)
    same('xarray netcdf by netCDF4', v[:], shape)
import zarr
z = zarr.open_group(zarr.DirectoryStore(xr_zarr), mode='r')['data']
rows = max(1, min(4096 // int(np.prod(shape[1:])), shape[0]))
assert z.chunks == (rows,) + shape[1:] and z.compressor is None, (z.chunks, z.compressor)
same('xarray zarr by zarr', z[:], shape)
import pandas as pd
s = pd.read_pickle(pd_pickle, compression='gzip')
assert isinstance(s, pd.Series) and s.name == 'data', type(s)
same('pandas pickle by read_pickle', s.to_numpy(), (want.size,))
with pd.HDFStore(pd_hdf, mode='r') as store:
    assert store.get_storer('data').is_table, 'not format table'
s = pd.read_hdf(pd_hdf, 'data')
assert isinstance(s, pd.Series), type(s)
same('pandas hdf by read_hdf', s.to_numpy(), (want.size,))
# py-pickle's layout (fb_pickle.py): magic, stream length, buffer count,
# the buffers' lengths, the stream, the buffers
for path, buffers in ((pk_oob, 1), (pk_inband, 0)):
    data = open(path, 'rb').read()
    magic, length, n = struct.unpack_from('<8sQQ', data)
    assert magic == b'FBPICKL5' and n == buffers, (magic, n)
    lengths = struct.unpack_from(f'<{n}Q', data, 24)
    at = 24 + 8 * n
    stream, at = data[at:at + length], at + length
    parts = []
    for size in lengths:
        parts.append(data[at:at + size])
        at += size
    assert at == len(data), (at, len(data))
    same(f'py-pickle ({buffers} buffers) by pickle.loads', pickle.loads(stream, buffers=parts), shape)
same('memmap by numpy.fromfile', np.fromfile(np_memmap, dtype=want.dtype).reshape(shape), shape)
PY
      { ls "$work/more"; fail "the new modules' $dtype files are not read bit for bit"; }
    if have netcdf; then
      cat >"$work/more-back.yaml" <<YAML
name: py-xarray-by-netcdf
defaults: {repeat: 1, warmup: 0}
datasets: [{from_file: {path: $(case_file 1)/data.nc, plugin: netcdf, options: {}}, dtype: $dtype, count: $count}]
formats: [raw]
directory: $work/more-back-$dtype
keep_files: true
YAML
      mkdir -p "$work/more-back-$dtype"
      "$FB" run "$work/more-back.yaml" >"$work/out-back" 2>&1 ||
        { cat "$work/out-back"; fail "netcdf cannot read py-xarray's $dtype file"; }
      cmp "$work/more-back-$dtype/case-0000-raw.raw" "$(case_file 0)" ||
        fail "py-xarray's $dtype file read by the netcdf plugin differs from raw's"
    fi
    echo "$dtype: py-xarray's files read bit for bit by netCDF4$(have netcdf && echo ', the netcdf plugin') and zarr," \
      "py-pandas' by read_pickle and read_hdf, py-pickle's by its layout and pickle.loads, the memmap's by numpy.fromfile"
  done
  cat >"$work/more-planes.yaml" <<YAML
name: python-more-planes
defaults: {repeat: 1, warmup: 0, access: plane, access_axis: [0, 1, 2], access_ops: 8}
datasets: [{dtype: f64, shape: [30, 20, 17], distribution: normal, seed: 5}]
formats:
  - {plugin: py-xarray, label: xr-netcdf}
  - {plugin: py-xarray, label: xr-zarr, options: {api: zarr, chunk: 4096}}
  - {plugin: py-numpy, label: np-memmap, options: {api: memmap}}
directory: $work/more-planes
YAML
  mkdir -p "$work/more-planes"
  "$FB" run "$work/more-planes.yaml" --json "$work/more-planes.json" >"$work/out-more-planes" 2>&1 ||
    { cat "$work/out-more-planes"; fail "the new modules' plane reads failed"; }
  "$PY" - "$work/more-planes.json" <<'PY' || fail "the new modules' planes are not exact"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert len(cases) == 9 and all(c["status"] == "ok" for c in cases), [(c["status"], c["error"]) for c in cases]
PY
  echo "py-xarray's (netcdf, zarr) and py-numpy's (memmap) 3-D data sets: planes on every axis exact"
else
  echo "SKIP: py-xarray, py-pandas or py-pickle not built"
fi

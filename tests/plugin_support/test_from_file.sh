#!/usr/bin/env bash
# End to end through `formatbench run`, for one container plugin (npy, hdf5
# or netcdf) and its reference tool (numpy, h5py, netCDF4-python):
#   1. a file the tool writes (f64 with NaN payloads, i32, u8) is a study's
#      from_file data set, read through the plugin and written with raw:
#      the raw file must be exactly the tool's values;
#   2. a study writes the same values with the plugin (keep_files), and the
#      tool reads that file: the values must be the raw file's, bit for bit.
# Exits 77 (Meson: SKIP) when /usr/bin/python3 lacks the tool.
#   test_from_file.sh PLUGIN      (FB: the formatbench binary)
set -euo pipefail
plugin=${1:?usage: test_from_file.sh npy|hdf5|netcdf}
FB=${FB:?FB must name the formatbench binary}
PY=/usr/bin/python3
case $plugin in
  npy) module=numpy; ext=npy ;;
  hdf5) module=h5py; ext=h5 ;;
  netcdf) module=netCDF4; ext=nc ;;
  *) echo "unknown plugin $plugin" >&2; exit 2 ;;
esac
if ! "$PY" -c "import $module, numpy" 2>/dev/null; then
  echo "SKIP: $PY has no $module"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-from-file.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($plugin): $*" >&2; exit 1; }

# ---- 1. the tool's files, read through the plugin
"$PY" - "$work" "$plugin" <<'PY'
import sys, numpy as np
d, plugin = sys.argv[1:]
rng = np.random.default_rng(23)
x = rng.standard_normal(100003)
x[:3] = [-0.0, np.inf, -np.inf]
x[3:4] = np.array([0xfff4000000abcdef], dtype='u8').view('f8')  # a NaN with a payload and the sign
arrays = {'f64': x, 'i32': rng.integers(-2**31, 2**31, 70001).astype('i4'),
          'u8': rng.integers(0, 256, 50001).astype('u1')}
for name, a in arrays.items():
    a.tofile(f"{d}/{name}.expected")
    path = f"{d}/{name}.tool"
    if plugin == 'npy':
        with open(path, 'wb') as f:
            np.save(f, a)
    elif plugin == 'hdf5':
        import h5py
        with h5py.File(path, 'w') as f:
            f.create_dataset('values/' + name, data=a, chunks=(4096,), compression='gzip')
    else:
        import netCDF4
        with netCDF4.Dataset(path, 'w', format='NETCDF4') as f:
            f.createDimension('n', a.size)
            v = f.createVariable(name, a.dtype, ('n',), zlib=True)
            v.set_auto_mask(False)
            v[:] = a
PY
options() { # the plugin's options that name the data set NAME in the tool's file
  case $plugin in
    npy) echo "{}" ;;
    hdf5) echo "{dataset: values/$1}" ;;
    netcdf) echo "{variable: $1}" ;;
  esac
}
cat >"$work/read.yaml" <<YAML
name: from-file-$plugin
defaults: {repeat: 1, warmup: 0}
datasets:
  - {from_file: {path: f64.tool, plugin: $plugin, options: $(options f64)}, dtype: f64, count: 100003}
  - {from_file: {path: i32.tool, plugin: $plugin, options: $(options i32)}, dtype: i32, count: 70001}
  - {from_file: {path: u8.tool, plugin: $plugin, options: $(options u8)}, dtype: u8, count: 50001}
formats: [raw]
directory: $work/run1
keep_files: true
YAML
mkdir -p "$work/run1"
"$FB" run "$work/read.yaml" >"$work/out1" 2>&1 || { cat "$work/out1"; fail "the from_file study failed"; }
i=0
for name in f64 i32 u8; do
  got=$(printf '%s/run1/case-%04d-raw.raw' "$work" "$i")
  cmp "$got" "$work/$name.expected" || fail "$name written by $module was not read bit-exact ($got differs)"
  echo "$module's $name read bit-exact through $plugin"
  i=$((i + 1))
done

# ---- 2. the plugin's files, read by the tool
cat >"$work/write.yaml" <<YAML
name: to-tool-$plugin
defaults: {repeat: 1, warmup: 0}
datasets:
  - {from_file: {path: f64.tool, plugin: $plugin, options: $(options f64)}, dtype: f64, count: 100003}
formats: [$plugin]
directory: $work/run2
keep_files: true
YAML
mkdir -p "$work/run2"
"$FB" run "$work/write.yaml" >"$work/out2" 2>&1 || { cat "$work/out2"; fail "the study writing with $plugin failed"; }
file=$(ls "$work"/run2/case-0000-*."$ext")
"$PY" - "$file" "$plugin" "$work/f64.expected" <<'PY' || fail "$module does not read the plugin's file bit-exact"
import sys, numpy as np
path, plugin, expected = sys.argv[1:]
want = np.fromfile(expected, dtype='<f8')
if plugin == 'npy':
    got = np.load(path)
elif plugin == 'hdf5':
    import h5py
    got = h5py.File(path, 'r')['data'][()]
else:
    import netCDF4
    with netCDF4.Dataset(path) as f:
        v = f['data']
        v.set_auto_mask(False)
        got = v[:]
assert got.dtype == np.float64 and got.shape == want.shape, (got.dtype, got.shape)
assert got.tobytes() == want.tobytes(), "values differ"
print(f"the plugin's file {path} read bit-exact by the tool")
PY
echo "from_file and back through $plugin: ok"

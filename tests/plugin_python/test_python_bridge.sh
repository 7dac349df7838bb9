#!/usr/bin/env bash
# The python bridge end to end (plugins/python), through `formatbench run`:
#   1. the planted faults of fb_test_faults.py: a raise in write and in read,
#      and a write into the host's (read-only) buffer,
#      fails its case with the exception's type and message, one element
#      one ulp off fails verification naming that element, a crash through
#      ctypes is one crashed case, and the next case still runs;
#   2. a module with a bad OPTIONS table gets no plugin: describe_module
#      refuses it naming the module and the entry;
#   3. a py-h5py file is read bit for bit by the C hdf5 plugin (from_file)
#      and by h5py in a separate Python process, against the raw plugin's
#      file of the same data set.
#   FB: the formatbench binary; DESCRIBE: describe_module; TEST_PLUGINS:
#   the folder of the faults plugin; TEST_MODULES: this folder.
set -euo pipefail
FB=${FB:?FB must name the formatbench binary}
DESCRIBE=${DESCRIBE:?DESCRIBE must name describe_module}
PY=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-python-bridge.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
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

# ---- 2. a bad OPTIONS table
status=0
"$DESCRIBE" "$TEST_MODULES" fb_test_bad_options "$work/bad.hpp" >"$work/out2" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/out2"; fail "describe_module accepted a bad OPTIONS table (exit $status)"; }
expect "$work/out2" "python module 'fb_test_bad_options'"
expect "$work/out2" "OPTIONS entry 1 ('level'): the default: option 'level': '12' is not an integer in [0, 9]"
[ ! -e "$work/bad.hpp" ] || fail "describe_module wrote a header for a bad module"
echo "bad OPTIONS: refused naming the module and the entry"

# ---- 3. py-h5py's file read by the C hdf5 plugin and by h5py
if ! "$FB" plugins | grep -q '^py-h5py ' || ! "$FB" plugins | grep -q '^hdf5 '; then
  echo "SKIP: py-h5py or hdf5 not built"
  exit 77
fi
cat >"$work/write.yaml" <<YAML
name: py-h5py-files
defaults: {repeat: 1, warmup: 0}
datasets:
  - {dtype: f64, count: 100003, distribution: normal, seed: 7}
  - {dtype: i32, count: 70001, distribution: uniform, seed: 8}
formats: [raw, py-h5py]
directory: $work/run3
keep_files: true
YAML
mkdir -p "$work/run3"
"$FB" run "$work/write.yaml" >"$work/out3" 2>&1 || { cat "$work/out3"; fail "the py-h5py study failed"; }
# cases: dataset-major, so 0 raw f64, 1 py-h5py f64, 2 raw i32, 3 py-h5py i32
for pair in "f64 0 1 100003" "i32 2 3 70001"; do
  set -- $pair
  raw=$(printf '%s/run3/case-%04d-raw.raw' "$work" "$2")
  h5=$(printf '%s/run3/case-%04d-py-h5py.h5' "$work" "$3")
  [ -f "$raw" ] && [ -f "$h5" ] || { ls "$work/run3"; fail "the study's files are not where expected"; }
  cat >"$work/read-$1.yaml" <<YAML
name: py-h5py-by-hdf5
defaults: {repeat: 1, warmup: 0}
datasets: [{from_file: {path: $h5, plugin: hdf5, options: {dataset: data}}, dtype: $1, count: $4}]
formats: [raw]
directory: $work/run-$1
keep_files: true
YAML
  mkdir -p "$work/run-$1"
  "$FB" run "$work/read-$1.yaml" >"$work/out-$1" 2>&1 || { cat "$work/out-$1"; fail "hdf5 cannot read py-h5py's $1 file"; }
  cmp "$work/run-$1/case-0000-raw.raw" "$raw" || fail "py-h5py's $1 file read by the hdf5 plugin differs from raw's"
  "$PY" - "$h5" "$raw" "$1" <<'PY' || fail "h5py does not read py-h5py's $1 file bit for bit"
import sys, h5py, numpy as np
h5, raw, dtype = sys.argv[1:]
want = np.fromfile(raw, dtype={'f64': '<f8', 'i32': '<i4'}[dtype])
with h5py.File(h5, 'r') as f:
    got = f['data'][()]
assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
assert got.tobytes() == want.tobytes(), "values differ"
PY
  echo "py-h5py's $1 file: read bit for bit by the hdf5 plugin and by h5py"
done

#!/usr/bin/env bash
# Third-party plugin authors' path, end to end: install formatbench into a
# temporary prefix, build the out-of-tree example examples/npy against the
# INSTALLED SDK (pkg-config formatbench-plugin, nothing of the source tree),
# load it (FORMATBENCH_PLUGIN_PATH and the installed plugin folder), pass
# check-plugin, run a study with it, and check NumPy interop both ways:
# numpy.save files read bit-exact, and files the plugin writes loaded by
# numpy.load equal to the generated data.
source "$(dirname "$0")/lib.sh"
SRC=${FB_SOURCE_ROOT:?}
# 1-2. Install into a temporary prefix; pkg-config finds the staged SDK.
source "$(dirname "$0")/sdk_prefix.sh"
"$PY" -c 'import numpy' 2>/dev/null || fail "$PY has no numpy (scripts/setup-debian.sh installs python3-numpy)"
cflags=$(pkg-config --cflags formatbench-plugin)
case "$cflags" in *"$SRC"*) fail "pkg-config cflags point into the source tree: $cflags";; esac

# 3. Build the example out of tree: its own Meson project, a copy of its
# folder (so nothing beside it in the source tree can be picked up).
cp -r "$SRC/examples/npy" "$work/npy-src"
meson setup "$work/npy-build" "$work/npy-src" >"$work/npy-setup.log" 2>&1 \
  || { cat "$work/npy-setup.log"; fail "meson setup of examples/npy failed"; }
ninja -C "$work/npy-build" >"$work/npy-build.log" 2>&1 || { cat "$work/npy-build.log"; fail "building examples/npy failed"; }
lib="$work/npy-build/libfb_npy_example.so"
[ -f "$lib" ] || fail "no $lib"
# Built against the installed headers only.
grep -q -- "-I$dest$prefix/include" "$work/npy-build/compile_commands.json" \
  || fail "the example was not compiled with the installed SDK's include folder"
if grep -q -- "$SRC/core" "$work/npy-build/compile_commands.json"; then fail "the example's build reaches into the source tree"; fi
meson install -C "$work/npy-build" >"$work/npy-install.log" 2>&1 \
  || { cat "$work/npy-install.log"; fail "meson install of examples/npy failed"; }
[ -f "$plugindir/libfb_npy_example.so" ] || fail "the example did not install into plugindir $plugindir"

# 4. Loading: from FORMATBENCH_PLUGIN_PATH, and from the installed folder
# with no variable at all.
FORMATBENCH_PLUGIN_PATH="$work/npy-build" expect_status 0 "$bin" describe npy_example
expect_in "$work/out" "$work/npy-build/libfb_npy_example.so"
expect_in "$work/out" "header_version"
unset FORMATBENCH_PLUGIN_PATH
expect_status 0 "$bin" plugins
expect_in "$work/out" "$plugindir/libfb_npy_example.so"
# formatbench's own npy plugin (plugins/npy, id npy) installs into the same
# folder: both load side by side, neither is skipped as a duplicate id.
if [ -f "$plugindir/libfb_npy.so" ]; then
  expect_in "$work/out" "$plugindir/libfb_npy.so"
  if grep -i "npy" "$work/err"; then fail "a warning about an npy plugin while listing plugins"; fi
fi

# 5. check-plugin must pass, on the file and by id.
expect_status 0 "$bin" check-plugin "$lib"
cp "$work/out" "$work/check.txt"
expect_in "$work/check.txt" "npy_example 1.0.0: "
expect_in "$work/check.txt" " passed, 0 failed"
grep -q "^FAIL" "$work/check.txt" && fail "check-plugin printed a failure"
expect_status 0 "$bin" check-plugin npy_example --quick --json
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] and d["failed"]==0 and d["plugin"]=="npy_example", d' "$work/out" \
  || fail "check-plugin --json did not report a pass"
grep -E "passed, 0 failed" "$work/check.txt"

# 6. A study: 10^5 doubles with npy_example (default, and big-endian version 2.0) and raw.
mkdir -p "$work/run"
cat >"$work/study.yaml" <<YAML
name: sdk-example
defaults: {repeat: 2, warmup: 0}
datasets:
  - {dtype: f64, count: 100000, distribution: uniform, seed: 7}
formats:
  - npy_example
  - {plugin: npy_example, label: npy-be-v2, options: {byte_order: big, header_version: "2.0"}}
  - raw
directory: $work/run
keep_files: true
YAML
expect_status 0 "$bin" run "$work/study.yaml"
expect_in "$work/out" "npy-be-v2"
ls "$work/run" >"$work/files.txt"
npy_le=$(ls "$work"/run/case-*-npy_example.npy | head -n 1)
raw=$(ls "$work"/run/case-*-raw* | head -n 1)
[ "$(ls "$work"/run/case-*-npy_example.npy | wc -l)" = 2 ] || { cat "$work/files.txt"; fail "expected two npy files"; }
npy_be=$(ls "$work"/run/case-*-npy_example.npy | tail -n 1)

# 7. Reverse interop: numpy.load reads the plugin's files, equal (bitwise)
# to the generator's data as the raw plugin wrote it.
"$PY" - "$npy_le" "$npy_be" "$raw" <<'PY' || fail "numpy.load does not read the plugin's files back equal to the data"
import sys, numpy as np
le, be, raw = sys.argv[1:]
want = np.fromfile(raw, dtype=np.float64)
assert want.shape == (100000,), want.shape
for path, descr, version in ((le, '<f8', (1, 0)), (be, '>f8', (2, 0))):
    with open(path, 'rb') as f:
        assert np.lib.format.read_magic(f) == version, path
    a = np.load(path, allow_pickle=False)
    assert a.dtype.str == descr and a.shape == (100000,), (path, a.dtype.str, a.shape)
    assert a.astype(np.float64).tobytes() == want.tobytes(), path
    with open(path, 'rb') as f:
        head = f.read(128)
    hl = int.from_bytes(head[8:10], 'little') if version == (1, 0) else int.from_bytes(head[8:12], 'little')
    assert (hl + (10 if version == (1, 0) else 12)) % 64 == 0, "data does not start at a multiple of 64"
print("numpy.load reads the plugin's files: ok")
PY

# 8. Forward interop: files numpy.save writes (versions 1.0-3.0, both byte
# orders, f64/f32/i32/u8) read bit-exact by the plugin: a from_file study
# reads each with npy and writes it with raw; the raw files must hold
# exactly numpy's native-order bytes.
mkdir -p "$work/np" "$work/run2"
"$PY" - "$work/np" <<'PY'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(3)
x = rng.standard_normal(100000)
x[:6] = [0.0, -0.0, np.inf, -np.inf, 5e-324, np.finfo(np.float64).max]
y = rng.standard_normal(100000).astype('>f4')
z = rng.integers(-2**31, 2**31, 100000).astype('<i4')
np.save(f"{d}/f64.npy", x)
with open(f"{d}/f32be_v2.npy", "wb") as f:
    np.lib.format.write_array(f, y, version=(2, 0))
with open(f"{d}/i32_v3.npy", "wb") as f:
    np.lib.format.write_array(f, z, version=(3, 0))
np.save(f"{d}/u8.npy", rng.integers(0, 256, 100000).astype(np.uint8))
for name, a in (("f64", x), ("f32be_v2", y.astype('=f4')), ("i32_v3", z.astype('=i4'))):
    a.tofile(f"{d}/{name}.expected")
np.load(f"{d}/u8.npy").tofile(f"{d}/u8.expected")
PY
cat >"$work/np/study.yaml" <<YAML
name: numpy-files
defaults: {repeat: 1, warmup: 0}
datasets:
  - {from_file: {path: f64.npy, plugin: npy_example}, dtype: f64, count: 100000}
  - {from_file: {path: f32be_v2.npy, plugin: npy_example}, dtype: f32, count: 100000}
  - {from_file: {path: i32_v3.npy, plugin: npy_example}, dtype: i32, count: 100000}
  - {from_file: {path: u8.npy, plugin: npy_example}, dtype: u8, count: 100000}
formats: [raw]
directory: $work/run2
keep_files: true
YAML
expect_status 0 "$bin" run "$work/np/study.yaml"
i=0
for name in f64 f32be_v2 i32_v3 u8; do
  got=$(printf '%s/run2/case-%04d-raw.raw' "$work" "$i")
  cmp "$got" "$work/np/$name.expected" || fail "$name.npy (numpy.save) was not read bit-exact: $got differs"
  echo "numpy.save $name.npy read bit-exact"
  i=$((i + 1))
done

# 9. A damaged .npy file is a clear error naming the path, never a crash.
"$PY" - "$work/np" <<'PY'
import sys, numpy as np
d = sys.argv[1]
good = open(f"{d}/f64.npy", "rb").read()
def npy(header, data=b"\0" * 80, version=1):
    h = header.encode()
    return b"\x93NUMPY" + bytes([version, 0]) + len(h).to_bytes(2, "little") + h + data
open(f"{d}/bad_magic.npy", "wb").write(b"not a numpy file at all")
open(f"{d}/bad_length.npy", "wb").write(good[:8] + (60000).to_bytes(2, "little") + good[10:200])
open(f"{d}/bad_dict.npy", "wb").write(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (10,) oops}\n"))
np.save(f"{d}/bad_dtype.npy", np.arange(10, dtype='<i4'))
np.save(f"{d}/bad_shape.npy", np.arange(5, dtype='<f8'))
PY
for case in "bad_magic:bad magic" "bad_length:goes beyond the end of the file" "bad_dict:header dict" \
            "bad_dtype:holds dtype '<i4', not 'f8'" "bad_shape:holds 5 elements"; do
  name=${case%%:*}; want=${case#*:}
  cat >"$work/np/$name.yaml" <<YAML
name: $name
datasets: [{from_file: {path: $name.npy, plugin: npy_example}, dtype: f64, count: 10}]
formats: [raw]
YAML
  got=0; "$bin" run "$work/np/$name.yaml" >"$work/out" 2>"$work/err" || got=$?
  [ "$got" != 0 ] || fail "reading $name.npy succeeded"
  [ "$got" -lt 128 ] || fail "reading $name.npy crashed (exit $got)"
  cat "$work/out" "$work/err" >"$work/both"
  expect_in "$work/both" "$work/np/$name.npy"
  expect_in "$work/both" "$want"
  echo "$name.npy: $(grep -o "npy: .*" "$work/both" | head -n 1)"
done
echo "sdk example: ok"

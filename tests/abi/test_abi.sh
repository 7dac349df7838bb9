#!/usr/bin/env bash
# ABI evolution (docs/abi.md): a plugin of another minor of this major loads
# and works, a plugin of another major is refused with a clear message, a
# plugin in plain C passes check-plugin, and check-plugin fails a plugin that
# does not validate its own options.
# A plugin that crashes must die of its signal, also under AddressSanitizer
# (which would otherwise catch SIGSEGV and exit with status 1).
# docs/abi.md says how hosts and plugins of different minors meet.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
source "$(dirname "$0")/../cli/lib.sh"
dir=${FB_ABI_PLUGINS:?}

# 1.0 in C, the 1.0 descriptor layout at the end of a readable page: this
# 1.2 host loads it, reads nothing beyond its 152 bytes (that would fault),
# and it passes every check.
expect_status 0 "$FB" check-plugin "$dir/libabi_c_10.so"
expect_in "$work/out" "abi_c_1_0 1.0.0: "
expect_in "$work/out" " passed, 0 failed"

# 1.1: the 1.1 descriptor (160 bytes), open arguments read up to their 1.1
# end; no 1.2 extension, so no read-at check.
expect_status 0 "$FB" check-plugin "$dir/libabi_c_11.so"
expect_in "$work/out" "abi_c_1_1 1.0.0: "
expect_in "$work/out" " passed, 0 failed"
expect_not_in() { if grep -qF -- "$2" "$1"; then cat "$1"; fail "'$2' in $1"; fi; }
expect_not_in "$work/out" "read_at/"
expect_status 0 "$FB" --plugin-path "$dir" describe abi_c_1_1 --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["abi"]=="1.1", d["abi"]' "$work/out" \
  || fail "describe does not show ABI 1.1 for the 1.1 plugin"

# 1.2, this SDK, in C: read-at works, as check-plugin's read-at checks show
# for every dtype.
expect_status 0 "$FB" check-plugin "$dir/libabi_c_12.so"
expect_in "$work/out" "abi_c_1_2 1.0.0: "
expect_in "$work/out" " passed, 0 failed"
for t in f64 f32 i64 i32 u8; do expect_in "$work/out" "pass  read_at/$t"; done
# and in C++ (plugin.hpp): read-at, and read-box on every axis of two shapes.
expect_status 0 "$FB" check-plugin "$dir/libabi_cpp_12.so"
expect_in "$work/out" "abi_cpp_1_2 1.0.0: "
expect_in "$work/out" " passed, 0 failed"
for t in f64 f32 i64 i32 u8; do
  expect_in "$work/out" "pass  read_at/$t"
  expect_in "$work/out" "pass  read_box/$t/3x4x5"
  expect_in "$work/out" "pass  read_box/$t/37x41"
done

# "1.3": a descriptor with an appended field and abi_minor 3 loads in this
# 1.2 host, which reads only the 1.2 fields, and passes every check.
expect_status 0 "$FB" check-plugin "$dir/libabi_c_13.so"
expect_in "$work/out" "abi_c_1_3 1.0.0: "
expect_in "$work/out" " passed, 0 failed"
expect_status 0 "$FB" --plugin-path "$dir" describe abi_c_1_3 --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["abi"]=="1.3", d["abi"]' "$work/out" \
  || fail "describe does not show ABI 1.3 for the 1.3 plugin"

# Plugins of every minor with a 1.0 host's open arguments (40 bytes, no
# metric sink, an unreadable page right after them): C and C++ (plugin.hpp)
# alike, every in-tree plugin and the test plugins that conform. Not those
# that call MPI (formatbench.mpi/1, as `describe` lists it: mpiio,
# hdf5_mpio, ...): they open streams only on an MPI communicator, which no
# host of 1.0 or 1.1 hands out, and outside MPI their own opens refuse
# (tests/mpi checks both).
tp=${FB_TEST_PLUGINS:?}
in_tree=()
for f in "${FB_PLUGIN_DIR:?}"/libfb_*.so; do
  "$FB" describe "$f" --json > "$work/describe.json" 2>/dev/null || fail "describe $f"
  grep -q '"formatbench.mpi/1"' "$work/describe.json" || in_tree+=("$f")
done
[ "${#in_tree[@]}" -ge 10 ] || fail "only ${#in_tree[@]} in-tree plugins without MPI"
expect_status 0 "${FB_OLD_HOST:?}" "$dir"/libabi_c_1[0-3].so "$dir/libabi_cpp_12.so" "${in_tree[@]}" \
  "$tp/libfb_c_plugin.so" "$tp/libfb_read_at.so" "$tp/libfb_wrong_block.so"
expect_in "$work/out" "abi_c_1_1 (ABI 1.1): ok with 1.0 arguments"
expect_in "$work/out" "abi_c_1_3 (ABI 1.3): ok with 1.0 arguments"
expect_in "$work/out" "raw (ABI 1.2): ok with 1.0 arguments"
# A 1.1 host's arguments (56 bytes, a metric sink, nothing of 1.2): a 1.2
# plugin sees no shape, so read-box refuses every box, while read() and
# read-at work (old_host asks for the extensions by id).
expect_status 0 "$FB_OLD_HOST" --1.1 "$dir"/libabi_c_1[0-3].so "$dir/libabi_cpp_12.so" "${in_tree[@]}" \
  "$tp/libfb_read_at.so"
expect_in "$work/out" "abi_cpp_1_2 (ABI 1.2): ok with 1.1 arguments"
expect_in "$work/out" "read_at (ABI 1.2): ok with 1.1 arguments"
expect_in "$work/out" "abi_c_1_2 (ABI 1.2): ok with 1.1 arguments"

# Within a study: the host asks 1.1 plugins whether an option set is lossless
# per dtype (abi_c_1_1 says f32 with buffer_size 3 is not), and a 1.0 plugin
# by its flag; 1.1 plugins' metrics land in the JSON record, the CSV and the
# HTML report. A lossy option set needs a tolerance: refused at plan without.
cat > "$work/abi.yaml" <<EOF
defaults: {repeat: 2, warmup: 0}
plugin_path: [$dir]
datasets: [{dtype: [f64, f32], count: 1000}]
formats:
  - {label: old, plugin: abi_c_1_0}
  - {label: new, plugin: abi_c_1_1, options: {buffer_size: [0, 3]}}
EOF
expect_status 2 "$FB" plan "$work/abi.yaml"
expect_in "$work/err" "abi.yaml:6:5: format 'new buffer_size=3': plugin 'abi_c_1_1' is lossy with these options for dtype f32 (dataset 'f32-uniform-1e3'), so its values are judged by a tolerance"
sed -i 's/options: {buffer_size: \[0, 3\]}}/options: {buffer_size: [0, 3]}, tolerance: {abs: 0}}/' "$work/abi.yaml"
expect_status 0 "$FB" run "$work/abi.yaml" --json "$work/abi.json" --csv "$work/abi.csv" --no-console
/usr/bin/python3 - "$work/abi.json" "$work/abi.csv" <<'PY' || fail "per-dtype losslessness or metrics"
import csv, json, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    label, dtype = c["format"]["label"], c["dataset"]["dtype"]
    lossy = label == "new buffer_size=3" and dtype == "f32"
    assert c["verify"]["lossless_expected"] == (not lossy), (label, dtype, c["verify"])
    # The tolerance is the format's; it judges every dtype of it.
    assert ("tolerance" in c["verify"]) == label.startswith("new"), c["verify"]
    s = c["samples"][0]
    if label.startswith("new"):
        size = 1000 * (8 if dtype == "f64" else 4)
        assert s["write"]["metrics"] == {"bytes_written": size}, s["write"]
        assert s["read"]["metrics"] == {"bytes_read": size}, s["read"]
        assert c["write"]["metrics"] == {"bytes_written": size}, c["write"]
    else:
        assert "metrics" not in s["write"] and "metrics" not in c["write"], c
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
new = [r for r in rows if r["format"].startswith("new")]
assert new and all(float(r["write.bytes_written"]) > 0 and float(r["read.bytes_read"]) > 0 for r in new), rows[0]
assert all(r["write.bytes_written"] == "" for r in rows if r["format"] == "old")
print("lossless_expected per dtype from is_lossless_for; metrics in JSON and CSV")
PY
expect_status 0 "$FB" report "$work/abi.json" -o "$work/abi.html"
expect_in "$work/abi.html" "bytes_written"

# 2.0: refused, with the plugin's and the host's versions.
expect_status 1 "$FB" check-plugin "$dir/libabi_c_20.so"
expect_in "$work/out" "FAIL  load: plugin ABI 2.0, this formatbench speaks 1.x"
expect_in "$work/out" "0 passed, 1 failed"
expect_status 0 "$FB" --plugin-path "$dir" plugins
expect_in "$work/err" "libabi_c_20.so: plugin ABI 2.0, this formatbench speaks 1.x"
expect_in "$work/out" "abi_c_1_2"
expect_status 1 "$FB" check-plugin "$dir/libabi_c_20.so" --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert not d["ok"] and d["checks"][0]["name"]=="load" and "ABI 2.0" in d["checks"][0]["reason"], d' "$work/out" \
  || fail "check-plugin --json does not report the refused load"

# tests/plugins/c_plugin.c accepts any option value (it only compares with
# "true") and does not check the file size: check-plugin must say so.
expect_status 1 "$FB" check-plugin "${FB_TEST_PLUGINS:?}/libfb_c_plugin.so" --quick
expect_in "$work/out" "FAIL  bad_option/fail_on_open='maybe': open_write with fail_on_open='maybe': expected FB_E_INVALID_OPTION, got FB_OK"
expect_in "$work/out" "FAIL  read_error/garbage_file"

# A plugin that crashes, ends the process or hangs fails those checks, and
# the checker itself goes on to its summary.
expect_status 1 "$FB" check-plugin "$FB_TEST_PLUGINS/libfb_misbehave.so" --quick --timeout 2
expect_in "$work/out" "FAIL  round_trip/f64/n1000/w3/r4097/mode=segfault: crashed with signal 11"
expect_in "$work/out" "FAIL  round_trip/f64/n1000/w3/r4097/mode=exit: the plugin ended the process (exit status 3)"
expect_in "$work/out" "FAIL  round_trip/f64/n1000/w3/r4097/mode=hang: hung: no result within 2 s"
expect_in "$work/out" "pass  round_trip/f64/n1000/wall/rall"
expect_in "$work/out" "misbehave 1.0.0: "

# Usage errors are 2, not 1.
expect_status 2 "$FB" check-plugin "$work/no-such-file.so"
expect_in "$work/err" "neither a file nor the id of a plugin"
expect_status 2 "$FB" check-plugin
echo "abi: ok"

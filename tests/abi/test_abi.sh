#!/usr/bin/env bash
# ABI evolution (docs/abi.md): a plugin of another minor of this major loads
# and works, a plugin of another major is refused with a clear message, a
# plugin in plain C passes check-plugin, and check-plugin fails a plugin that
# does not validate its own options.
# A plugin that crashes must die of its signal, also under AddressSanitizer
# (which would otherwise catch SIGSEGV and exit with status 1).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
source "$(dirname "$0")/../cli/lib.sh"
dir=${FB_ABI_PLUGINS:?}

# 1.0 in C: conforming.
expect_status 0 "$FB" check-plugin "$dir/libabi_c_10.so"
expect_in "$work/out" "abi_c_1_0 1.0.0: "
expect_in "$work/out" " passed, 0 failed"

# "1.1": a descriptor with an appended field and abi_minor 1 loads in this
# 1.0 host, which reads only the 1.0 fields, and passes every check.
expect_status 0 "$FB" check-plugin "$dir/libabi_c_11.so"
expect_in "$work/out" "abi_c_1_1 1.0.0: "
expect_in "$work/out" " passed, 0 failed"
expect_status 0 "$FB" --plugin-path "$dir" describe abi_c_1_1 --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["abi"]=="1.1", d["abi"]' "$work/out" \
  || fail "describe does not show ABI 1.1 for the 1.1 plugin"

# 2.0: refused, with the plugin's and the host's versions.
expect_status 1 "$FB" check-plugin "$dir/libabi_c_20.so"
expect_in "$work/out" "FAIL  load: plugin ABI 2.0, this formatbench speaks 1.x"
expect_in "$work/out" "0 passed, 1 failed"
expect_status 0 "$FB" --plugin-path "$dir" plugins
expect_in "$work/err" "libabi_c_20.so: plugin ABI 2.0, this formatbench speaks 1.x"
expect_in "$work/out" "abi_c_1_1"
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

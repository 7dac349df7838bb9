#!/usr/bin/env bash
# check-plugin sees more (docs/plugin-guide.md, docs/abi.md "Contracts"):
# each misbehaving mode of tests/plugins/misbehave.cpp (FB_MISBEHAVE, for
# every stream) fails the check made for it with the expected message, while
# the well-behaved checks around it pass; --list, --only and the reproduce
# line; the check's folders are removed after a crash, a hang and Ctrl-C;
# nothing reaches the real working folder or $HOME; `describe PATH`.
# A plugin that crashes must die of its signal, also under AddressSanitizer.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
source "$(dirname "$0")/lib.sh"
: "${FB_TEST_PLUGINS:?}"
PY=/usr/bin/python3
M="$FB_TEST_PLUGINS/libfb_misbehave.so"
RAW="$(dirname "$FB")/../plugins/libfb_raw.so"
[ -f "$RAW" ] || fail "no raw plugin at $RAW"

# check MODE PATTERN...: check-plugin on misbehave with FB_MISBEHAVE=MODE,
# only the checks matching the patterns; the report in $work/out.
check() {
  local mode=$1; shift
  local only=()
  for p in "$@"; do only+=(--only "$p"); done
  local got=0
  FB_MISBEHAVE=$mode "$FB" check-plugin "$M" "${only[@]}" >"$work/out" 2>"$work/err" || got=$?
  [ "$got" = 1 ] || { cat "$work/out" "$work/err"; fail "FB_MISBEHAVE=$mode: expected exit 1, got $got"; }
}
expect_not_in() { # expect_not_in FILE TEXT
  if grep -qF -- "$2" "$1"; then cat "$1"; fail "'$2' in $1"; fi
}

# --list: every check name, one per line, nothing run; exactly the checks a
# run reports, in the same order.
expect_status 0 "$FB" check-plugin "$RAW" --quick --list
cp "$work/out" "$work/list.txt"
expect_not_in "$work/list.txt" "check-plugin"
for name in load descriptor overwrite/existing_file read_error/corrupt_header read_error/corrupt_middle \
            read_error/corrupt_three_quarters read_error/corrupt_end write_error/full_device \
            write_error/file_size_limit; do
  grep -qx -- "$name" "$work/list.txt" || fail "--list lacks $name"
done
expect_status 0 "$FB" check-plugin "$RAW" --quick --json
$PY - "$work/list.txt" "$work/out" <<'PY' || fail "--list differs from the checks a run reports"
import json, sys
listed = open(sys.argv[1]).read().split("\n")[:-1]
ran = [c["name"] for c in json.load(open(sys.argv[2]))["checks"]]
assert listed == ran, (len(listed), len(ran), set(listed) ^ set(ran))
print(len(listed), "checks listed and run")
PY

# --only: glob patterns ('*' crosses '/'), repeatable; the checks run are the
# listed names Python's fnmatch selects.
expect_status 0 "$FB" check-plugin "$RAW" --quick --json --only 'read_error/corrupt_*' --only '*/file_size_limit'
$PY - "$work/list.txt" "$work/out" <<'PY' || fail "--only ran other checks than its patterns select"
import fnmatch, json, sys
listed = open(sys.argv[1]).read().split("\n")[:-1]
want = [n for n in listed if fnmatch.fnmatchcase(n, "read_error/corrupt_*") or fnmatch.fnmatchcase(n, "*/file_size_limit")]
ran = [c["name"] for c in json.load(open(sys.argv[2]))["checks"]]
assert ran == want and len(want) == 5, (ran, want)
PY
expect_status 0 "$FB" check-plugin "$RAW" --quick --list --only 'read_error/corrupt_*' --only '*/file_size_limit'
$PY - "$work/list.txt" "$work/out" <<'PY' || fail "--list --only lists other names than its patterns select"
import fnmatch, sys
listed = open(sys.argv[1]).read().split("\n")[:-1]
want = [n for n in listed if fnmatch.fnmatchcase(n, "read_error/corrupt_*") or fnmatch.fnmatchcase(n, "*/file_size_limit")]
assert open(sys.argv[2]).read().split("\n")[:-1] == want
PY
expect_status 2 "$FB" check-plugin "$RAW" --only 'no_such_check*'
expect_in "$work/err" "--only 'no_such_check*' matches no check of plugin 'raw' (--list shows them)"

# The reproduce line of a failure reruns exactly that check, with the same
# result; names with quotes come out shell-quoted.
expect_status 1 "$FB" check-plugin "$FB_TEST_PLUGINS/libfb_c_plugin.so" --quick
line=$(grep -A1 -F "FAIL  bad_option/fail_on_open='maybe'" "$work/out" | sed -n 's/^      reproduce: //p')
[ -n "$line" ] || { cat "$work/out"; fail "no reproduce line under the failure"; }
case "$line" in "formatbench check-plugin $FB_TEST_PLUGINS/libfb_c_plugin.so --quick --only "*) ;;
  *) fail "unexpected reproduce line: $line";; esac
# shellcheck disable=SC2086
eval "\"\$FB\"${line#formatbench}" >"$work/again" 2>&1 && fail "the reproduced check passed"
[ "$(grep -c '^FAIL\|^pass\|^skip' "$work/again")" = 1 ] || { cat "$work/again"; fail "the reproduce line ran more than one check"; }
expect_in "$work/again" "FAIL  bad_option/fail_on_open='maybe': open_write with fail_on_open='maybe': expected FB_E_INVALID_OPTION, got FB_OK"
expect_status 1 "$FB" check-plugin "$FB_TEST_PLUGINS/libfb_c_plugin.so" --quick --json --only 'read_error/garbage_file'
$PY -c 'import json,sys; c=json.load(open(sys.argv[1]))["checks"][0]; assert c["reproduce"].endswith(" --quick --only read_error/garbage_file"), c' "$work/out" \
  || fail "--json has no reproduce command for a failure"

# Mid-stream corruption, apart from the header: a reader that checks its
# header (FB_E_CORRUPT) but reports a checksum mismatch as FB_E_INTERNAL
# passes corrupt_header and fails the three checks past it.
check checksum_internal 'read_error/*'
expect_in "$work/out" "pass  read_error/corrupt_header"
for at in "middle" "three-quarter mark" "end"; do
  expect_in "$work/out" "reading a file with 16 bytes inverted before its $at gave read: FB_E_INTERNAL: misbehave: checksum mismatch in '"
done
expect_in "$work/out" "; rule: a failed read reports what is wrong with the input, never FB_E_INTERNAL or FB_E_STATE"
expect_in "$work/out" "pass  read_error/truncated_file"
expect_in "$work/out" "3 failed"
# A read that writes past the values asked for.
check overread 'read_error/corrupt_middle' 'round_trip/f64/n7/wall/rall'
expect_in "$work/out" "FAIL  read_error/corrupt_middle: reading a file with 16 bytes inverted before its middle wrote up to 8 byte(s) past the values asked for; rule: read fills the values asked for and writes nothing past them"
expect_in "$work/out" "FAIL  round_trip/f64/n7/wall/rall: the last read wrote up to 8 byte(s) past the values asked for"

# Writing over an existing file: a writer without O_TRUNC leaves a mix.
check no_truncate 'overwrite/*' 'round_trip/f64/n7/wall/rall'
expect_in "$work/out" "FAIL  overwrite/existing_file: 3000 values read back from a file of 1000 written over one of 3000: the old file's values are still there; rule: writing over an existing file replaces it"
expect_in "$work/out" "pass  round_trip/f64/n7/wall/rall"
# A full disk without O_EXCL's escape: a writer that creates with O_EXCL and
# ignores write(2) passes the device check (EEXIST at open) and fails the
# file size limit, where its writes fail with EFBIG.
check exclusive_unchecked 'write_error/*'
expect_in "$work/out" "pass  write_error/full_device"
expect_in "$work/out" "FAIL  write_error/file_size_limit: writing a file that cannot grow past 64 KiB succeeded; rule: a write that cannot succeed fails"

# Files outside the path: beside it in the data folder, in the working
# folder, $HOME and $TMPDIR (the check's own, never the real ones).
mkdir "$work/home" "$work/cwd" "$work/tmp"
beside=" beside its path the plugin "
outside=": outside its path the plugin "
rule_path="; rule: a plugin creates, changes and removes nothing outside the path it is given"
for mode in side_file remove_neighbours cwd_file home_file tmp_file change_home; do
  got=0
  (cd "$work/cwd" && FB_MISBEHAVE=$mode HOME="$work/home" TMPDIR="$work/tmp" \
     "$FB" check-plugin "$M" --only 'round_trip/f64/n7/wall/rall') >"$work/out" 2>"$work/err" || got=$?
  [ "$got" = 1 ] || { cat "$work/out" "$work/err"; fail "FB_MISBEHAVE=$mode: expected exit 1, got $got"; }
  case $mode in
    side_file) expect_in "$work/out" "${beside}created '"; expect_in "$work/out" "/data.bin.side'$rule_path";;
    remove_neighbours) expect_in "$work/out" "${beside}removed '"; expect_in "$work/out" "/do-not-touch.txt'$rule_path";;
    cwd_file) expect_in "$work/out" "${outside}created './misbehave-was-here'$rule_path";;
    home_file) expect_in "$work/out" "${outside}created '\$HOME/.misbehave'$rule_path";;
    tmp_file) expect_in "$work/out" "${outside}created '\$TMPDIR/misbehave-";;
    change_home) expect_in "$work/out" "${outside}changed '\$HOME/do-not-touch.txt'$rule_path";;
  esac
  for d in home cwd tmp; do
    [ -z "$(ls -A "$work/$d")" ] || { ls -laR "$work/$d"; fail "FB_MISBEHAVE=$mode left files in the real $d"; }
  done
done

# Every in-tree behaviour above passes without FB_MISBEHAVE.
expect_status 0 "$FB" check-plugin "$M" --only 'read_error/corrupt_*' --only 'overwrite/*' --only 'write_error/f*' \
  --only 'round_trip/f64/n7/wall/rall'
expect_in "$work/out" "8 passed, 0 failed"

# The check's folders go, whatever the plugin does: a crash, a hang, a
# forgotten child process, and Ctrl-C during a hang.
expect_status 1 env TMPDIR="$work/tmp" "$FB" check-plugin "$M" --timeout 1 \
  --only 'round_trip/f64/*/mode=segfault' --only 'round_trip/f64/*/mode=hang' --only 'round_trip/f64/*/mode=spawn_child'
expect_in "$work/out" "crashed with signal 11"
expect_in "$work/out" "hung: no result within 1 s"
expect_in "$work/out" "left a child process running"
[ -z "$(ls -A "$work/tmp")" ] || { ls -laR "$work/tmp"; fail "check-plugin left folders in TMPDIR"; }
TMPDIR="$work/tmp" "$FB" check-plugin "$M" --timeout 57 --only 'round_trip/f64/*/mode=hang' >"$work/int.out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -n "$(ls -A "$work/tmp")" ] && break; sleep 0.1; done
[ -n "$(ls -A "$work/tmp")" ] || fail "the hanging check never started"
kill -INT "$pid"
# Stopped at once, not when the check's 57 s run out (30 s of slack).
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fail "Ctrl-C did not stop the running check"; fi
got=0; wait "$pid" || got=$?
[ "$got" = 130 ] || { cat "$work/int.out"; fail "interrupted check-plugin: expected exit 130, got $got"; }
expect_in "$work/int.out" "interrupted before the last checks"
[ -z "$(ls -A "$work/tmp")" ] || { ls -laR "$work/tmp"; fail "Ctrl-C left folders in TMPDIR"; }
if pgrep -f -- "--timeout 57" >/dev/null; then fail "the interrupted check's process is still running"; fi

# Random access (ABI 1.2): tests/plugins/read_at_plugin.c passes every check
# of read-at, read-box and (where the file system takes O_DIRECT) direct
# I/O, for every dtype; its twin wrong_block, whose read-at gets element
# 1000 wrong, fails them naming that element while read() passes; and each
# bug FB_READ_AT_FAULT plants fails the check made for it.
RA="$FB_TEST_PLUGINS/libfb_read_at.so"
expect_status 0 "$FB" check-plugin "$RA"
for t in f64 f32 i64 i32 u8; do
  expect_in "$work/out" "pass  read_at/$t"
  expect_in "$work/out" "pass  read_box/$t/3x4x5"
  expect_in "$work/out" "pass  read_box/$t/37x41"
  expect_in "$work/out" "pass  check_options/$t/defaults"
  grep -qE "^(pass  direct_io/$t|skip  direct_io/$t: not applicable: the file system of .* refuses O_DIRECT)" "$work/out" \
    || { cat "$work/out"; fail "direct_io/$t neither passed nor said why it does not apply"; }
done
expect_status 1 "$FB" check-plugin "$FB_TEST_PLUGINS/libfb_wrong_block.so"
expect_in "$work/out" "FAIL  read_at/f64: read_at(0, 10007): element 1000: read() gave "
expect_in "$work/out" "; rule: read-at gives the elements read gives, at any offset and the same bytes every time"
expect_in "$work/out" "FAIL  read_box/i32/37x41: read_box([1, 36) [1, 40)) of shape 37x41: element 1000 (at 24x16): read() gave "
expect_in "$work/out" "pass  read_box/u8/3x4x5" # 60 elements: element 1000 is not in them
expect_in "$work/out" "pass  round_trip/f64/n10007/wall/rall"
expect_not_in "$work/out" "FAIL  round_trip"
fault() { # fault NAME PATTERN: check-plugin on read_at with FB_READ_AT_FAULT=NAME
  local got=0
  FB_READ_AT_FAULT=$1 "$FB" check-plugin "$RA" --only "$2" >"$work/out" 2>"$work/err" || got=$?
  [ "$got" = 1 ] || { cat "$work/out" "$work/err"; fail "FB_READ_AT_FAULT=$1: expected exit 1, got $got"; }
}
outside="; rule: a read-at range or read-box box outside the data set (or of another ndim) is FB_E_TRUNCATED and writes nothing"
fault fill_refused 'read_*/f64*'
expect_in "$work/out" "FAIL  read_at/f64: read_at(10006, 2) on 10007 elements failed as it should, but wrote into the buffer$outside"
expect_in "$work/out" "FAIL  read_box/f64/3x4x5: read_box([2, 4) [0, 4) [0, 5)) of shape 3x4x5 failed as it should, but wrote into the buffer$outside"
fault accept_outside 'read_at/f64'
expect_in "$work/out" "FAIL  read_at/f64: read_at(10006, 2) on 10007 elements succeeded$outside"
fault accept_ndim 'read_box/f64/*'
expect_in "$work/out" "FAIL  read_box/f64/3x4x5: read_box([0, 1) [0, 1) [0, 1) [0, 1)) of shape 3x4x5 succeeded$outside"
expect_in "$work/out" "FAIL  read_box/f64/37x41: read_box([0, 1) [0, 1) [0, 1)) of shape 37x41 succeeded$outside"
fault box_start0 'read_box/f64/*'
expect_in "$work/out" "FAIL  read_box/f64/3x4x5: read_box([1, 2) [0, 4) [0, 5)) of shape 3x4x5: element 20 (at 1x0x0): read() gave "
expect_in "$work/out" "; rule: read-box gives the box's elements of the row-major array, on every axis"
fault unstable 'read_at/f64'
expect_in "$work/out" "FAIL  read_at/f64: read_at(4953, 100) read again gave other bytes: element 4953 was "
# check-options/1 must take the default options for every declared dtype.
fault refuse_u8 'check_options/*'
expect_in "$work/out" "pass  check_options/f64/defaults"
expect_in "$work/out" "FAIL  check_options/u8/defaults: check_options for u8 refuses no options (the defaults): "
expect_in "$work/out" "; rule: check-options, when offered, accepts the default options for every declared dtype"
# A format of independent blocks (tests/plugins/coded_blocks.cpp, 1 MiB
# blocks by default, a block_size option): read-at and read-box also run on
# a large file and over the option sweep. Its read-at that decodes the block
# before the one asked for (FB_BLOCKS_FAULT=block_before) passes on 10007
# f64 (80 KB: one block), and fails on the large file and with block_size
# set small; without the fault everything passes.
BL="$FB_TEST_PLUGINS/libfb_coded_blocks.so"
expect_status 0 "$FB" check-plugin "$BL" --only 'read_*'
expect_in "$work/out" "pass  read_at/f64/large (524289 elements, a large file)"
expect_in "$work/out" "pass  read_at/f64/block_size=64 (10007 elements)"
expect_in "$work/out" "pass  read_box/f64/block_size=4097 (12297 elements as 3x4099)"
expect_in "$work/out" "pass  read_at/f64/preset=0 (10007 elements)"
got=0
FB_BLOCKS_FAULT=block_before "$FB" check-plugin "$BL" --only 'read_at/*' --only 'read_box/*' >"$work/out" 2>"$work/err" || got=$?
[ "$got" = 1 ] || { cat "$work/out" "$work/err"; fail "FB_BLOCKS_FAULT=block_before: expected exit 1, got $got"; }
grep -qx "pass  read_at/f64" "$work/out" || { cat "$work/out"; fail "read_at/f64 (one block) did not pass"; }
expect_in "$work/out" "FAIL  read_at/f64/large: read_at(524288, 1): element 524288: read() gave "
expect_in "$work/out" "FAIL  read_box/f64/large: read_box("
expect_in "$work/out" "FAIL  read_at/f64/block_size=64: read_at("
expect_in "$work/out" "FAIL  read_at/f64/block_size=4097: read_at("
expect_in "$work/out" "FAIL  read_box/f64/block_size=4097: read_box("
expect_in "$work/out" "; rule: read-at gives the elements read gives, at any offset and the same bytes every time"
# A plugin that offers read-at only with some option value (zstd: frames:
# independent) is checked over the sweep with that value added.
ZS="$(dirname "$FB")/../plugins/libfb_zstd.so"
if [ -f "$ZS" ]; then
  expect_status 0 "$FB" check-plugin "$ZS" --only 'read_at/f64/frame_size=*'
  expect_in "$work/out" "pass  read_at/f64/frame_size=65536 (32769 elements, 4 x frame_size; with frames=independent, without which read-at is refused)"
fi

# An option whose values all write the same bytes is named in a warning
# (validated but ignored: FB_BLOCKS_FAULT=ignore_preset), which does not
# fail the plugin; options that change the file pass without one.
expect_status 0 "$FB" check-plugin "$BL" --only 'option_effect/*'
expect_in "$work/out" "pass  option_effect/preset"
expect_in "$work/out" "pass  option_effect/block_size"
expect_not_in "$work/out" "WARN"
expect_not_in "$work/out" "warning"
FB_BLOCKS_FAULT=ignore_preset expect_status 0 "$FB" check-plugin "$BL" --only 'option_effect/*'
expect_in "$work/out" "WARN  option_effect/preset: option 'preset': its values 6 (the default), 0, 9, 4, 1, 7 wrote byte-identical files (12289 elements of f64), also with each value of every other option: it is validated but ignored"
expect_in "$work/out" "pass  option_effect/block_size"
expect_in "$work/out" "coded_blocks 1.0.0: 2 passed, 0 failed (1 warning, reasons above)"
expect_in "$work/out" "warning: option_effect/preset: option 'preset': "
FB_BLOCKS_FAULT=ignore_preset expect_status 0 "$FB" check-plugin "$BL" --only 'option_effect/*' --json
$PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = {c["name"]: c["status"] for c in d["checks"]}
assert d["ok"] and d["warnings"] == 1 and s["option_effect/preset"] == "warning" and s["option_effect/block_size"] == "passed", d
' "$work/out" || fail "check-plugin --json did not report the warning"
# A real compressor's level changes its files: no warning.
ZL="$(dirname "$FB")/../plugins/libfb_zlib.so"
if [ -f "$ZL" ]; then
  expect_status 0 "$FB" check-plugin "$ZL" --only 'option_effect/level'
  expect_in "$work/out" "pass  option_effect/level"
  expect_not_in "$work/out" "WARN"
fi

# O_DIRECT on a file system that refuses it (tmpfs at /dev/shm, when there
# is one): not applicable, with the reason, never a silent pass.
if [ -d /dev/shm ] && [ -w /dev/shm ] && ! python3 -c 'import os,sys; f=sys.argv[1]+"/p"; open(f,"w").write("x"*4096); os.close(os.open(f, os.O_RDONLY|os.O_DIRECT))' "$(mktemp -d /dev/shm/fb-odirect-XXXXXX)" 2>/dev/null; then
  rm -rf /dev/shm/fb-odirect-*
  shm=$(mktemp -d /dev/shm/fb-check-XXXXXX)
  expect_status 0 env TMPDIR="$shm" "$FB" check-plugin "$RA" --only 'direct_io/f64'
  expect_in "$work/out" "skip  direct_io/f64: not applicable: the file system of $shm/"
  expect_in "$work/out" "refuses O_DIRECT (Invalid argument)"
  rm -rf "$shm"
else
  rm -rf /dev/shm/fb-odirect-*
fi

# describe PATH works like check-plugin PATH: a file loads that file, an id
# is looked up on the search path.
expect_status 0 "$FB" describe "$M"
expect_in "$work/out" "misbehave 1.0.0"
expect_in "$work/out" "$M"
expect_status 0 "$FB" describe "$M" --json
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["id"]=="misbehave" and d["path"]==sys.argv[2], d' "$work/out" "$M" \
  || fail "describe PATH --json"
expect_status 2 "$FB" describe "$work/no/such.so"
expect_in "$work/err" "describe: '$work/no/such.so' is neither a file nor the id of a plugin on the search path"
expect_status 2 "$FB" describe "$FB_BROKEN_PLUGINS/libbroken_abi2.so"
expect_in "$work/err" "describe: cannot load '$FB_BROKEN_PLUGINS/libbroken_abi2.so': plugin ABI 2.0, this formatbench speaks 1.x"
expect_status 0 "$FB" --plugin-path "$FB_TEST_PLUGINS" describe misbehave
expect_in "$work/out" "misbehave 1.0.0"

# The default time limit is 10 s per check (docs/plugin-guide.md).
expect_status 1 "$FB" check-plugin "$M" --only 'round_trip/f64/*/w3/r4097/mode=hang'
expect_in "$work/out" "hung: no result within 10 s; rule: every call returns within the time limit (--timeout)"
echo "check-plugin: ok"

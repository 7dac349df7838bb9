#!/usr/bin/env bash
# The CLI's contract: --version, --help everywhere, exit codes, unknown ids.
source "$(dirname "$0")/lib.sh"

expect_status 0 "$FB" --version
expect_in "$work/out" "formatbench "
for sub in plugins describe plan run; do
  expect_status 0 "$FB" "$sub" --help
  expect_in "$work/out" "Usage"
done
expect_status 2 "$FB"
expect_status 2 "$FB" no-such-command
expect_status 2 "$FB" describe zlb
expect_in "$work/err" "unknown plugin 'zlb' (did you mean 'zlib'?)"
expect_in "$work/err" "known plugins:"
expect_status 0 "$FB" plugins
for id in ascii raw mmap zlib memory; do expect_in "$work/out" "$id "; done
# The ACCESS column (docs/config.md: the access patterns a plugin can read):
# whole only without random access; the block patterns with read-at; plane
# with read-box.
grep -qE '^ID +VERSION +DTYPES +CAPABILITIES +ACCESS +PATH$' "$work/out" || { cat "$work/out"; fail "plugins: no ACCESS column"; }
grep -qE '^ascii .* whole +/' "$work/out" || { cat "$work/out"; fail "plugins: ascii's access is not 'whole'"; }
expect_status 0 "$FB" --plugin-path "${FB_TEST_PLUGINS:?}" plugins
grep -qE '^read_at .* whole,sequential,random,strided,plane +/' "$work/out" \
  || { cat "$work/out"; fail "plugins: read_at's access is not every pattern"; }
expect_status 0 "$FB" plugins --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert {p["id"] for p in d} >= {"ascii","raw","mmap","zlib","memory"}' "$work/out" \
  || fail "plugins --json is not the expected JSON"
expect_status 0 "$FB" describe zlib
expect_in "$work/out" "level"
expect_in "$work/out" "range: [0, 9]"
# A broken plugin on the path is reported and skipped; the good ones still list.
expect_status 0 "$FB" --plugin-path "$FB_BROKEN_PLUGINS" plugins
expect_in "$work/err" "libbroken_abi2.so: plugin ABI 2.0, this formatbench speaks 1.x"
expect_in "$work/out" "zlib"
# The build tree's binary finds a ready study by name in the source tree's configs/.
(cd "$work" && expect_status 0 "$FB" plan scaling)
expect_in "$work/out" "study scaling ($FB_SOURCE_ROOT/configs/scaling.yaml)"
# Every ready study plans (this build has every plugin they name, and its
# file system every feature they ask for); scaling's calibration above runs
# its cases, the others' are left out (bench/plan-estimate.py times them).
for f in "$FB_SOURCE_ROOT"/configs/*.yaml; do
  name=${f##*/}; name=${name%.yaml}
  (cd "$work" && expect_status 0 "$FB" plan "$name" --no-calibrate)
  grep -q "^study $name (" "$work/out" || fail "plan $name does not name the study"
  if grep -q "skipped" "$work/err"; then cat "$work/err"; fail "plan $name skips formats of this full build"; fi
done
# --plugin-path and run's --set take one value per flag: the word after them stays an argument.
expect_status 0 "$FB" describe --plugin-path "$FB_TEST_PLUGINS" misbehave
expect_in "$work/out" "misbehave"
expect_status 2 "$FB" run --set repeat=1 scaling --json "$work/missing/r.json"
expect_in "$work/err" "--json: json output '$work/missing/r.json': folder '$work/missing' does not exist"
echo "cli basics: ok"

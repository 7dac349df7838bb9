#!/usr/bin/env bash
# A plugin in Python as a third party writes it, with formatbench installed
# (into a temporary prefix) and nothing built: `new-plugin NAME --lang
# python` writes fb_NAME.py and a README, and the INSTALLED check-plugin
# passes on the module as written, through the generic Python bridge
# installed in the plugin folder's python subfolder (which `plugins` does
# not list). A module with a bad OPTIONS entry fails the load check naming
# the file and the entry; one whose write stores other bytes fails its
# round trips; a file not named fb_NAME.py is refused with what to do.
# Registered only where the Python bridge is built (tests/cli/meson.build).
source "$(dirname "$0")/lib.sh"
SRC=${FB_SOURCE_ROOT:?}
source "$(dirname "$0")/sdk_prefix.sh"
# Loading the generic bridge runs describe_module (a Python start) in the
# load probe: the default probe timeout, not the 1 s cli_env sets for the
# broken plugins, which this test does not load.
export FORMATBENCH_LOAD_TIMEOUT=10

# 1. Installed: the generic bridge and describe_module, beside the modules
# of the built Python plugins, not in the plugin folder itself.
[ -f "$plugindir/python/libfb_python_module.so" ] || fail "no generic bridge at $plugindir/python/libfb_python_module.so"
[ -x "$plugindir/python/describe_module" ] || fail "no describe_module at $plugindir/python/describe_module"
[ ! -e "$plugindir/libfb_python_module.so" ] || fail "the generic bridge is in the plugin folder itself"
expect_status 0 "$bin" plugins
if grep -qE "python_module|py-module" "$work/out" "$work/err"; then cat "$work/out" "$work/err"; fail "plugins lists the generic bridge"; fi
expect_in "$work/out" "$plugindir/libfb_raw.so"

# 2. new-plugin NAME --lang python: '-' as '_' in the module's name, the
# plugin py-NAME; exactly the module and the README.
np="$work/np"
expect_status 0 "$bin" new-plugin my-fmt --lang python --dir "$np"
expect_in "$work/out" "wrote plugin 'py-my-fmt'"
expect_in "$work/out" "formatbench check-plugin fb_my_fmt.py"
[ "$(ls -A "$np" | sort | tr '\n' ' ')" = "README.md fb_my_fmt.py " ] || { ls -A "$np"; fail "expected README.md and fb_my_fmt.py"; }
if grep -rnF '{{' "$np"; then fail "a template placeholder was left"; fi
expect_in "$np/README.md" "formatbench check-plugin fb_my_fmt.py"
expect_in "$np/README.md" "plugins/python/meson.build"
# --build means nothing for a module: refused, nothing written.
expect_status 2 "$bin" new-plugin other --lang python --build cmake --dir "$work/other"
expect_in "$work/err" "--build"
[ ! -e "$work/other" ] || fail "a refused --build wrote $work/other"

# 3. (a) check-plugin on the module as written, as its README says (the
# relative path, from its folder): every check passes, the report names the
# .py file and the plugin py-my-fmt with the module's VERSION.
(cd "$np" && expect_status 0 "$bin" check-plugin fb_my_fmt.py --quick)
head -n 1 "$work/out" | grep -qx "check-plugin fb_my_fmt.py (quick)" || { cat "$work/out"; fail "the report does not name the module"; }
expect_in "$work/out" "pass  round_trip/f64/"
expect_in "$work/out" "pass  read_at/"
grep -qE "^py-my-fmt 0\.1\.0: [0-9]+ passed, 0 failed" "$work/out" || { cat "$work/out"; fail "check-plugin did not pass"; }
(cd "$np" && expect_status 0 "$bin" check-plugin fb_my_fmt.py --quick --json --only 'round_trip/f32/*')
"$PY" - "$work/out" <<'PY' || fail "the JSON report does not name the module"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["file"] == "fb_my_fmt.py" and r["plugin"] == "py-my-fmt" and r["ok"] and r["failed"] == 0, r
assert r["passed"] >= 3, r
PY

# 4. (b) A bad OPTIONS entry (an unknown type): the load check fails with
# the module's file and the entry; exit 1.
sed 's/("buffer", "size",/("buffer", "bytes",/' "$np/fb_my_fmt.py" >"$work/fb_bad_options.py"
grep -q '"bytes"' "$work/fb_bad_options.py" || fail "could not plant the bad OPTIONS entry"
expect_status 1 "$bin" check-plugin "$work/fb_bad_options.py" --quick
expect_in "$work/out" "FAIL  load: python module 'fb_bad_options' ($work/fb_bad_options.py): OPTIONS entry 0 ('buffer'): type 'bytes' is not one of"
expect_in "$work/out" "reproduce: formatbench check-plugin $work/fb_bad_options.py --quick --only load"

# 5. (c) write stores zeros instead of the chunk: round trips fail.
sed 's/self\.file\.write(array)  # the chunk/self.file.write(bytes(array.nbytes))  # the chunk/' \
  "$np/fb_my_fmt.py" >"$work/fb_planted.py"
grep -q 'bytes(array.nbytes)' "$work/fb_planted.py" || fail "could not plant the wrong write"
expect_status 1 "$bin" check-plugin "$work/fb_planted.py" --quick --only 'round_trip/*'
grep -qE "^FAIL  round_trip/f64/n[1-9]" "$work/out" || { cat "$work/out"; fail "no failed round trip"; }
expect_in "$work/out" "reproduce: formatbench check-plugin $work/fb_planted.py --quick --only"
grep -qE "^py-planted 0\.1\.0: [0-9]+ passed, [1-9][0-9]* failed" "$work/out" || { cat "$work/out"; fail "no failure counted"; }

# 6. A file not named fb_NAME.py: a usage error naming it and what to do.
cp "$np/fb_my_fmt.py" "$work/My-Format.py"
expect_status 2 "$bin" check-plugin "$work/My-Format.py"
expect_in "$work/err" "$work/My-Format.py"
expect_in "$work/err" "rename it, e.g. to fb_my_format.py"

# 7. The generic bridge checked as a library, without the variable: it
# loads (a valid descriptor, py-module) and every open fails, saying why.
env -u FORMATBENCH_PYTHON_MODULE "$bin" check-plugin "$plugindir/python/libfb_python_module.so" --quick \
  --only 'round_trip/f64/n1/wall/rall' >"$work/out" 2>"$work/err" && fail "the generic bridge without a module passed"
expect_in "$work/out" "py-module 0: 0 passed, 1 failed"
expect_in "$work/out" "FAIL  round_trip/f64/n1/wall/rall: write failed: plugin 'py-module'"
expect_in "$work/out" "FORMATBENCH_PYTHON_MODULE names, and it is not set: run formatbench check-plugin fb_NAME.py"

# 8. The build tree's formatbench finds its own generic bridge (build/plugins/python).
expect_status 0 "$FB" check-plugin "$SRC/tests/plugin_python/fb_guide_bytes.py" --quick --only 'round_trip/f64/*'
grep -qE "^py-guide-bytes 1\.0: [0-9]+ passed, 0 failed" "$work/out" || { cat "$work/out"; fail "the build tree's check-plugin on fb_guide_bytes.py"; }
echo "python plugin: ok"

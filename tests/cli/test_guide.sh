#!/usr/bin/env bash
# docs/plugin-guide.md cannot drift: every fenced code block in it must carry
# a marker on its first line, `guide: file=NAME` (written to NAME; blocks of
# one NAME are joined in order) or `guide: run` (run with bash, in order, in
# that folder). The files are built against the SDK installed into a
# temporary prefix (Meson and CMake, through pkg-config), and the run blocks
# run check-plugin on the results, which must pass.
source "$(dirname "$0")/lib.sh"
SRC=${FB_SOURCE_ROOT:?}
source "$(dirname "$0")/sdk_prefix.sh"
guide="$SRC/docs/plugin-guide.md"
out="$work/guide"
mkdir -p "$out"
"$PY" - "$guide" "$out" <<'PY' || fail "extracting the code blocks of $guide"
import re, sys, pathlib
text = pathlib.Path(sys.argv[1]).read_text()
out = pathlib.Path(sys.argv[2])
blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)
if not blocks:
    sys.exit("no code blocks found")
files, runs = {}, []
for lang, body in blocks:
    first = body.splitlines()[0] if body else ""
    m = re.match(r"^\s*(?://|#|/\*)\s*guide:\s*(file=(\S+)|run)\b", first)
    if not m:
        sys.exit(f"a ```{lang} block has no 'guide: file=NAME' or 'guide: run' marker: {first!r}")
    if m.group(2):
        files.setdefault(m.group(2), []).append(body)
    else:
        runs.append(body)
for name, parts in files.items():
    (out / name).write_text("".join(parts))
for i, body in enumerate(runs):
    (out / f"run-{i:02d}.sh").write_text(body)
print(f"{len(blocks)} blocks: files {sorted(files)}, {len(runs)} run blocks")
PY
[ -f "$out/guide_plugin.cpp" ] && [ -f "$out/meson.build" ] && [ -f "$out/CMakeLists.txt" ] \
  || fail "the guide no longer has the plugin, meson.build and CMakeLists.txt blocks"
export PATH="$(dirname "$bin"):$PATH"
for script in "$out"/run-*.sh; do
  echo "--- $(basename "$script")"
  (cd "$out" && bash -euo pipefail "$script") >"$work/run.log" 2>&1 \
    || { cat "$work/run.log"; fail "guide block $(basename "$script") failed"; }
  grep -E "passed, [0-9]+ failed" "$work/run.log" || true
done
[ -f "$plugindir/libfb_guide.so" ] || fail "the guide's meson install did not put the plugin into plugindir"
# The Meson-built plugin, once more, by id from the installed folder.
expect_status 0 "$bin" check-plugin guide --quick
expect_in "$work/out" "guide 1.0.0: "
expect_in "$work/out" " passed, 0 failed"
echo "plugin guide: ok"

#!/usr/bin/env bash
# docs/plugin-guide.md cannot drift: every fenced code block in it must carry
# a marker on its first line, `guide: file=NAME` (written to NAME; blocks of
# one NAME are joined in order), `guide: run` (run with bash, in order, in
# that folder) or `guide: excerpt=PATH` (the rest of the block must appear
# verbatim in PATH of the source tree: the examples it quotes). The files are
# built against the SDK installed into a temporary prefix (Meson and CMake,
# through pkg-config), and the run blocks run check-plugin on the results,
# which must pass. The guide also states plugin.h's thread rule word for
# word, and shows every option helper of plugin.hpp with its signature.
source "$(dirname "$0")/lib.sh"
SRC=${FB_SOURCE_ROOT:?}
source "$(dirname "$0")/sdk_prefix.sh"
guide="$SRC/docs/plugin-guide.md"
out="$work/guide"
mkdir -p "$out"
"$PY" - "$guide" "$out" "$SRC" <<'PY' || fail "extracting the code blocks of $guide"
import re, sys, pathlib
text = pathlib.Path(sys.argv[1]).read_text()
out = pathlib.Path(sys.argv[2])
src = pathlib.Path(sys.argv[3])
blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)
if not blocks:
    sys.exit("no code blocks found")
files, runs, excerpts = {}, [], []
for lang, body in blocks:
    first = body.splitlines()[0] if body else ""
    m = re.match(r"^\s*(?://|#|/\*)\s*guide:\s*(file=(\S+)|run|excerpt=(\S+))", first)
    if not m:
        sys.exit(f"a ```{lang} block has no 'guide: file=NAME', 'guide: run' or 'guide: excerpt=PATH' marker: {first!r}")
    if m.group(3):
        quoted = body.split("\n", 1)[1]
        if quoted not in (src / m.group(3)).read_text():
            sys.exit(f"a ```{lang} block is no longer an excerpt of {m.group(3)}; it begins: {quoted[:200]!r}")
        excerpts.append(m.group(3))
    elif m.group(2):
        files.setdefault(m.group(2), []).append(body)
    else:
        runs.append(body)
for name, parts in files.items():
    (out / name).write_text("".join(parts))
for i, body in enumerate(runs):
    (out / f"run-{i:02d}.sh").write_text(body)
print(f"{len(blocks)} blocks: files {sorted(files)}, {len(runs)} run blocks, "
      f"{len(excerpts)} excerpts of {sorted(set(excerpts))}")

# plugin.h's thread rule, word for word wherever the guide states it
# (whitespace, list and blockquote markers aside).
header = (src / "core/include/formatbench/plugin.h").read_text()
m = re.search(r"^ \*  - (Threads:.*?)(?=^ \*  - |^ \*$|^ \*/)", header, flags=re.S | re.M)
if not m:
    sys.exit("plugin.h has no ' *  - Threads:' rule")
rule = " ".join(re.sub(r"^ \*\s*", "", l) for l in m.group(1).splitlines()).split()
words = " ".join(re.sub(r"^\s*(> |- )?", "", l) for l in text.splitlines()).split()
starts = [i for i in range(len(words)) if words[i:i + 4] == rule[:4]]
if not starts:
    sys.exit("the guide does not state plugin.h's thread rule ('" + " ".join(rule[:4]) + " ...')")
for i in starts:
    if words[i:i + len(rule)] != rule:
        sys.exit("the guide's thread rule differs from plugin.h's:\n  plugin.h: " + " ".join(rule)
                 + "\n  guide:    " + " ".join(words[i:i + len(rule)]))

# Every option helper of plugin.hpp, with its parameters as declared.
hpp = (src / "core/include/formatbench/plugin.hpp").read_text()
helpers = re.findall(r"fb_option_decl (option_\w+)\(([^)]*)\)", hpp)
assert len(helpers) >= 6, helpers
for name, params in helpers:
    sig = f"{name}({' '.join(params.split())})"
    if f"`{sig}`" not in text:
        sys.exit(f"the guide does not show `{sig}` (plugin.hpp's signature)")
print(f"thread rule stated {len(starts)} times as plugin.h words it; {len(helpers)} option helpers shown with their signatures")
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

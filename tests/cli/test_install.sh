#!/usr/bin/env bash
# `meson install` into a temporary prefix: the installed binary finds its
# installed plugins with no environment variable, and the SDK (headers and
# formatbench-plugin.pc with plugindir) is there for plugin authors. The
# ready studies, the docs and README.md are installed, found relative to the binary
# (`formatbench run scaling`), named by --help; the bash completion offers
# subcommands, flags, plugin ids, study names and plugin option names.
# (The man page and the zsh completion: test_install_man.sh, test_install_zsh.sh.)
source "$(dirname "$0")/lib.sh"
BUILD=${FB_BUILD_ROOT:?}
dest="$work/dest"
meson install -C "$BUILD" --no-rebuild --destdir "$dest" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; fail "meson install failed"; }
option() { # option NAME: a build option's value
  meson introspect "$BUILD" --buildoptions \
    | /usr/bin/python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]==sys.argv[1]))' "$1"
}
prefix=$(option prefix)
datadir="$dest$prefix/$(option datadir)"
bin="$dest$prefix/bin/formatbench"
[ -x "$bin" ] || fail "no installed binary at $bin"
unset FORMATBENCH_PLUGIN_PATH
expect_status 0 "$bin" plugins
for id in ascii raw mmap zlib memory; do expect_in "$work/out" "$id "; done
expect_in "$work/out" "$dest$prefix/lib"
expect_in "$work/out" "/formatbench/plugins-1/"
pc=$(find "$dest" -name formatbench-plugin.pc | head -n 1)
[ -n "$pc" ] || fail "formatbench-plugin.pc not installed"
[ -f "$(find "$dest" -path '*include/formatbench/plugin.h' | head -n 1)" ] || fail "plugin.h not installed"
[ -f "$(find "$dest" -path '*include/formatbench/plugin.hpp' | head -n 1)" ] || fail "plugin.hpp not installed"
[ -f "$(find "$dest" -path '*include/formatbench/posix_file.hpp' | head -n 1)" ] || fail "posix_file.hpp not installed"
plugindir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$dest$prefix" --variable=plugindir formatbench-plugin)
[ -f "$plugindir/libfb_zlib.so" ] || fail "pkg-config plugindir '$plugindir' does not hold the plugins"

# ---- the ready studies and the docs, every one of the source tree's
for f in "$FB_SOURCE_ROOT"/configs/*.yaml; do
  cmp -s "$f" "$datadir/formatbench/configs/${f##*/}" || fail "configs/${f##*/} not installed in $datadir/formatbench/configs"
done
for f in "$FB_SOURCE_ROOT"/docs/*.md "$FB_SOURCE_ROOT"/docs/results-schema.json; do
  cmp -s "$f" "$datadir/doc/formatbench/${f##*/}" || fail "docs/${f##*/} not installed in $datadir/doc/formatbench"
done
cmp -s "$FB_SOURCE_ROOT/README.md" "$datadir/doc/formatbench/README.md" \
  || fail "README.md not installed in $datadir/doc/formatbench"

# ---- --help names the installed folders, never the source tree
# The ready studies' names, sorted, from the source tree's configs/.
names=$(cd "$FB_SOURCE_ROOT/configs" && ls -1 *.yaml | sed 's/\.yaml$//' | LC_ALL=C sort)
listed=$(echo $names | sed 's/ /, /g')
expect_status 0 "$bin" --help
expect_in "$work/out" "$datadir/doc/formatbench"
expect_in "$work/out" "$datadir/formatbench/configs"
expect_in "$work/out" "($listed)"
if grep -F -- "$FB_SOURCE_ROOT" "$work/out"; then fail "the installed --help names the source tree"; fi
expect_status 0 "$bin" run --help
expect_in "$work/out" "ready study ($listed)"

# ---- a study by name, from any folder: the installed file, not the source tree's
mkdir "$work/cwd" && cd "$work/cwd"
expect_status 0 "$bin" plan scaling
expect_in "$work/out" "study scaling ($datadir/formatbench/configs/scaling.yaml)"
mkdir "$work/data"
expect_status 0 "$bin" run scaling --set datasets.0.count=1000 --set repeat=1 --set warmup=0 --set min_time=0 \
  --directory "$work/data" --json "$work/scaling.json" --no-console
/usr/bin/python3 - "$work/scaling.json" "$datadir/formatbench/configs/scaling.yaml" <<'PY' || fail "run scaling did not run the installed study"
import json, os, sys
study = json.load(open(sys.argv[1]))['study']
assert study['name'] == 'scaling', study['name']
assert os.path.realpath(study['source']) == os.path.realpath(sys.argv[2]), study['source']
PY
# An unknown name lists the installed studies and where they were looked for.
expect_status 2 "$bin" run scalng
expect_in "$work/err" "study 'scalng': no such file, and no ready study of that name (did you mean 'scaling'?)"
expect_in "$work/err" "the ready studies (in $datadir/formatbench/configs) are: $listed"
# A file of that name in the working directory comes first ...
printf 'name: mine\ndatasets: [{dtype: u8, count: 10}]\nformats: [memory]\n' >scaling
expect_status 0 "$bin" plan scaling
expect_in "$work/out" "study mine (scaling)"
# ... a folder of that name does not hide the ready study ...
rm scaling && mkdir scaling
expect_status 0 "$bin" plan scaling
expect_in "$work/out" "study scaling ($datadir/formatbench/configs/scaling.yaml)"
# ... and a name with a slash or a .yaml suffix is always a path.
expect_status 2 "$bin" plan ./cache
expect_in "$work/err" "cannot read study './cache'"
expect_status 2 "$bin" plan cache.yaml
expect_in "$work/err" "cannot read study 'cache.yaml'"
cd "$work"

# ---- bash completion, as installed, completing the installed binary
completion="$datadir/bash-completion/completions/formatbench"
[ -f "$completion" ] || fail "no bash completion at $completion"
complete_words() { # complete_words WORD...: COMPREPLY for the last WORD, one per line, in $work/reply
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _formatbench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@" >"$work/reply" 2>"$work/err" || { cat "$work/err"; fail "completion of '$*' failed"; }
  [ ! -s "$work/err" ] || { cat "$work/err"; fail "completion of '$*' wrote to stderr"; }
}
expect_line() { grep -qxF -- "$1" "$work/reply" || { echo "--- completion"; cat "$work/reply"; fail "'$1' not offered"; }; }
complete_words "$bin" ""
for sub in plugins describe plan run check-plugin compare report; do expect_line "$sub"; done
complete_words "$bin" describe ""
for id in ascii raw mmap zlib memory; do expect_line "$id"; done
complete_words "$bin" describe z
expect_line zlib
grep -qx raw "$work/reply" && fail "'raw' offered for 'describe z'"
complete_words "$bin" --plugin-path "$FB_TEST_PLUGINS" check-plugin ""
expect_line misbehave # a test plugin, found through --plugin-path
complete_words "$bin" run ""
for name in cache chunks compression scaling stream-io; do expect_line "$name"; done
complete_words "$bin" compare --format ""
for f in table json markdown; do expect_line "$f"; done
complete_words "$bin" run --set formats.0.options.lev
expect_line formats.0.options.level=
# Every flag of `run --help` (and the global ones) is offered after `run --`.
complete_words "$bin" run --
"$bin" run --help | grep -oE '^  -[-a-z,]+' | tr ',' '\n' | sed 's/^ *//' | grep -- '^--' >"$work/run-flags"
[ "$(wc -l <"$work/run-flags")" -gt 10 ] || fail "could not read the flags of run --help"
while read -r flag; do expect_line "$flag"; done <"$work/run-flags"
for flag in --plugin-path --quiet; do expect_line "$flag"; done
echo "install: ok"

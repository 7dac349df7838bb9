#!/usr/bin/env bash
# `formatbench new-plugin`, as a plugin author meets it: formatbench is
# installed into a temporary prefix, and the INSTALLED binary writes a plugin
# in each of the four combinations (C, C++ x Meson, CMake). Each one builds
# against the installed SDK only (pkg-config, nothing of the source tree)
# with its own ci.sh, which must pass formatbench check-plugin; each
# installs into the SDK's plugindir (and under DESTDIR, for packaging), and
# formatbench finds it there. The README's study runs; a plugin broken on
# purpose makes ci.sh fail. The command itself: NAME validation, a non-empty
# folder refused unless --force (and nothing else touched), every template
# file used, no placeholder left, the templates installed as they are.
source "$(dirname "$0")/lib.sh"
SRC=${FB_SOURCE_ROOT:?}
command -v cmake >/dev/null || { echo "SKIP: no cmake (scripts/setup-debian.sh installs it)"; exit 77; }
source "$(dirname "$0")/sdk_prefix.sh"
np="$work/np"
mkdir -p "$np"

# 1. The templates are installed as they are in the source tree.
diff -r "$SRC/share/templates" "$dest$prefix/share/formatbench/templates" \
  || fail "the installed templates differ from share/templates"

# 2. The four combinations: written, built by their ci.sh, checked, installed.
for lang in c cpp; do
  for build in meson cmake; do
    name="t_${lang}_${build}"
    dir="$np/$name"
    expect_status 0 "$bin" new-plugin "$name" --lang "$lang" --build "$build" --dir "$dir"
    expect_in "$work/out" "wrote plugin '$name'"
    expect_in "$work/out" "formatbench check-plugin build/libfb_$name.so"
    source_file="$dir/$name.$lang"
    build_file="$dir/$([ "$build" = meson ] && echo meson.build || echo CMakeLists.txt)"
    for f in "$source_file" "$build_file" "$dir/README.md" "$dir/ci.sh" "$dir/.gitignore"; do
      [ -f "$f" ] || fail "$name: new-plugin did not write $f"
    done
    [ -x "$dir/ci.sh" ] || fail "$name: ci.sh is not executable"
    if grep -rnF '{{' "$dir"; then fail "$name: a template placeholder was left"; fi
    [ "$(ls -A "$dir" | wc -l)" = 5 ] || { ls -A "$dir"; fail "$name: expected exactly 5 files"; }

    echo "--- $name: ci.sh"
    (cd "$dir" && FORMATBENCH="$bin" ./ci.sh) >"$work/ci.log" 2>&1 \
      || { cat "$work/ci.log"; fail "$name: ci.sh failed"; }
    grep -E "^$name 0.1.0: [0-9]+ passed, 0 failed" "$work/ci.log" \
      || { cat "$work/ci.log"; fail "$name: check-plugin did not pass"; }
    lib="$dir/build-ci/libfb_$name.so"
    [ -f "$lib" ] || fail "$name: ci.sh built no $lib"
    # Built with the installed headers, never the source tree's.
    grep -rqF -- "$dest$prefix/include" "$dir/build-ci" \
      || fail "$name: the build does not use the installed SDK's include folder"
    if grep -rqF -- "$SRC/core" "$dir/build-ci"; then fail "$name: the build reaches into the source tree"; fi

    # Installed into plugindir, and staged under DESTDIR for a package.
    if [ "$build" = meson ]; then
      meson install -C "$dir/build-ci" >"$work/inst.log" 2>&1 || { cat "$work/inst.log"; fail "$name: meson install"; }
      meson install -C "$dir/build-ci" --destdir "$work/stage" >"$work/inst.log" 2>&1 \
        || { cat "$work/inst.log"; fail "$name: meson install --destdir"; }
    else
      cmake --install "$dir/build-ci" >"$work/inst.log" 2>&1 || { cat "$work/inst.log"; fail "$name: cmake --install"; }
      DESTDIR="$work/stage" cmake --install "$dir/build-ci" >"$work/inst.log" 2>&1 \
        || { cat "$work/inst.log"; fail "$name: DESTDIR=... cmake --install"; }
    fi
    [ -f "$plugindir/libfb_$name.so" ] || fail "$name: not installed into plugindir $plugindir"
    [ -f "$work/stage$plugindir/libfb_$name.so" ] || fail "$name: not staged under DESTDIR at $work/stage$plugindir"
  done
done

# An id with '-', as docs/abi.md allows ([a-z0-9_-]+): the C identifiers
# made of it have '_' instead, in C and in C++; it builds, passes
# check-plugin (--quick) and loads under its own id.
for lang in c cpp; do
  dir="$np/xz-lzma-$lang"
  expect_status 0 "$bin" new-plugin xz-lzma --lang "$lang" --dir "$dir"
  grep -q "xz_lzma_" "$dir/xz-lzma.$lang" || fail "xz-lzma ($lang): no C identifier xz_lzma_..."
  if grep -nE "xz-lzma_|[A-Za-z_]xz-lzma" "$dir/xz-lzma.$lang"; then fail "xz-lzma ($lang): '-' in an identifier"; fi
  (cd "$dir" && FORMATBENCH="$bin" ./ci.sh --quick) >"$work/ci.log" 2>&1 \
    || { cat "$work/ci.log"; fail "xz-lzma ($lang): ci.sh failed"; }
  grep -E "^xz-lzma 0.1.0: [0-9]+ passed, 0 failed" "$work/ci.log" \
    || { cat "$work/ci.log"; fail "xz-lzma ($lang): check-plugin did not pass"; }
  FORMATBENCH_PLUGIN_PATH="$dir/build-ci" expect_status 0 "$bin" describe xz-lzma
  expect_in "$work/out" "xz-lzma 0.1.0"
done

# 3. The installed formatbench finds all four in its plugin folder, with their option.
expect_status 0 "$bin" plugins
for n in t_c_meson t_c_cmake t_cpp_meson t_cpp_cmake; do expect_in "$work/out" "$plugindir/libfb_$n.so"; done
expect_status 0 "$bin" describe t_c_cmake
expect_in "$work/out" "buffer_size"

# 4. The README's study runs as written (before installing: FORMATBENCH_PLUGIN_PATH).
"$PY" - "$np/t_cpp_meson/README.md" "$work/study.yaml" <<'PY' || fail "no yaml block in the README"
import re, sys
blocks = re.findall(r"^```yaml\n(.*?)^```", open(sys.argv[1]).read(), flags=re.S | re.M)
assert len(blocks) == 1, blocks
open(sys.argv[2], "w").write(blocks[0])
PY
(cd "$work" && FORMATBENCH_PLUGIN_PATH="$np/t_cpp_meson/build-ci" expect_status 0 "$bin" run study.yaml --set repeat=1)
expect_in "$work/out" "t_cpp_meson-64k"
if grep -q "FAIL" "$work/out"; then cat "$work/out"; fail "a case of the README's study failed"; fi

# 5. ci.sh fails when check-plugin fails: a copy whose reader calls a
# truncated file a bug of its own (FB_E_INTERNAL).
cp -r "$np/t_c_meson" "$np/broken"
rm -rf "$np/broken/build-ci"
sed -i 's/FB_E_TRUNCATED/FB_E_INTERNAL/g' "$np/broken/t_c_meson.c"
got=0; (cd "$np/broken" && FORMATBENCH="$bin" ./ci.sh --quick) >"$work/ci.log" 2>&1 || got=$?
[ "$got" = 1 ] || { cat "$work/ci.log"; fail "ci.sh on a broken plugin exited $got, expected 1"; }
expect_in "$work/ci.log" "FAIL  read_error/truncated_file"

# 6. Every file of the template folder is compiled in and used: each one's
# output is in a folder written above (a file missing from share/meson.build
# would not be). The Python variant is written here (test_python_plugin.sh
# checks it, where the Python bridge is built).
expect_status 0 "$bin" new-plugin t_python --lang python --dir "$np/t_python"
(cd "$SRC/share/templates/plugin" && find . -type f | sed 's|^\./||') | while read -r t; do
  variant=${t%%/*}; rest=${t#*/}
  case $variant in
    common | c | meson) combo=t_c_meson ;;
    cpp) combo=t_cpp_meson ;;
    cmake) combo=t_c_cmake ;;
    python) combo=t_python ;;
    *) fail "template $t: unknown variant folder '$variant'" ;;
  esac
  out=$(echo "$rest" | sed "s/{{name}}/$combo/g; s/{{ident}}/$combo/g; s|^dot-|.|; s|/dot-|/.|g")
  [ -f "$np/$combo/$out" ] || fail "template $t was not written (as $combo/$out): is it in share/meson.build?"
done

# 7. NAME: refused with exit 2, a reason and a suggestion; nothing written.
cd "$work"
for bad in Foo 1abc a__b a--b a-_b _a a_ a- "" "a b" abcdefghijklmnopqrstuvwxyzabcdefg; do
  expect_status 2 "$bin" new-plugin "$bad" --dir "$work/bad"
  expect_in "$work/err" "is not a plugin name"
  [ ! -e "$work/bad" ] || fail "new-plugin '$bad' wrote $work/bad"
done
expect_status 2 "$bin" new-plugin My-Format
expect_in "$work/err" "for example 'my-format'"
[ ! -e "$work/My-Format" ] || fail "a refused name left a folder"
expect_status 2 "$bin" new-plugin "My Format"
expect_in "$work/err" "for example 'my_format'"
expect_status 0 "$bin" new-plugin a --dir "$work/one_letter"
expect_status 0 "$bin" new-plugin abcdefghijklmnopqrstuvwxyzabcdef --dir "$work/thirty_two"
expect_status 0 "$bin" new-plugin raw --dir "$work/taken"
expect_in "$work/err" "note: a plugin 'raw' is already on the search path ($plugindir/libfb_raw.so)"
expect_status 2 "$bin" new-plugin ok --lang rust --dir "$work/rust"
[ ! -e "$work/rust" ] || fail "an unknown --lang wrote a folder"

# 8. The folder: the default is ./NAME; an empty one is fine; a non-empty
# one is refused unless --force, which replaces the plugin's files and
# touches nothing else; a file is refused.
expect_status 0 "$bin" new-plugin here
[ -f "$work/here/here.cpp" ] && [ -f "$work/here/meson.build" ] || fail "the default folder is not ./NAME"
mkdir "$work/empty"
expect_status 0 "$bin" new-plugin e --dir "$work/empty"
mkdir "$work/full"
echo mine >"$work/full/notes.txt"
echo "old text" >"$work/full/README.md"
expect_status 2 "$bin" new-plugin f --dir "$work/full"
expect_in "$work/err" "$work/full"
expect_in "$work/err" "--force"
[ "$(ls -A "$work/full" | wc -l)" = 2 ] && grep -qx "old text" "$work/full/README.md" \
  || fail "a refused non-empty folder was changed"
expect_status 0 "$bin" new-plugin f --dir "$work/full" --force
grep -qx mine "$work/full/notes.txt" || fail "--force touched a file that is not the plugin's"
expect_in "$work/full/README.md" "# f: a formatbench format plugin"
: >"$work/plain_file"
expect_status 2 "$bin" new-plugin g --dir "$work/plain_file" --force
expect_in "$work/err" "is not a folder"
echo "new-plugin: ok"

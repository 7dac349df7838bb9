#!/usr/bin/env bash
# `meson install` into a temporary prefix: the installed binary finds its
# installed plugins with no environment variable, and the SDK (headers and
# formatbench-plugin.pc with plugindir) is there for plugin authors.
source "$(dirname "$0")/lib.sh"
BUILD=${FB_BUILD_ROOT:?}
dest="$work/dest"
meson install -C "$BUILD" --no-rebuild --destdir "$dest" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; fail "meson install failed"; }
prefix=$(meson introspect "$BUILD" --buildoptions | python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
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
echo "install: ok"

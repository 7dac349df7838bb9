# Sourced after lib.sh by the SDK tests: installs formatbench into a
# temporary prefix (meson install --destdir) and points pkg-config at it.
# Sets: dest, prefix, bin (the installed formatbench), plugindir, PY, and
# exports PKG_CONFIG_PATH; defines build_option NAME (a build option's
# value). Needs FB_BUILD_ROOT.
BUILD=${FB_BUILD_ROOT:?}
PY=/usr/bin/python3 # Debian's python3-numpy lives here, whatever python3 is first on PATH
dest="$work/dest"
meson install -C "$BUILD" --no-rebuild --destdir "$dest" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; fail "meson install failed"; }
build_option() {
  meson introspect "$BUILD" --buildoptions \
    | "$PY" -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]==sys.argv[1]))' "$1"
}
prefix=$(build_option prefix)
bin="$dest$prefix/bin/formatbench"
[ -x "$bin" ] || fail "no installed binary at $bin"
# The installed .pc says prefix=$prefix; under DESTDIR that is wrong. A copy
# with the prefix line pointed at the staged prefix works whatever the libdir
# layout (pkg-config --define-prefix guesses the prefix from the .pc's folder
# and does not handle a multiarch lib/<triplet>/pkgconfig).
pc=$(find "$dest" -name formatbench-plugin.pc | head -n 1)
[ -n "$pc" ] || fail "formatbench-plugin.pc not installed"
mkdir -p "$work/pc"
sed "s|^prefix=.*|prefix=$dest$prefix|" "$pc" >"$work/pc/formatbench-plugin.pc"
grep -q "^prefix=$dest$prefix\$" "$work/pc/formatbench-plugin.pc" || fail "could not redirect the prefix in $pc"
export PKG_CONFIG_PATH="$work/pc"
plugindir=$(pkg-config --variable=plugindir formatbench-plugin)
case "$plugindir" in "$dest$prefix"/*) ;; *) fail "plugindir '$plugindir' is not under the staged prefix";; esac
unset FORMATBENCH_PLUGIN_PATH

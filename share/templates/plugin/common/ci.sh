#!/usr/bin/env bash
# CI for the {{name}} plugin: builds it against the installed formatbench
# SDK, then runs formatbench's conformance checks on the library it built.
# Exits 0 only when the build succeeds and every check passes, so it can be
# a CI job as it is. Arguments go to check-plugin (e.g. ./ci.sh --quick).
#
# Environment: FORMATBENCH, the formatbench to check with (default: the one
# on PATH); BUILD_DIR, the build folder (default build-ci); PKG_CONFIG_PATH,
# where formatbench-plugin.pc is when formatbench is installed under a
# prefix of its own (<prefix>/lib/<triplet>/pkgconfig).
set -euo pipefail
cd "$(dirname "$0")"
formatbench=${FORMATBENCH:-formatbench}
build=${BUILD_DIR:-build-ci}

command -v "$formatbench" >/dev/null \
  || { echo "ci.sh: '$formatbench' not found: install formatbench or set FORMATBENCH" >&2; exit 2; }
pkg-config --exists formatbench-plugin \
  || { echo "ci.sh: pkg-config finds no formatbench-plugin (the formatbench SDK): set PKG_CONFIG_PATH" >&2; exit 2; }

{{if meson}}
if [ -d "$build/meson-private" ]; then
  meson setup --reconfigure "$build"
else
  meson setup "$build"
fi
meson compile -C "$build"
{{end}}
{{if cmake}}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
{{end}}
"$formatbench" check-plugin "$@" "$build/libfb_{{name}}.so"

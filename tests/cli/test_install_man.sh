#!/usr/bin/env bash
# The installed man page: `man formatbench` finds it through MANPATH in a
# prefix installed with `meson install --destdir`, renders it without a
# groff warning, and it holds every section and the flags of --help
# (tests/cli/check_cli_docs.py compares every flag). SKIP (77) without man
# (Debian: man-db, in scripts/setup-debian.sh).
source "$(dirname "$0")/lib.sh"
command -v man >/dev/null || { echo "SKIP: man is not installed (Debian: man-db)"; exit 77; }
source "$(dirname "$0")/sdk_prefix.sh"
mandir=$(build_option mandir)
page="$dest$prefix/$mandir/man1/formatbench.1"
[ -f "$page" ] || fail "no man page at $page"

# man finds the page by name through MANPATH, and groff renders it cleanly.
MANPATH="$dest$prefix/$mandir" MANWIDTH=100 MANPAGER=cat LC_ALL=C.UTF-8 \
  expect_status 0 man --warnings formatbench
if [ -s "$work/err" ]; then cat "$work/err"; fail "man --warnings reported problems in $page"; fi
for text in "FORMATBENCH(1)" NAME "formatbench - benchmark file formats" SYNOPSIS DESCRIPTION OPTIONS COMMANDS \
  "EXIT STATUS" ENVIRONMENT FILES FORMATBENCH_PLUGIN_PATH "--plugin-path DIR" "--keep-files" "--svg-dir DIR" \
  "check-plugin" "130"; do
  expect_in "$work/out" "$text"
done
# It names the install locations (the prefix it was configured for), not the build or source tree.
expect_in "$work/out" "$prefix/share/doc/formatbench"
if grep -F -e "$FB_SOURCE_ROOT" -e "$BUILD" "$work/out"; then fail "the man page names the source or build tree"; fi
# Every flag of every --help is in the installed page, in its command's section.
"$PY" "$FB_SOURCE_ROOT/tests/cli/check_cli_docs.py" "$bin" "$FB_SOURCE_ROOT/docs/cli.md" "$page" \
  || fail "the installed man page and --help disagree"
echo "install man: ok"

#!/usr/bin/env bash
# The installed zsh completion parses (zsh -n) and, called with zsh's
# completion functions replaced by stubs that print what they are given,
# offers subcommands, flags, plugin ids, ready study names, flag choices and
# plugin option names of the installed binary. SKIP (77) without zsh
# (Debian: zsh, in scripts/setup-debian.sh).
source "$(dirname "$0")/lib.sh"
command -v zsh >/dev/null || { echo "SKIP: zsh is not installed"; exit 77; }
source "$(dirname "$0")/sdk_prefix.sh"
datadir=$(build_option datadir)
completion="$dest$prefix/$datadir/zsh/site-functions/_formatbench"
[ -f "$completion" ] || fail "no zsh completion at $completion"
zsh -n "$completion" || fail "zsh cannot parse $completion"
head -n 1 "$completion" | grep -qx '#compdef formatbench' || fail "$completion does not start with '#compdef formatbench'"

# complete WORD...: what _formatbench offers for the last WORD, one per line.
complete() {
  zsh -f -c '
    _describe() { # _describe [-t TAG] DESCRIPTION ARRAY: prints the ARRAY entries up to ":"
      while [[ $1 == -* ]]; do shift 2; done
      local entry; for entry in "${(@P)2}"; do print -r -- "${entry%%:*}"; done
    }
    compadd() { # compadd [-S s] [-p PREFIX] -- WORDS: prints PREFIX WORD
      local prefix=; while [[ $1 != -- ]]; do [[ $1 == -p ]] && prefix=$2; shift; done; shift
      local w; for w in "$@"; do print -r -- "$prefix$w"; done
    }
    _files() { print -r -- "_files $*"; }
    compdef() { print -r -- "compdef $*"; }
    source "$1"; shift
    words=("$@"); CURRENT=$#
    _formatbench' _ "$completion" "$@" >"$work/reply" 2>"$work/err" || { cat "$work/err"; fail "zsh completion of '$*' failed"; }
  [ ! -s "$work/err" ] || { cat "$work/err"; fail "zsh completion of '$*' wrote to stderr"; }
}
expect_line() { grep -qxF -- "$1" "$work/reply" || { echo "--- completion"; cat "$work/reply"; fail "'$1' not offered"; }; }
complete "$bin" ""
for sub in plugins describe plan run check-plugin compare report; do expect_line "$sub"; done
complete "$bin" describe ""
for id in ascii raw mmap zlib memory; do expect_line "$id"; done
complete "$bin" run ""
for name in cache chunks compression scaling stream-io; do expect_line "$name"; done
expect_line "_files -g *.y(a|)ml"
complete "$bin" run --
for flag in --set --json --resume --keep-files --directory --no-console --plugin-path --quiet; do expect_line "$flag"; done
complete "$bin" compare --format ""
for f in table json markdown; do expect_line "$f"; done
complete "$bin" report -o ""
expect_line "_files "
complete "$bin" run --set formats.0.options.
expect_line formats.0.options.level=
expect_line formats.0.options.notation=
echo "install zsh: ok"

# Shared helpers for the CLI end-to-end tests (sourced, not run).
# FB: the formatbench binary; FB_TEST_PLUGINS: the test plugin folder.
set -euo pipefail
FB=${FB:?FB must name the formatbench binary}
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-cli-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_status CODE CMD...: runs CMD, stdout to $work/out, stderr to $work/err.
expect_status() {
  local want=$1; shift
  local got=0
  "$@" >"$work/out" 2>"$work/err" || got=$?
  if [ "$got" != "$want" ]; then
    echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"
    fail "expected exit $want, got $got from: $*"
  fi
}
expect_in() { # expect_in FILE TEXT
  grep -qF -- "$2" "$1" || { echo "--- $1"; cat "$1"; fail "'$2' not in $1"; }
}
# expect_in_prose FILE TEXT: TEXT in FILE's prose, where the console may have
# wrapped it: line breaks and runs of spaces compare as one space (where a
# verdict wraps depends on the width of the figures in it).
expect_in_prose() {
  tr -s ' \n' '  ' <"$1" | grep -qF -- "$2" || { echo "--- $1"; cat "$1"; fail "'$2' not in $1 (wrapping ignored)"; }
}

#!/usr/bin/env bash
# What plan, compare and describe print on a terminal (issues 43 and 44):
# at COLUMNS 60, 80 and 100 no line is wider (but a single unbreakable word,
# a path) and every split table keeps its key columns; foreign strings (a
# study's label, an option choice and help of a plugin) reach plan,
# describe, compare and the noise warning escaped, as hand-written below;
# under an MPI launcher (OMPI_COMM_WORLD_SIZE) a pseudo-terminal gets no
# colour unless --color always.
source "$(dirname "$0")/lib.sh"
cd "$work"
PY=/usr/bin/python3
unset COLUMNS

# fits WIDTH FILE KEY...: no line of FILE is wider than WIDTH unless it is one
# word; every table (a header line holding the first KEY) holds every KEY.
fits() {
  $PY - "$@" <<'PY' || fail "$2 at COLUMNS=$1"
import sys
width, path, keys = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
lines = open(path, encoding="utf-8").read().splitlines()
for l in lines:
    assert len(l) <= width or len(l.split()) == 1, (width, len(l), l)
headers = [l.split() for l in lines if l.split()[:1] == [keys[0]] or l.split()[1:2] == [keys[0]]]
assert headers, ("no table header", keys)
for h in headers:
    assert all(k in h for k in keys), (h, keys)
PY
}

# ---- the width: plan (a wide study, no calibration), describe, compare
cat > wide.yaml <<'YAML'
name: wide
datasets: [{dtype: f64, count: 1000, distribution: [uniform, smooth]}]
defaults: {repeat: 2, warmup: 0}
formats:
  - raw
  - {plugin: zlib, label: zlib-with-a-rather-long-label, options: {level: [1, 6]}}
YAML
expect_status 0 "$FB" run wide.yaml --json a.json --no-console --progress none
for w in 60 80 100; do
  COLUMNS=$w expect_status 0 "$FB" plan compression --no-calibrate
  fits $w "$work/out" "#" FORMAT
  COLUMNS=$w expect_status 0 "$FB" describe zstd
  fits $w "$work/out" level
  COLUMNS=$w expect_status 0 "$FB" compare a.json a.json
  fits $w "$work/out" format dataset
done
# unlimited into a pipe: one table, one line per case as before
expect_status 0 "$FB" plan compression --no-calibrate
[ "$(grep -c 'FORMAT' "$work/out")" = 1 ] || fail "plan into a pipe: split"

# ---- escaping: ESC and a newline in a label (the study's) and in a
# plugin's option choice and help (a plugin built here from c_plugin.c).
cat > evil.yaml <<'YAML'
name: evil
datasets: [{dtype: f64, count: 1000}]
defaults: {repeat: 2, warmup: 0}
formats: [{plugin: raw, label: "ev\e[31mil\nx"}]
YAML
escaped='ev\x1b[31mil\nx'
expect_status 0 "$FB" plan evil.yaml --no-calibrate
expect_in "$work/out" "$escaped"
! grep -q $'\033' "$work/out" || fail "plan: an escape reached the terminal"
expect_status 0 "$FB" run evil.yaml --json evil.json --no-console --progress none
expect_in "$work/err" "formatbench: warning:"
expect_in_prose "$work/err" "The worst: '$escaped'"
! grep -q $'\033' "$work/err" || fail "noise warning: an escape reached the terminal"
expect_status 0 "$FB" compare evil.json evil.json
expect_in "$work/out" "$escaped"
! grep -q $'\033' "$work/out" || fail "compare: an escape reached the terminal"

sed -e 's|{"fail_on_open", FB_OPT_BOOL, "false", 0, 0, 0, NULL, "fail every open (to test error reporting)"},|{"fail_on_open", FB_OPT_BOOL, "false", 0, 0, 0, NULL, "fail"}, {"tone", FB_OPT_CHOICE, "plain", 0, 0, 0, tones, "help \\x1b[2J with\\na newline"},|' \
  -e 's|^static const fb_option_decl options\[\] = {|static const char* const tones[] = {"plain", "\\x1b[31mred\\nline", NULL};\n&|' \
  -e 's|\.option_count = 1,|.option_count = 2,|' \
  "$FB_SOURCE_ROOT/tests/plugins/c_plugin.c" > evil_plugin.c
grep -q tones evil_plugin.c || fail "evil_plugin.c: the sed did not apply"
cc -shared -fPIC -I"$FB_SOURCE_ROOT/core/include" -o libfb_evil.so evil_plugin.c || fail "cc evil_plugin.c"
expect_status 0 "$FB" describe ./libfb_evil.so
expect_in "$work/out" 'choices: plain | \x1b[31mred\nline'
expect_in "$work/out" 'help \x1b[2J with\na newline'
! grep -q $'\033' "$work/out" || fail "describe: an escape reached the terminal"

# ---- colour under an MPI launcher: Open MPI hands each rank a
# pseudo-terminal; only --color always colours there. (`--color auto` on a
# terminal without the launcher's variables colours: test_progress.sh.)
command -v script >/dev/null || { echo "SKIP: script(1) (package bsdutils) is missing"; exit 77; }
cat > s.yaml <<'YAML'
name: s
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw]
YAML
in_pty() { # in_pty FILE CMD: CMD's terminal output in FILE
  local file=$1; shift
  script -qec "$*" "$file" >/dev/null </dev/null
}
# FORMATBENCH_MPI=0: the launcher's variable is seen by colour, but the run
# does not try to join an MPI world that no launcher made.
in_pty pty-mpi.txt "OMPI_COMM_WORLD_SIZE=1 FORMATBENCH_MPI=0 TERM=xterm $FB run s.yaml --progress lines"
grep -q 'raw' pty-mpi.txt || { cat -v pty-mpi.txt; fail "under the launcher: no table"; }
! grep -q $'\033' pty-mpi.txt || { cat -v pty-mpi.txt; fail "under the launcher: an escape"; }
in_pty pty-pmi.txt "PMI_SIZE=1 FORMATBENCH_MPI=0 TERM=xterm $FB run s.yaml --progress lines"
! grep -q $'\033' pty-pmi.txt || { cat -v pty-pmi.txt; fail "under PMI: an escape"; }
in_pty pty-always.txt "OMPI_COMM_WORLD_SIZE=1 FORMATBENCH_MPI=0 TERM=xterm $FB --color always run s.yaml --progress lines"
grep -q $'\033\\[32mok' pty-always.txt || { cat -v pty-always.txt; fail "--color always under the launcher: no colour"; }
echo "terminal: ok"

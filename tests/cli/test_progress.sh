#!/usr/bin/env bash
# `formatbench run`'s live output (docs/cli.md, "Progress"): --progress lines
# and none, --quiet, --verbose, --color and NO_COLOR, the bar under a
# pseudo-terminal (script(1)), --units iec against the JSON, and `--csv -`
# alone on standard output. No timing is asserted: only what is printed.
source "$(dirname "$0")/lib.sh"
cd "$work"
PY=/usr/bin/python3
unset COLUMNS # lines into a pipe are cut only to a width asked for (below)
command -v script >/dev/null || { echo "SKIP: script(1) (package bsdutils) is missing"; exit 77; }

cat > s.yaml <<'YAML'
name: progress
defaults: {repeat: 3, warmup: 0}
datasets: [{name: small, dtype: f64, count: 1e4}, {name: large, dtype: f64, count: 4e4}]
formats: [raw, mmap]
YAML
n=4

# ---- lines (the default without a terminal): one [i/n] line per case with
# elapsed time and ETA, then the table on stdout.
expect_status 0 "$FB" run s.yaml
[ "$(grep -cE '^\[[1-4]/4\] .* ok  \([0-9.]+ s elapsed, ETA [0-9.]+ s\)$' "$work/err")" = $n ] \
  || { cat "$work/err"; fail "one [i/4] line with elapsed and ETA per case"; }
expect_in "$work/err" "[4/4]"
expect_in "$work/out" " raw "
expect_status 0 "$FB" run s.yaml --progress lines
[ "$(grep -c 'ETA' "$work/err")" = $n ] || fail "--progress lines: one ETA per case"

# ---- lines cut to COLUMNS: at 60, 80 and 100 columns every line fits (one
# column left free), names its format first, and keeps its figures whole;
# a long data set name is what gives way.
cat > wide.yaml <<'YAML'
name: wide
defaults: {repeat: 2, warmup: 0}
datasets: [{name: a-data-set-whose-name-takes-most-of-a-terminal-line, dtype: f64, count: 1e4}]
formats: [raw, {label: zlib-1, plugin: zlib}]
YAML
for width in 60 80 100; do
  COLUMNS=$width expect_status 0 "$FB" run wide.yaml --progress lines --verbose --no-console
  $PY - "$work/err" $width <<'PY' || fail "progress lines at $width columns"
import re, sys
width = int(sys.argv[2])
lines = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if l.startswith("[")]
assert len(lines) == 2 + 4, lines  # 2 finished cases, 2 repetition lines each
for l in lines:
    assert len(l) <= width - 1, (width, len(l), l)
    assert re.match(r"\[[12]/2\] (raw|zlib-1)( |\.\.\.|$)", l), l
    # every figure whole: a number and its unit
    assert re.search(r"write [0-9.]+ (ns|µs|ms|s) read [0-9.]+ (ns|µs|ms|s)( |$)", l), l
PY
done
COLUMNS=200 expect_status 0 "$FB" run wide.yaml --progress lines --no-console
expect_in "$work/err" "a-data-set-whose-name-takes-most-of-a-terminal-line | chunk whole"

# ---- none: no progress at all; the table still prints.
expect_status 0 "$FB" run s.yaml --progress none
# (noise warnings may still come, wrapped: they are not progress)
if grep -vqE '^(formatbench: warning: |  )' "$work/err"; then cat "$work/err"; fail "--progress none printed on stderr"; fi
expect_in "$work/out" " mmap "

# ---- --verbose: R repetition lines per case, with both times.
expect_status 0 "$FB" run s.yaml --verbose --progress none
[ "$(grep -cE '^\[[1-4]/4\] .*  repetition [1-3]/3: write .* read ' "$work/err")" = $((3 * n)) ] \
  || { cat "$work/err"; fail "--verbose: 3 repetition lines for each of 4 cases"; }
for i in 1 2 3 4; do
  [ "$(grep -c "^\[$i/4\] .*repetition" "$work/err")" = 3 ] || fail "case $i: not 3 repetition lines"
done

# ---- --quiet and the global -q: nothing on stderr, no table; files written.
for q in "run s.yaml --quiet" "-q run s.yaml" "run -q s.yaml"; do
  # shellcheck disable=SC2086
  expect_status 0 "$FB" $q --json q.json
  [ ! -s "$work/err" ] || { cat "$work/err"; fail "$q: stderr not empty"; }
  [ ! -s "$work/out" ] || { cat "$work/out"; fail "$q: stdout not empty"; }
  $PY -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["cases"]) == 4' q.json || fail "$q: q.json"
  rm q.json
done
# A failing case under --quiet: its error, and nothing else.
cat > bad.yaml <<'YAML'
name: bad
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw, {plugin: misbehave, options: {mode: fail_write}}]
YAML
expect_status 1 "$FB" --plugin-path "$FB_TEST_PLUGINS" run bad.yaml --quiet
[ "$(wc -l < "$work/err")" = 1 ] || { cat "$work/err"; fail "--quiet: one line for the one failed case"; }
expect_in "$work/err" "formatbench: error: [2/2] f64-uniform-1e3 | misbehave"
expect_in "$work/err" ": failed: plugin 'misbehave': write to "
expect_in "$work/err" "failed on purpose"
[ ! -s "$work/out" ] || fail "--quiet printed the table"

# ---- colour: always colours the table's status cells; never, and a pipe
# under auto, do not.
expect_status 0 "$FB" --color always run s.yaml --progress none
grep -q $'\033\\[' "$work/out" || fail "--color always: no escape in the table"
grep -q $'\033\\[32mok\033\\[0m' "$work/out" || { cat -v "$work/out"; fail "--color always: ok not green"; }
expect_status 0 "$FB" run s.yaml --color never
! grep -q $'\033' "$work/out" "$work/err" || fail "--color never: an escape"
expect_status 0 "$FB" run s.yaml
! grep -q $'\033' "$work/out" "$work/err" || fail "--color auto into a pipe: an escape"
expect_status 2 "$FB" --color sometimes run s.yaml
# Under a pseudo-terminal: auto colours; NO_COLOR (not empty) or TERM=dumb
# switch it off. script(1) copies the terminal's output into a file.
in_pty() { # in_pty FILE CMD: CMD's terminal output in FILE
  local file=$1; shift
  script -qec "$*" "$file" >/dev/null </dev/null
}
in_pty pty-auto.txt "TERM=xterm $FB run s.yaml --progress lines"
grep -q $'\033\\[' pty-auto.txt || { cat -v pty-auto.txt; fail "--color auto on a terminal: no colour"; }
in_pty pty-no.txt "NO_COLOR=1 TERM=xterm $FB --color auto run s.yaml --progress lines"
! grep -q $'\033' pty-no.txt || { cat -v pty-no.txt; fail "NO_COLOR=1: an escape"; }
in_pty pty-dumb.txt "TERM=dumb $FB run s.yaml --progress lines"
! grep -q $'\033' pty-dumb.txt || { cat -v pty-dumb.txt; fail "TERM=dumb: an escape"; }
in_pty pty-empty.txt "NO_COLOR= TERM=xterm $FB run s.yaml --progress lines"
grep -q $'\033\\[' pty-empty.txt || fail "NO_COLOR empty: colour expected"

# ---- the bar (auto on a terminal): lines redrawn with \r, the finished-case
# lines kept, and the table after the bar is cleared.
in_pty pty-bar.txt "COLUMNS=60 NO_COLOR=1 $FB run s.yaml"
grep -q $'\r' pty-bar.txt || fail "bar: no carriage return"
grep -q $'\033\\[K' pty-bar.txt || fail "bar: the line is not cleared to its end"
expect_in pty-bar.txt "ETA"
expect_in pty-bar.txt "dataset 'large'"
expect_in pty-bar.txt "write, read: median wall time"
# Every redraw of the status line fits the 60 columns: script's terminal
# has no size here (its input is not a terminal), so COLUMNS counts.
$PY - pty-bar.txt <<'PY' || fail "bar: a frame wider than the terminal, or a finished-case line not on a cleared line"
import re, sys
text = open(sys.argv[1], encoding="utf-8", newline="").read()
frames = [f for part in text.split("\r") for f in [part.split("\033[K")[0]] if f.startswith("[")]
assert frames, "no frame"
assert all(len(f) <= 60 for f in frames), max(frames, key=len)
# The finished-case lines stay in the scroll-back, each written over a
# cleared line (no leftover of the status line before it) and ended, and
# each fits the 60 columns too (one left free), its format named first.
done = re.findall(r"(.{0,4})(\[[1-4]/4\] [^\r\n]*  ok[^\r\n]*)\r?\n", text)
assert len(done) == 4, done
assert all(before.endswith("\r\033[K") for before, line in done), done
assert all(len(line) <= 59 and re.match(r"\[\d/4\] (raw|mmap|memory|ascii)", line) for _, line in done), done
print(len(frames), "frames, the widest", max(len(f) for f in frames))
PY
# Ctrl-C (SIGINT) ends the run cleanly: the bar is cleared before the
# (empty) table and the message. The run would take minutes, so the signal
# always lands while a case runs.
code=0
in_pty pty-int.txt "NO_COLOR=1 timeout -s INT 2 $FB run s.yaml --set repeat=1000000" || code=$?
[ "$code" = 124 ] || fail "SIGINT: expected timeout's 124 (it sent the signal), got $code"
$PY - pty-int.txt <<'PY' || fail "bar after SIGINT: not cleared before the table"
import sys
text = open(sys.argv[1], encoding="utf-8", newline="").read()
assert "formatbench: interrupted" in text, text[-400:]
assert "\r\033[Kstudy 'progress'" in text, repr(text[-600:])
PY
# With --verbose every repetition redraws the bar: after a case's third and
# last repetition it says "finishing", never "repetition 4".
in_pty pty-verbose.txt "COLUMNS=200 NO_COLOR=1 $FB run s.yaml --verbose"
$PY - pty-verbose.txt <<'PY' || fail "bar: the phase after the last repetition"
import sys
text = open(sys.argv[1], encoding="utf-8", newline="").read()
frames = [p.split("\033[K")[0] for p in text.split("\r")]
assert sum(" | finishing | " in f for f in frames) == 4, [f for f in frames if f.startswith("[")]
assert not any("repetition 4" in f for f in frames)
PY
# The phase a repetition is in: each write of this plugin takes 2 s, so
# the once-a-second redraw lands inside the warm-up's write and each
# recorded one. The frames say "warm-up", then "repetition 1/2 writing" and
# "repetition 2/2 writing", in that order; --progress lines never does.
cat > slow.yaml <<'YAML'
name: slow-writes
defaults: {repeat: 2, warmup: 1}
datasets: [{dtype: f64, count: 1000}]
formats: [{plugin: misbehave, options: {slow_opens: 100, slow_ms: 2000}}]
YAML
in_pty pty-phase.txt "COLUMNS=200 NO_COLOR=1 $FB --plugin-path $FB_TEST_PLUGINS run slow.yaml --progress bar"
$PY - pty-phase.txt <<'PY' || fail "bar: the repetition's phase (warm-up, writing) is not shown in order"
import re, sys
text = open(sys.argv[1], encoding="utf-8", newline="").read()
frames = [p.split("\033[K")[0] for p in text.split("\r") if p.startswith("[1/1]")]
said = []
for f in frames:
    # (after 5 s: "repetition 2/2 writing, case still running after 5.0 s")
    m = re.search(r" \| (warm-up|repetition [12]/2 (?:writing|reading|verifying|warm-up))(?: \| |, )", f)
    if m and (not said or said[-1] != m.group(1)):
        said.append(m.group(1))
print("bar phases:", said)
writes = [s for s in said if s.endswith("writing")]
assert "warm-up" in said and writes == ["repetition 1/2 writing", "repetition 2/2 writing"], said
assert said.index("warm-up") < said.index("repetition 1/2 writing"), said
PY
in_pty pty-phase-lines.txt "NO_COLOR=1 $FB --plugin-path $FB_TEST_PLUGINS run slow.yaml --progress lines"
! grep -q 'writing' pty-phase-lines.txt || { cat -v pty-phase-lines.txt; fail "--progress lines: a phase was shown"; }
in_pty pty-lines.txt "NO_COLOR=1 $FB run s.yaml --progress lines"
! grep -q $'\033\\[K' pty-lines.txt || fail "--progress lines on a terminal: a bar was drawn"

# ---- --units iec: MiB/s, the value recomputed here from the JSON.
expect_status 0 "$FB" run s.yaml --units iec --json iec.json --csv iec.csv --markdown iec.md
expect_in "$work/out" "write MiB/s"
expect_in "$work/out" "MiB/s: 2^20 bytes"
expect_in iec.md "write MiB/s"
$PY - iec.json iec.csv "$work/out" <<'PY' || fail "--units iec: values"
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
assert "write_mib_s" in rows[0] and "write_mb_s" not in rows[0], list(rows[0])
table = open(sys.argv[3], encoding="utf-8").read()
for c, r in zip(d["cases"], rows):
    for phase in ("write", "read"):
        mib_s = c["payload_bytes"] / 2**20 / c[phase]["median_s"]
        assert abs(float(r[phase + "_mib_s"]) - mib_s) <= 1e-9 * mib_s, (phase, r, mib_s)
        # The JSON keeps MB/s.
        assert abs(c[phase]["throughput_mb_s"] - c["payload_bytes"] / 1e6 / c[phase]["median_s"]) <= 1e-6
    # The table's write MiB/s cell, with its three significant digits.
    mib_s = c["payload_bytes"] / 2**20 / c["write"]["median_s"]
    cell = f"{mib_s:.0f}" if mib_s >= 100 else f"{mib_s:.1f}" if mib_s >= 10 else f"{mib_s:.2f}"
    if mib_s >= 1000: cell = f"{mib_s:.0f}"
    assert any(c["format"]["label"] in l and f" {cell} " in l for l in table.splitlines()), (cell, table)
print("MiB/s in CSV and table = bytes / 2^20 / seconds")
PY
expect_status 0 "$FB" report iec.json -o iec.html --units iec
expect_in iec.html "MiB/s"
expect_status 2 "$FB" run s.yaml --units kb

# ---- `--csv -`: the CSV alone on standard output.
count=$("$FB" run s.yaml --csv - 2>/dev/null | $PY -c 'import csv,sys; print(len(list(csv.DictReader(sys.stdin))))') \
  || fail "run s.yaml --csv - | python3: failed"
[ "$count" = $n ] || fail "--csv - | csv.DictReader: $count rows, expected $n"
echo "progress: ok"

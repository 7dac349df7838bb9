#!/usr/bin/env bash
# Plugins that call MPI (formatbench.mpi/1) and the mpiio plugin, under Open
# MPI's mpirun (two ranks, --oversubscribe). Checked against references
# from outside the code under test: the MPI version as ompi_info reports
# it; raw's file of one process (no MPI) for the same values, compared with
# cmp; call counts worked out by hand; an MPI that drops or changes a hint,
# made with the profiling interface (hint_shim.c). Every mpirun is bounded
# by `timeout`: a collective call left unmatched would hang, and the hang
# fails the test. SKIP (77) when mpirun is missing.
here=$(cd "$(dirname "$0")" && pwd)
mpi_timeout=120
source "$here/mpi_lib.sh"
: "${FB_MPI_CLAIMS:?}"
cd "$work"
host=$(ompi_info --version | sed -n 's/^Open MPI v\([0-9.]*\).*/\1/p' | head -1)
[ -n "$host" ] || fail "ompi_info --version names no Open MPI version"

# ---- load: a plugin built against another MPI is refused, naming both
expect_status 0 "$FB" --plugin-path "$FB_MPI_CLAIMS" plugins
expect_in "$work/err" "libfb_claims_mpich.so: built against MPICH 4.0, but this formatbench runs Open MPI $host"
expect_in "$work/err" "rebuild the plugin against Open MPI ${host%%.*}"
expect_in "$work/err" "libfb_claims_ompi3.so: built against Open MPI 3.1.6, but this formatbench runs Open MPI $host"
expect_in "$work/err" "different major versions"
# The control, built against this MPI, loads; the refused ones are absent.
grep -q '^ *claims_host ' "$work/out" || fail "claims_host (built against this MPI) was not loaded"
if grep -q 'claims_mpich\|claims_ompi3' "$work/out"; then fail "a plugin of another MPI was listed"; fi
[ "$(grep -c 'this formatbench runs Open MPI' "$work/err")" = 2 ] || fail "not exactly the two claims refused"
echo "load: MPICH 4.0 and Open MPI 3 refused with both names, this MPI's plugin loaded"

# ---- without mpirun a study with a plugin that calls MPI is refused
# before anything runs
cat > alone.yaml <<EOF
name: alone
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw, claims_host]
plugin_path: [$FB_MPI_CLAIMS]
EOF
mkdir -p alone
expect_status 2 "$FB" run alone.yaml --directory alone --json alone.json
expect_in "$work/err" "format 'claims_host': plugin 'claims_host' calls MPI itself (formatbench.mpi/1, built against Open MPI $host)"
expect_in "$work/err" "run the study under mpirun"
[ ! -e alone.json ] && [ -z "$(ls alone)" ] || fail "something ran before claims_host was refused"
# The same study under mpirun -np 1 runs.
expect_status 0 mpi 1 "$FB" run alone.yaml --json alone1.json --no-console
echo "no mpirun: refused before the first case, naming the plugin; mpirun -np 1 runs it"

# ---- a crash in a plugin that calls MPI ends the job (it runs in the rank,
# isolation none); the log keeps the case finished before it, and --resume
# under the same mpirun line runs the rest.
cat > crash.yaml <<EOF
name: crash
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw, claims_host]
plugin_path: [$FB_MPI_CLAIMS]
EOF
got=0
timeout 120 "$mpirun" --oversubscribe -np 2 -x FB_CLAIM_CRASH=1 "$FB" run crash.yaml --log crash.jsonl --no-console \
  >crash.out 2>crash.err || got=$?
[ "$got" != 0 ] && [ "$got" != 124 ] || { cat crash.err; fail "a crashing MPI plugin did not end the job ($got)"; }
# mpirun reports the signal; under AddressSanitizer its handler reports the
# SEGV and the rank exits 1, which mpirun reports as such.
grep -q 'signal 11\|Segmentation fault\|AddressSanitizer: SEGV' crash.err ||
  { cat crash.err; fail "mpirun did not report the crash"; }
$PY - crash.jsonl <<'PY' || fail "the log after the crash"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cases = [c for c in lines if "format" in c and "status" in c]
assert [(c["format"]["label"], c["status"]) for c in cases] == [("raw", "ok")], lines
PY
expect_status 0 mpi 2 "$FB" run crash.yaml --resume crash.jsonl --json resumed.json --no-console
$PY - resumed.json <<'PY' || fail "resume after the crash"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert [(c["format"]["label"], c["status"]) for c in cases] == [("raw", "ok"), ("claims_host", "ok")], cases
PY
echo "crash of an MPI plugin: the job ends, mpirun reports it, the log keeps raw, --resume runs the rest"

# ---- the mpiio plugin
: "${FB_HINT_SHIM:?}" "${FB_PLUGIN_DIR:?}"
[ -f "$FB_PLUGIN_DIR/libfb_mpiio.so" ] || fail "the mpiio plugin was not built in $FB_PLUGIN_DIR"
# The shim comes after AddressSanitizer's runtime when formatbench has it.
preload=$FB_HINT_SHIM
asan=$(ldd "$FB" | awk '/libasan/ {print $3}')
[ -z "$asan" ] || preload="$asan:$preload"

# ---- without mpirun mpiio is refused too, before anything runs
cat > alone-mpiio.yaml <<'YAML'
name: alone-mpiio
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 1000}]
formats: [raw, mpiio]
YAML
mkdir -p alone
expect_status 2 "$FB" run alone-mpiio.yaml --directory alone --json alone-mpiio.json
expect_in "$work/err" "format 'mpiio': plugin 'mpiio' calls MPI itself (formatbench.mpi/1, built against Open MPI $host)"
expect_in "$work/err" "run the study under mpirun"
[ ! -e alone-mpiio.json ] && [ -z "$(ls alone)" ] || fail "something ran before mpiio was refused"
echo "no mpirun: refused before the first case, naming the plugin"

# ---- the shared file of 2 ranks x n values is raw's file of 2n values
cat > shared.yaml <<'YAML'
name: shared
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{dtype: f64, count: 100003, seed: 7}]
formats:
  - {label: ind, plugin: mpiio}
  - {label: coll, plugin: mpiio, options: {transfer: collective, piece_size: 65536}}
  # chunks of 40000 bytes against pieces of 65536: staged pieces
  - {label: coll-chunked, plugin: mpiio, chunk: 40000, options: {transfer: collective, piece_size: 65536}}
  - {label: fpr-ind, plugin: mpiio, layout: file_per_rank}
  - {label: fpr-coll, plugin: mpiio, layout: file_per_rank, options: {transfer: collective, piece_size: 65536}}
keep_files: true
YAML
mkdir -p two one
expect_status 0 mpi 2 "$FB" run shared.yaml --directory two --json two.json --no-console
cat > one.yaml <<'YAML'
name: one
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 200006, seed: 7}]
formats: [raw]
keep_files: true
YAML
expect_status 0 "$FB" run one.yaml --directory one --json one.json --no-console
ref=$(ls one/case-0000-raw.raw)
[ "$(stat -c %s "$ref")" = $((200006 * 8)) ] || fail "raw's file is not 200006 f64"
$PY - two.json <<'PY' || fail "shared: cases"
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cases"]:
    assert c["status"] == "ok", (c["format"]["label"], c["error"])
    assert c["verify"]["compared"] == 200006 and c["verify"]["mismatches"] == 0, c["verify"]
print("\n".join("%d %s %s" % (c["index"], c["format"]["label"], c["params"]["layout"]) for c in d["cases"]))
PY
for i in 0 1 2; do cmp "$ref" "two/case-000$i-mpiio.raw" || fail "shared file of case $i differs from raw's"; done
cmp two/case-0000-mpiio.raw two/case-0001-mpiio.raw || fail "independent and collective files differ"
for i in 3 4; do
  cat "two/case-000$i-mpiio.raw.0" "two/case-000$i-mpiio.raw.1" > "fpr$i.raw"
  cmp "$ref" "fpr$i.raw" || fail "file_per_rank files of case $i are not raw's halves"
done
echo "shared_file (independent, collective, chunked) = raw's file of 2n values; file_per_rank = its halves"

# ---- strong scaling, an uneven split, collective: rank 0 has 50001 i32
# (200004 bytes: 6 pieces of 40000), rank 1 50000 (200000: 5 pieces). Both
# make 6 calls per phase: 12 over the ranks, 1 of count 0 (rank 1 writing;
# rank 0 reading rank 1's slice with read_rank_shift 1).
cat > strong.yaml <<'YAML'
name: strong
defaults: {repeat: 1, warmup: 0, scaling: strong, read_rank_shift: 1, layout: shared_file}
datasets: [{dtype: i32, count: 100001, distribution: integers, low: -1000000, high: 1000000, seed: 3}]
formats:
  - {label: coll, plugin: mpiio, options: {transfer: collective, piece_size: 40000}}
keep_files: true
YAML
# Open MPI's default collective component for two ranks on one machine does
# not wait for the other rank, so an unmatched call would pass unseen: run
# it also with components that do (OMPIO's two_phase, ROMIO), where a rank
# that skipped its call of count 0 leaves the other one waiting (checked:
# without the padding these runs hang until `timeout`).
mkdir -p strong1
expect_status 0 "$FB" run strong.yaml --directory strong1 --set 'formats=[raw]' --set defaults.layout=file_per_rank \
  --json strong1.json --no-console
for mca in "" "--mca fcoll two_phase" "--mca io romio321"; do
rm -rf strong strong.json && mkdir strong
# shellcheck disable=SC2086
expect_status 0 mpi 2 $mca "$FB" run strong.yaml --directory strong --json strong.json --no-console
$PY - strong.json <<'PY' || fail "strong scaling, collective ($mca)"
import json, sys
(c,) = json.load(open(sys.argv[1]))["cases"]
assert c["status"] == "ok", c["error"]
assert c["verify"]["compared"] == 100001 and c["verify"]["mismatches"] == 0, c["verify"]
for phase in ("write", "read"):
    m = c["samples"][0][phase]["metrics"]
    assert m["collective_calls"] == 12 and m["padding_calls"] == 1, (phase, m)
print("strong: 6 collective calls per rank and phase, one of count 0, data verified")
PY
cmp strong1/case-0000-raw.raw strong/case-0000-mpiio.raw || fail "the uneven shared file differs from raw's ($mca)"
done
echo "strong scaling, uneven split (default, two_phase, ROMIO): no deadlock, the file is raw's"

# ---- a hint the MPI library ignores or changes fails the case, named
cat > hints.yaml <<'YAML'
name: hints
defaults: {repeat: 1, warmup: 0, layout: shared_file}
datasets: [{dtype: f64, count: 1000}]
formats:
  - {label: striped, plugin: mpiio, options: {striping_factor: 4}}
  - {label: aggregators, plugin: mpiio, options: {cb_nodes: 2, transfer: collective}}
YAML
# Without the shim Open MPI lists both hints as given: both run.
expect_status 0 mpi 2 "$FB" run hints.yaml --json hints-ok.json --no-console
expect_status 1 mpi 2 -x LD_PRELOAD="$preload" -x FB_SHIM_DROP_HINT=striping_factor \
  -x FB_SHIM_CHANGE_HINT=cb_nodes=1 "$FB" run hints.yaml --json hints.json --no-console
$PY - hints-ok.json hints.json <<'PY' || fail "hints"
import json, sys
ok = {c["format"]["label"]: c for c in json.load(open(sys.argv[1]))["cases"]}
bad = {c["format"]["label"]: c for c in json.load(open(sys.argv[2]))["cases"]}
assert all(c["status"] == "ok" for c in ok.values()), [(c["format"]["label"], c["error"]) for c in ok.values()]
e = bad["striped"]["error"]
assert bad["striped"]["status"] == "failed" and "hint 'striping_factor' (4) was ignored" in e, e
e = bad["aggregators"]["error"]
assert bad["aggregators"]["status"] == "failed" and "hint 'cb_nodes' (2) was changed to '1'" in e, e
print("hints: an ignored and a changed hint fail their case, named; without the shim both run")
PY

echo "formatbench.mpi/1 and mpiio: ok"

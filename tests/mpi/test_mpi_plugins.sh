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
source "$here/../cli/lib.sh"
: "${FB_MPI_CLAIMS:?}"
mpirun=$(command -v mpirun || true)
[ -n "$mpirun" ] || { echo "SKIP: mpirun not installed (apt-get install openmpi-bin)"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { timeout 120 "$mpirun" --oversubscribe -np "$@"; }
PY=/usr/bin/python3
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
grep -q 'signal 11\|Segmentation fault' crash.err || { cat crash.err; fail "mpirun did not report the crash"; }
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

echo "formatbench.mpi/1: ok"

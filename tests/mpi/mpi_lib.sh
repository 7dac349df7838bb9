# What every test of the mpi suite starts with, sourced (after the cli
# tests' helpers, cli/lib.sh): mpirun found, or the test skipped (77);
# Open MPI allowed to run as root (CI runs as root) and to oversubscribe
# the machine's cores; and `mpi N ARGS...`, mpirun bounded below meson's
# timeout (240 s, or $mpi_timeout), so a rank left waiting fails the test
# instead of hanging it.
source "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh"
mpirun=$(command -v mpirun || true)
[ -n "$mpirun" ] || { echo "SKIP: mpirun not installed (apt-get install openmpi-bin)"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { timeout "${mpi_timeout:-240}" "$mpirun" --oversubscribe -np "$@"; }
PY=/usr/bin/python3

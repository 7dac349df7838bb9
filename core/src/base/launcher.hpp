// Whether an MPI launcher (mpirun, mpiexec, srun) started this process, from
// the variables the launchers set: what the run layer joins an MPI world for
// (run/mpi_world.hpp) and what colour decides by (colour.hpp, which ignores
// FORMATBENCH_MPI: the terminal is the launcher's either way), in every
// build.
#pragma once

namespace formatbench {

// Whether one of the launchers' variables is set: Open MPI
// (OMPI_COMM_WORLD_SIZE), PMIx (PMIX_RANK: Open MPI 4+, srun --mpi=pmix),
// PMI (PMI_SIZE: MPICH's hydra, srun --mpi=pmi2).
bool launcher_variables_set();

// launcher_variables_set(), unless FORMATBENCH_MPI says otherwise: 0
// ignores them, 1 forces MPI.
bool launched_by_mpi();

} // namespace formatbench

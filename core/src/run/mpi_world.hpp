// The MPI binding of the run layer: whether this process was started by an
// MPI launcher (mpirun, mpiexec, srun) and, if so, MPI initialised for it,
// as a communicator (communicator.hpp) that finalises MPI when destroyed.
// Without a launcher MPI is not initialised at all, so the same binary runs
// on its own as if it had no MPI. Built without MPI (-Dmpi=disabled, or no
// MPI library found), a run under a launcher with more than one rank is
// refused, instead of N processes each running the whole study.
#pragma once

#include "base/launcher.hpp" // launched_by_mpi
#include "run/communicator.hpp"

#include <memory>

namespace formatbench {

// Null when not launched by MPI. Throws usage_error when launched with
// several ranks by a build without MPI.
std::unique_ptr<communicator> join_mpi_world();

// Whether this build can run under MPI.
bool built_with_mpi() noexcept;

} // namespace formatbench

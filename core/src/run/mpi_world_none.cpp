// mpi_world.hpp in a build without MPI: never joins a world, and refuses a
// launch with several ranks (each would run the whole study on its own).
#include "base/error.hpp"
#include "run/mpi_world.hpp"

#include <cstdlib>
#include <string>

namespace formatbench {

bool built_with_mpi() noexcept {
    return false;
}

std::unique_ptr<communicator> join_mpi_world() {
    if (!launched_by_mpi()) return nullptr;
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"})
        if (const char* n = std::getenv(v); n && std::atoi(n) > 1)
            throw usage_error(std::string("started by an MPI launcher with ") + n +
                              " ranks, but this formatbench was built without MPI: install libopenmpi-dev "
                              "and rebuild (meson setup -Dmpi=enabled), or run it without mpirun");
    return nullptr;
}

} // namespace formatbench

// Whether an MPI launcher started this process (mpi_world.hpp), in every
// build: the variables the launchers set.
#include "run/mpi_world.hpp"

#include <cstdlib>
#include <string>

namespace formatbench {

bool launched_by_mpi() {
    if (const char* forced = std::getenv("FORMATBENCH_MPI"); forced && *forced)
        return std::string(forced) != "0";
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

} // namespace formatbench

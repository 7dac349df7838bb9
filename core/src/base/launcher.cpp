// Whether an MPI launcher started this process (launcher.hpp).
#include "base/launcher.hpp"

#include <cstdlib>
#include <string>

namespace formatbench {

bool launcher_variables_set() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

bool launched_by_mpi() {
    if (const char* forced = std::getenv("FORMATBENCH_MPI"); forced && *forced)
        return std::string(forced) != "0";
    return launcher_variables_set();
}

} // namespace formatbench

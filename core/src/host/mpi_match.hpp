// formatbench.mpi/1's load-time check (docs/abi.md): a plugin that calls
// MPI must be built against the MPI implementation the host runs, since
// MPI's handles are not portable between implementations (an MPI_Comm is a
// pointer in Open MPI, an int in MPICH) nor, in general, between major
// versions of one.
#pragma once

#include <string>
#include <string_view>

namespace formatbench {

// The MPI this formatbench was compiled against, as formatbench/plugin_mpi.h
// spells it ("Open MPI 4.1.4"); "" in a build without MPI.
std::string host_mpi_implementation();

// Why a plugin compiled against `plugin_mpi` cannot run in a host compiled
// against `host_mpi` (both "FAMILY VERSION"): "" when the families and the
// major versions agree, else a sentence naming both and what to do.
std::string mpi_mismatch(std::string_view plugin_mpi, std::string_view host_mpi);

} // namespace formatbench

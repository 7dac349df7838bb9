// The collective operations the MPI executor needs (rank_executor.hpp),
// behind an interface, so that the run layer builds, and is unit-tested,
// without MPI. The MPI binding is mpi_world.hpp; a single process is one
// rank of one.
#pragma once

#include <string>
#include <vector>

namespace formatbench {

class communicator {
public:
    virtual ~communicator() = default;
    virtual unsigned rank() const = 0;
    virtual unsigned size() const = 0;
    // Returns when every rank has called it.
    virtual void barrier() = 0;
    // Every rank's text, in rank order, on every rank.
    virtual std::vector<std::string> all_gather(const std::string& mine) = 0;
    // For plugins that call MPI themselves (formatbench.mpi/1): a pointer to
    // an MPI_Comm, valid while this communicator lives, of every rank (a
    // duplicate of MPI_COMM_WORLD, so that a plugin's traffic never meets
    // the executor's) or, with whole false, of this rank alone
    // (MPI_COMM_SELF). Null when this is not an MPI communicator.
    virtual const void* mpi_comm(bool whole) const {
        (void)whole;
        return nullptr;
    }
};

} // namespace formatbench

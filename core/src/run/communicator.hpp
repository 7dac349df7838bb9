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
};

} // namespace formatbench

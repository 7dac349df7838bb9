// The collective operations the MPI executor needs (rank_executor.hpp),
// behind an interface, so that the run layer builds, and is unit-tested,
// without MPI. The MPI binding is mpi_world.hpp; a single process is one
// rank of one. rank_meeting is the one collective a case's runner makes
// (case_runner.hpp): a forked worker, which is not an MPI process, makes it
// through its rank (forked_executor.cpp).
#pragma once

#include <string>
#include <vector>

namespace formatbench {

// The untimed meetings of the ranks inside a streamed phase
// (docs/methodology.md, "MPI"): before each timed plugin call that follows
// untimed work, every rank waits until every rank is ready.
class rank_meeting {
public:
    // The flags a rank brings to a meeting.
    static constexpr unsigned more = 1;   // this rank makes another transfer after this meeting
    static constexpr unsigned failed = 2; // this rank's phase failed: every rank stops
    virtual ~rank_meeting() = default;
    // Returns when every rank has called it: the bitwise OR of every rank's
    // `mine` (a barrier that carries a few flags).
    virtual unsigned meet(unsigned mine) = 0;
};

// What a rank's phase fails with when it stops because another rank's
// failed (rank_aggregate.cpp names the ranks that failed instead).
inline constexpr const char* another_rank_failed = "stopped: another rank's phase failed";

class communicator : public rank_meeting {
public:
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

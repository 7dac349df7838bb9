// The executor of an MPI run (docs/mpi.md). Every rank runs the same study
// with the same schedule; each case's session on each rank drives a phased
// session (a forked worker, or this process with isolation: none and for a
// plugin that calls MPI itself, formatbench.mpi/1, since a forked worker is
// not an MPI process) one phase at a time: a barrier before each phase,
// then every rank's report gathered and combined (rank_aggregate.hpp), so
// that every rank records the same figures and its runner takes the same
// decisions. Inside a streamed phase the case's runner meets the other
// ranks itself (case_runner.hpp, through case_environment::ranks). A case
// that fails, crashes or times out on one rank fails on all of them; a
// rank's worker is bounded by the case's timeout, so no rank waits in a
// barrier or a meeting for a hung plugin (a plugin run in the rank has no
// timeout, and its crash ends the job). Only rank 0 reports (the caller's
// business).
#pragma once

#include "run/communicator.hpp"
#include "run/executor.hpp"

#include <memory>
#include <string>

namespace formatbench {

// Where the ranks run, agreed by all of them (collective).
struct world_info {
    unsigned hosts = 1;         // distinct machines
    unsigned ranks_on_host = 1; // ranks sharing this rank's machine
    // Seconds to subtract from this rank's steady clock to put a time on
    // rank 0's: 0 on rank 0's machine (one clock); elsewhere the median over
    // several barriers of the difference between the clocks read right after
    // them (accurate to the barrier's skew, microseconds on one network).
    double clock_offset = 0;
};
world_info describe_world(communicator& comm);

class rank_executor final : public executor {
public:
    // env.place must be this rank's; env and comm must outlive the executor.
    rank_executor(case_environment env, communicator& comm, isolation_mode isolation, double clock_offset);
    std::unique_ptr<case_session> open(const case_spec& c) override;
    // Whether some rank was asked to stop (SIGINT, SIGTERM), as known at the
    // last collective step: the same answer on every rank, so the runners
    // stop at the same point.
    bool stop_agreed() const noexcept { return stop_agreed_; }

private:
    friend class rank_session;
    case_environment env_;
    communicator& comm_;
    isolation_mode isolation_;
    double clock_offset_;
    bool stop_agreed_ = false;
};

} // namespace formatbench

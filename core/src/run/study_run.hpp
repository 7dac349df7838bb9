// A whole study run, as `formatbench run` does it: the data folder (a fresh
// one under $TMPDIR unless the study names one, removed afterwards unless
// files are kept), the run context, SIGINT/SIGTERM (stop cleanly after the
// current step; the caller exits 130), the executor of the study's
// isolation, and the runner (runner.hpp). Under MPI (a communicator
// given), every rank calls it: the ranks agree on the data folder, the
// memory limits and when to stop, and run every case together through the
// rank executor (rank_executor.hpp); the caller gives observers on rank 0
// only.
#pragma once

#include "host/registry.hpp"
#include "run/communicator.hpp"
#include "run/observer.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace formatbench {

struct study_run_options {
    std::map<std::string, case_result> resumed; // finished cases of an earlier run, by key
    std::vector<bool> selected;                 // per case, whether it runs (runner.hpp); empty = all
    std::uint64_t in_memory_bytes = 0;          // 0 = default_in_memory_bytes()
    communicator* world = nullptr;              // the MPI ranks, or null
};

// Throws usage_error for a data folder that cannot be made or used, before
// any case runs.
run_outcome run_study(const study& s, const registry& reg, observer_list& observers,
                      const study_run_options& options);

} // namespace formatbench

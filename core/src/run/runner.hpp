// The runner: runs a study's cases through an executor in the order its
// schedule gives (schedule.hpp), records every sample, decides when a case
// has enough (at least `repeat` samples and `min_time` seconds of them),
// fails a lossless case whose data came back different, and tells the
// observers. It knows nothing of processes, files, logs or reports.
#pragma once

#include "run/executor.hpp"
#include "run/observer.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace formatbench {

struct runner_options {
    // Cases finished in an earlier run, by key: kept as they are, not run again.
    std::map<std::string, case_result> resumed;
    // Per case in plan order, whether it runs (--filter, --exclude); empty =
    // all. A case not selected is not run and not counted as failed.
    std::vector<bool> selected;
    std::function<bool()> stop_requested = [] { return false; };
    std::uint64_t in_memory_bytes = 0;        // as the executor has it, for memory estimates
    std::uint64_t memory_budget = UINT64_MAX; // what the cases alive together may hold
    std::size_t max_alive = 128;              // cases alive together (interleave, shuffle)
    std::size_t max_repetitions = 100000;     // recorded repetitions of a case, at most
};

// `run` holds the context and the study; its cases are filled in, in plan
// order, with every case that finished (resumed ones included).
run_outcome run_cases(study_result run, executor& ex, observer_list& observers,
                      const runner_options& options);

} // namespace formatbench

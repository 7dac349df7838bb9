// Executes a study's cases (in forked children by default), appends each
// finished case to a JSON Lines log as it ends, resumes from such a log, and
// stops cleanly on SIGINT/SIGTERM.
#pragma once

#include "host/registry.hpp"
#include "results/result.hpp"

#include <functional>
#include <string>

namespace formatbench {

struct runner_options {
    std::string log_path;              // JSON Lines log, one finished case per line ("" = none)
    std::string resume_path;           // a log of an earlier run: its finished cases are kept, not rerun
    bool progress = false;             // one line per case on stderr
    std::uint64_t in_memory_bytes = 0; // 0 = default_in_memory_bytes()
};

struct run_outcome {
    study_result result;
    bool interrupted = false; // SIGINT or SIGTERM arrived
    bool any_failed = false;  // a case is not ok
};

// Throws usage_error for a bad directory or resume log before any case runs.
run_outcome run_study(const study& s, const registry& reg, const runner_options& options);

} // namespace formatbench

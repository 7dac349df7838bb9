// What --resume keeps of an earlier run (docs/results.md, "Resuming"): the
// finished cases of a log or a record that belong to this study. A resumed
// file must describe the same measurements: a case this study does not plan,
// or one planned with other run parameters (repeat, warm-up, ...), is an
// error naming the case and the field, unless the user asks to reuse only
// what matches. Failed, crashed and timed-out cases are kept by default
// (the study is not run again to retry a plugin that crashes); with
// retry_failed they run again.
#pragma once

#include "results/load.hpp"

#include <map>
#include <string>

namespace formatbench {

struct resume_options {
    bool retry_failed = false;   // run cases that did not end ok again
    bool reuse_matching = false; // keep only the cases that match; run the rest
};

// The cases to keep, by key. Throws usage_error naming the file.
std::map<std::string, case_result> cases_to_resume(const study& s, const results_source& from,
                                                   const resume_options& options);

} // namespace formatbench

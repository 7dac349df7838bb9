// Runs a case in a forked child so that a plugin that crashes, hangs or calls
// exit() becomes a failed case instead of ending the study.
#pragma once

#include "results/result.hpp"

#include <functional>

namespace formatbench {

// Forks; the child runs `work` and sends its result back through a pipe as
// JSON. The parent waits at most timeout_s seconds (<= 0: no limit), then
// kills the child. Statuses: crashed (with the signal), timeout, failed (the
// child exited without a result). `interrupted` is polled while waiting; when
// it returns true the child is killed and the result says so.
case_result run_isolated(const case_spec& spec, double timeout_s, const std::function<case_result()>& work,
                         const std::function<bool()>& interrupted);

} // namespace formatbench

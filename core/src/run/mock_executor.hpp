// An executor without plugins or processes, for tests of the runner and its
// schedules (as hyperfine tests its scheduler with a mock executor): each
// case follows a script of outcomes and times, and every step is recorded
// in a trace, so a test sees the order in which cases ran, how many
// repetitions each plugin would have performed (warm-ups included) and
// which of them became samples. Its listener hears the phases a case
// runner announces (case_runner::listen): warm_up before each unrecorded
// repetition, write, read and verify in each recorded one.
#pragma once

#include "run/executor.hpp"

#include <functional>
#include <string>
#include <vector>

namespace formatbench {

struct mock_script {
    step_result start;           // the outcome of start
    std::vector<double> write_s; // write time of recorded repetition i (cycled); empty = 1 ms
    std::vector<double> read_s;  // read time of recorded repetition i (cycled); empty = 1 ms
    // Seconds the phase of repetition i waited for a CPU (cycled): when
    // given, the samples carry measured accounting on one CPU, as a
    // disturbed or undisturbed phase would (results/summary.hpp).
    std::vector<double> write_wait_s, read_wait_s;
    std::size_t fail_at = SIZE_MAX; // this recorded repetition returns `failure`
    step_result failure;
    std::uint64_t file_bytes = 0;
    std::string output; // what the "plugin" printed
};

class mock_executor final : public executor {
public:
    // The script of each case; the default script succeeds with 1 ms phases.
    std::function<mock_script(const case_spec&)> script = [](const case_spec&) { return mock_script{}; };
    // One line per step: "start 3", "warmup 3", "rewarm 3", "repetition 3", "finish 3"
    // (the number is the case's index).
    std::vector<std::string> trace;
    // Called after every step with the trace so far (a test may stop the run).
    std::function<void()> after_step = [] {};

    std::unique_ptr<case_session> open(const case_spec& c) override;
};

} // namespace formatbench

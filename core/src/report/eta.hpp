// The time a run has left, for the progress output: from the wall time each
// case finished so far took, the sizes of the cases still to run, and how
// long the running ones have run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench {

struct finished_case {
    std::uint64_t bytes = 0; // payload: count x element size
    double seconds = 0;      // wall time the runner spent on the case
    std::string group = {};  // its format's label: cases of one format cost alike
};

struct pending_case {
    std::uint64_t bytes = 0;
    std::string group = {};
    double running_s = 0; // how long it has run already (0: not started)
};

// Seconds the `pending` cases will take. The rule (docs/cli.md,
// "Progress"): a pending case is estimated from the finished cases of its
// group (its format) once one has finished, else from all finished cases.
// From finished cases of 2 or more payloads, a case of payload p takes
// fixed + per_byte x p, fitted to the mean time of each finished payload by
// the cost model's least squares of the relative error with fixed,
// per_byte >= 0 (results/cost_model.hpp): small cases are mostly fixed cost
// and min_time, which scaling them by payload overstates. From one payload:
// the mean time of a finished case, scaled by payload over the mean
// finished payload (unscaled when that is 0). A running case counts what
// its estimate has left (never below 0), so the estimate counts down while
// a long case runs. NaN (unknown) when no case has finished, or when a case
// left is more than `max_extrapolation` times the largest payload finished
// (of its group and of all): a line through the first, small cases need
// not hold 10^4 times further. 0 when none remains.
double estimate_remaining_s(const std::vector<finished_case>& finished,
                            const std::vector<pending_case>& pending, double max_extrapolation = 10);

} // namespace formatbench

// The time a run has left, for the progress output: from the wall time each
// case finished so far took and the sizes of the cases still to run.
#pragma once

#include <cstdint>
#include <vector>

namespace formatbench {

struct finished_case {
    std::uint64_t bytes = 0; // payload: count x element size
    double seconds = 0;      // wall time the runner spent on the case
};

// Seconds the cases of `remaining_bytes` will take. The rule (docs/cli.md,
// "Progress"): with finished cases of 2 or more payloads, a case of payload
// p takes fixed + per_byte x p, fitted to the mean time of each finished
// payload by the cost model's least squares of the relative error with
// fixed, per_byte >= 0 (results/cost_model.hpp): small cases are mostly
// fixed cost and min_time, which scaling them by payload overstates. With
// one payload: the mean time of a finished case, scaled by payload over the
// mean finished payload (unscaled when that is 0). NaN (unknown) when no
// case has finished, or when a case left is more than `max_extrapolation`
// times the largest payload finished: a line through the first, small
// cases need not hold 10^4 times further. 0 when none remains.
double estimate_remaining_s(const std::vector<finished_case>& finished,
                            const std::vector<std::uint64_t>& remaining_bytes, double max_extrapolation = 10);

} // namespace formatbench

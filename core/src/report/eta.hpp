// The time a run has left, for the progress output: from the wall time spent
// on the cases finished so far and the sizes of the cases still to run.
#pragma once

#include <cstdint>
#include <vector>

namespace formatbench {

struct remaining_time {
    double seconds = 0;       // NaN when nothing has finished (nothing to estimate from)
    bool lower_bound = false; // some case left is too much larger than any finished to extrapolate
};

// How long the cases of `remaining_bytes` will take, given that the cases of
// `finished_bytes` took `spent_s` seconds of wall time together. The rule
// (docs/cli.md, "Progress"): each remaining case takes the mean wall time of
// a finished case, scaled by its payload (count x element size) over the mean
// payload of the finished cases; when the finished cases carried no payload,
// each remaining case takes the mean time unscaled. A case more than
// `max_extrapolation` times the largest finished payload is counted as if it
// were that much larger only, and the result is a lower bound: small cases
// are mostly fixed costs and min_time, and scaling them up by 10^4 overshoots
// by hours. Seconds 0 when none remains.
remaining_time estimate_remaining(double spent_s, const std::vector<std::uint64_t>& finished_bytes,
                                  const std::vector<std::uint64_t>& remaining_bytes,
                                  double max_extrapolation = 10);

} // namespace formatbench

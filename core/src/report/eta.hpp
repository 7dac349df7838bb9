// The time a run has left, for the progress output: from the wall time spent
// on the cases finished so far and the sizes of the cases still to run.
#pragma once

#include <cstdint>
#include <vector>

namespace formatbench {

// Seconds the cases of `remaining_bytes` will take, given that the cases of
// `finished_bytes` took `spent_s` seconds of wall time together. The rule
// (docs/cli.md, "Progress"): each remaining case takes the mean wall time of
// a finished case, scaled by its payload (count x element size) over the mean
// payload of the finished cases; when the finished cases carried no payload,
// each remaining case takes the mean time unscaled. NaN (unknown) when no
// case has finished, or when a case left is more than `max_extrapolation`
// times the largest payload finished: small cases are mostly fixed costs
// and min_time, and scaling them up by 10^4 promises hours for a minute's
// run. 0 when none remains.
double estimate_remaining_s(double spent_s, const std::vector<std::uint64_t>& finished_bytes,
                            const std::vector<std::uint64_t>& remaining_bytes, double max_extrapolation = 10);

} // namespace formatbench

// Sample statistics (every sample is kept; these summarise them) and the
// Mann-Whitney U test for comparing two runs (Boost.Math distributions).
#pragma once

#include "results/result.hpp"

#include <vector>

namespace formatbench {

// min, median, mean, sample standard deviation (n-1), CV = stddev/mean.
summary summarize(std::vector<double> samples);

// Two-sided p-value of the Mann-Whitney U test: exact (by counting) when both
// sides have at most 20 samples and there are no ties, otherwise the normal
// approximation with tie and continuity correction; 1.0 when a side is empty.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// Per-case helpers over a result's samples.
std::vector<double> write_times(const case_result& r);
std::vector<double> read_times(const case_result& r);

} // namespace formatbench

// Sample statistics (every sample is kept; these summarise them), Tukey's
// outlier fences, the bootstrap interval of a speed-up, and the
// Mann-Whitney U test for comparing two runs (Boost.Math distributions).
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <vector>

namespace formatbench {

// min, median, mean, sample standard deviation (n-1), CV = stddev/mean.
summary summarize(std::vector<double> samples);

// The q-quantile (0 <= q <= 1) by linear interpolation between order
// statistics (Hyndman and Fan's type 7, numpy's default); NaN when empty.
double quantile(std::vector<double> samples, double q);
// The same of samples already sorted ascending.
double quantile_sorted(const std::vector<double>& sorted, double q);

// The summary of an access pattern's per-operation latencies (ns, any
// order): count, min, mean, max, the percentiles by quantile() and the
// 101-point CDF; `bytes` and `clock_cost_ns` are stored as given.
latency_summary summarize_latencies(std::vector<double> latencies_ns, std::uint64_t bytes,
                                    double clock_cost_ns);

// Samples outside Tukey's fences [Q1 - 1.5 IQR, Q3 + 1.5 IQR] (quartiles
// as quantile() gives them); 0 for fewer than 4 samples.
std::size_t iqr_outliers(const std::vector<double>& samples);

// The percentile bootstrap interval (level, e.g. 0.95) of the speed-up
// median(baseline) / median(times): `resamples` times, each side is drawn
// again with replacement (index = next mt19937_64(seed) value mod n, so the
// interval is the same on every machine), and the interval is the
// (1 - level) / 2 and (1 + level) / 2 quantiles of the resampled ratios.
// NaN bounds when a side is empty or a median is not positive.
interval bootstrap_speedup_interval(const std::vector<double>& baseline, const std::vector<double>& times,
                                    std::size_t resamples = 2000, double level = 0.95,
                                    std::uint64_t seed = 1);

// Two-sided p-value of the Mann-Whitney U test: exact (by counting) when both
// sides have at most 20 samples and there are no ties, otherwise the normal
// approximation with tie and continuity correction; 1.0 when a side is empty.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// Per-case helpers over a result's samples.
std::vector<double> write_times(const case_result& r);
std::vector<double> read_times(const case_result& r);

} // namespace formatbench

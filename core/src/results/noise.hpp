// Noise shown, not hidden (docs/methodology.md, "Noise"): which timings are
// too unsteady to trust, as hyperfine warns of them, and speed-ups with
// their confidence interval. A phase is noisy when its coefficient of
// variation is above the study's noise_cv, it has fewer samples than
// noise_min_samples, or some samples lie beyond Tukey's 1.5 IQR fences.
// Cases that share their write phase (rows that differ only in `cache`,
// which changes only how the read finds the file) get their write speed-up
// from the pooled write samples of all of them, so warm and cold rows show
// the same write speed-up instead of two draws of the same noise.
#pragma once

#include "results/result.hpp"
#include "results/stats.hpp"

#include <string>
#include <vector>

namespace formatbench {

struct phase_noise {
    std::size_t n = 0;
    double cv = 0;
    std::size_t outliers = 0; // beyond 1.5 IQR (iqr_outliers)
    bool high_cv = false;     // cv > noise_cv (needs 2 samples)
    bool few_samples = false; // n < noise_min_samples
    bool noisy() const noexcept { return high_cv || few_samples || outliers > 0; }
};

phase_noise assess_phase(const std::vector<double>& times, double noise_cv, unsigned noise_min_samples);

// One line per noisy phase of a case that ran ok, e.g. "write: CV 14.2% is
// above 10%; 2 of 9 samples are outliers (beyond 1.5 IQR)"; none for a
// steady case.
std::vector<std::string> noise_findings(const case_result& c, double noise_cv, unsigned noise_min_samples);

// The write times of `c` and of every case whose identity differs from
// c's only in the read cache (run.cache), in plan order.
std::vector<double> shared_write_times(const std::vector<case_result>& all, const case_result& c);

// A speed-up (figures.hpp's speedup) with its 95% bootstrap interval
// (bootstrap_speedup_interval: B = 2000, seed 1).
struct speedup_estimate {
    double value = 0;
    interval ci;
};
speedup_estimate estimate_speedup(const std::vector<double>& baseline_times,
                                  const std::vector<double>& times);

// The write and read speed-ups of `c` against `base` (find_baseline), the
// write from shared_write_times of both; exactly 1 when `base` is `c`.
speedup_estimate write_speedup(const std::vector<case_result>& all, const case_result& base,
                               const case_result& c);
speedup_estimate read_speedup(const case_result& base, const case_result& c);

} // namespace formatbench

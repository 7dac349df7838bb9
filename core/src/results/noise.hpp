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

#include <optional>
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

// The noise of a whole run, for the one warning printed after the table:
// how many phases of ok cases are noisy and why, the worst of them (the
// highest CV), and what would steady it.
struct noise_summary {
    std::size_t phases = 0; // phases of the ok cases (two per case)
    std::size_t noisy = 0, high_cv = 0, with_outliers = 0, few_samples = 0;
    const case_result* worst = nullptr;
    bool worst_write = true;
    phase_noise worst_noise;
    // Samples that bring the worst phase's median within +-5% (95%) under a
    // normal approximation, 1.96 x 1.2533 x s / sqrt(N) <= 0.05 with s the
    // relative spread from the quartiles, (Q3 - Q1) / 1.349 / median; at least
    // noise_min_samples (no more than it has when it has enough); the
    // min_time that gives that many repetitions of the worst case (its
    // median write + read times N).
    unsigned repeat = 0;
    double min_time_s = 0;
};
noise_summary summarize_noise(const std::vector<case_result>& cases, double noise_cv,
                              unsigned noise_min_samples);

// "5 of 16 phases are noisy (~ in the table): ... The worst: ...; for its
// median within ±5%, --set repeat=N or --set min_time=T ...", or nothing
// when no phase is noisy. `verbose`: the details were printed already.
std::optional<std::string> noise_summary_text(const noise_summary& s, double noise_cv,
                                              unsigned noise_min_samples, bool verbose);

// A re-warm too short to trust (docs/methodology.md, "What a phase
// follows"): under interleave or shuffle each recorded repetition that
// follows another case's comes after a re-warm of one repetition, longer if
// warmup_time says so. When that re-warm (the larger of the case's median
// write + read and its warmup_time) is under enough_rewarm_s for some case
// that ran ok, one line says how many and names the shortest; otherwise,
// or under `sequential`, or with fewer than two cases, none.
inline constexpr double enough_rewarm_s = 0.05;
std::optional<std::string> short_rewarm_finding(const study_result& r);

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

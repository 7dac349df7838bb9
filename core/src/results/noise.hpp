// Noise shown, not hidden (docs/methodology.md, "Noise"): the one warning
// of a run. A phase is noisy (phase_figures::noisy, summary.hpp) when its
// estimate rests on disturbed samples, the coefficient of variation of the
// samples it rests on is above the study's noise_cv, it has fewer of them
// than noise_min_samples, or some lie beyond Tukey's 1.5 IQR fences.
#pragma once

#include "results/result.hpp"
#include "results/stats.hpp"

#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// The noise of a whole run, for the one warning printed after the table:
// how many phases of ok cases are noisy and why (from each case's figures,
// summary.hpp), the worst of them (the highest CV), and what would steady it.
struct noise_summary {
    std::size_t phases = 0; // phases of the ok cases (two per case)
    std::size_t noisy = 0, high_cv = 0, with_outliers = 0, few_samples = 0, imprecise = 0, on_disturbed = 0;
    const case_result* worst = nullptr;
    bool worst_write = true;
    const phase_figures* worst_phase = nullptr;
    // Samples that bring the worst phase's median within +-5% (95%) under a
    // normal approximation, 1.96 x 1.2533 x s / sqrt(N) <= 0.05 with s the
    // relative spread from the quartiles, (Q3 - Q1) / 1.349 / median; at least
    // noise_min_samples (no more than it has when it has enough); the
    // min_time that gives that many repetitions of the worst case (its
    // median write + read times N).
    unsigned repeat = 0;
    double min_time_s = 0;
};
noise_summary summarize_noise(const std::vector<case_result>& cases, unsigned noise_min_samples);

// "5 of 16 phases are noisy (~ in the table): ... The worst: ...; for its
// median within ±5%, --set repeat=N or --set min_time=T ...", or nothing
// when no phase is noisy. `verbose`: the details were printed already.
// `busy`: the machine was found busy (machine_state): more repetitions
// cannot steady what it disturbs, so none are advised.
std::optional<std::string> noise_summary_text(const noise_summary& s, double noise_cv,
                                              unsigned noise_min_samples, bool verbose, bool busy = false);

// A re-warm too short to trust (docs/methodology.md, "What a phase
// follows"): under interleave or shuffle each recorded repetition that
// follows another case's comes after a re-warm of one repetition, longer if
// warmup_time says so. When that re-warm (the larger of the case's median
// write + read and its warmup_time) is under enough_rewarm_s for some case
// that ran ok, one line says how many and names the shortest; otherwise,
// or under `sequential`, or with fewer than two cases, none.
inline constexpr double enough_rewarm_s = 0.05;
std::optional<std::string> short_rewarm_finding(const study_result& r);

} // namespace formatbench

// Comparison of two results records (`formatbench compare BASE NEW`): cases
// matched by identity, per-phase ratios of the two estimates (summary.hpp)
// with a bootstrap interval, Mann-Whitney U p-values, the run-to-run spread
// of the ratios, the geometric mean of the ratios and the threshold gate for
// CI. A change is called only where the interval lies beyond the
// threshold even with each disturbed sample's lost time taken off the
// slower side, and the ratio lies beyond the run-to-run spread. The statistics are explained for users in
// docs/compare.md.
#pragma once

#include "results/result.hpp"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench {

struct compare_options {
    double alpha = 0.05; // significance level of the Mann-Whitney U test
    // Relative slowdown that counts: a phase is "significantly slower" when
    // the ratio's whole 95% interval is above 1 + threshold (also with the
    // new side's disturbances taken off), p < alpha, and the ratio is beyond
    // the run-to-run spread.
    // Unset: 0 for the verdicts, and the comparison never gates (exit status 0).
    std::optional<double> threshold;
    std::size_t reliable_repetitions = 9; // fewer on either side: flagged unreliable
};

// One phase (write or read) of a matched case.
struct phase_comparison {
    std::size_t n_base = 0, n_new = 0;
    double base_median_s = 0, new_median_s = 0;
    double ratio = 0; // new median / base median: above 1 is slower
    // 95% bootstrap interval of the ratio (the samples each estimate rests on).
    double ratio_low = std::numeric_limits<double>::quiet_NaN();
    double ratio_high = std::numeric_limits<double>::quiet_NaN();
    // The same intervals' outer bounds with the slower side's samples less
    // what took the CPU from each (phase_figures::used_outside_s): the
    // change a disturbance cannot explain.
    double slower_low = std::numeric_limits<double>::quiet_NaN();
    double faster_high = std::numeric_limits<double>::quiet_NaN();
    double p = 1;           // two-sided Mann-Whitney U over the samples each estimate rests on
    bool disturbed = false; // either estimate rests on disturbed samples
    // ratio_low and slower_low > 1 + threshold, p < alpha, beyond the run spread
    bool slower = false;
    bool faster = false; // ratio_high and faster_high < 1 / (1 + threshold), likewise
};

// How a pair was found: the same case key, or (fallback) the same key but
// for the format's options, when exactly one case on each side is left with
// that identity (a plugin option changed under the same label).
enum class match_kind { key, options_differ };

struct case_comparison {
    std::string key;     // the base case's key
    std::string dataset; // dataset name
    std::string label;   // format label plus the distinguishing run parameters
    match_kind kind = match_kind::key;
    std::string note; // for options_differ: "options: a -> b"
    bool comparable = true;
    std::string not_comparable_reason; // a side failed or has no samples
    bool unreliable = false;           // a side has fewer than reliable_repetitions samples
    phase_comparison write, read;
    // The read phase's p99 latency (figures.hpp's latency_medians: median
    // over the repetitions) when both sides read under an access pattern;
    // NaN otherwise (e.g. a record of schema 3). p99_ratio = new / base,
    // above 1: the slow tail got slower. Informative only: no gate.
    double base_p99_ns = std::numeric_limits<double>::quiet_NaN();
    double new_p99_ns = std::numeric_limits<double>::quiet_NaN();
    double p99_ratio = std::numeric_limits<double>::quiet_NaN();
    bool slower() const noexcept { return comparable && (write.slower || read.slower); }
};

struct unmatched_case {
    std::string key, dataset, label;
    case_status status = case_status::ok;
};

struct comparison {
    std::string base_source, new_source;
    compare_options options;
    std::vector<case_comparison> cases; // in the base record's order
    std::vector<unmatched_case> only_base, only_new;
    // Geometric mean of the ratios over comparable cases; NaN when none.
    double geomean_write = 0, geomean_read = 0;
    // The run-to-run spread: 1.4826 x the median absolute deviation of the
    // comparable phases' log ratios (0 with fewer than run_spread_min_phases
    // of them); a ratio is a change only beyond exp(3 x spread) either way.
    double run_spread = 0;
    // Phases (of comparable cases) whose estimate rests on disturbed
    // samples, per side, and all phases compared.
    std::size_t base_disturbed = 0, new_disturbed = 0, phases = 0;
    std::size_t comparable_count() const noexcept;
    std::size_t slower_count() const noexcept;
    std::size_t unreliable_count() const noexcept;
    // True when a threshold was given and some case is significantly slower.
    bool gate_fails() const noexcept;
};

// The fewest phases from which the run-to-run spread is estimated.
inline constexpr std::size_t run_spread_min_phases = 8;

comparison compare_results(const study_result& base, const study_result& next,
                           const compare_options& options);

// "5%" -> 0.05, "0.05" -> 0.05; usage_error for anything else or a value
// outside [0, 10] (0% .. 1000%).
double parse_threshold(std::string_view text);

// Geometric mean of positive finite values; NaN when there are none.
double geometric_mean(const std::vector<double>& values);

} // namespace formatbench

// The noise warning of a run (noise.hpp).
#include "results/noise.hpp"

#include "results/figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench {

noise_summary summarize_noise(const std::vector<case_result>& cases, unsigned noise_min_samples) {
    noise_summary s;
    for (const case_result& c : cases) {
        if (c.status != case_status::ok) continue;
        for (const bool write : {true, false}) {
            const phase_figures& p = write ? c.figures.write : c.figures.read;
            ++s.phases;
            if (!p.noisy()) continue;
            ++s.noisy;
            const bool spread_rules = !p.has_interval();
            s.high_cv += spread_rules && p.high_cv;
            s.with_outliers += spread_rules && p.outliers > 0;
            s.few_samples += spread_rules && p.few_samples;
            s.imprecise += p.imprecise;
            s.on_disturbed += p.on_disturbed;
            const phase_figures* w = s.worst_phase;
            const bool worse = !w || p.cv > w->cv || (p.cv == w->cv && p.outliers > w->outliers);
            if (worse) {
                s.worst = &c;
                s.worst_write = write;
                s.worst_phase = &p;
            }
        }
    }
    if (!s.worst) return s;
    // The spread from the quartiles (sigma = IQR / 1.349 for a normal
    // distribution), not the CV: one slow repetition inflates the CV but
    // hardly moves the median, and the median is what is reported.
    const std::vector<double>& times = s.worst_phase->used_times;
    const double median = quantile(times, 0.5);
    const double robust_cv =
        median > 0 ? (quantile(times, 0.75) - quantile(times, 0.25)) / 1.349 / median : 0;
    const double z = 1.96 * 1.2533, target = 0.05;
    const double by_cv = std::isfinite(robust_cv) ? std::ceil(std::pow(z * robust_cv / target, 2)) : 0;
    const double n = std::max<double>(noise_min_samples, by_cv);
    s.repeat = static_cast<unsigned>(std::min(n, 100000.0));
    const double repetition_s = s.worst->figures.write.median_s + s.worst->figures.read.median_s;
    s.min_time_s = std::isfinite(repetition_s) ? s.repeat * repetition_s : 0;
    return s;
}

namespace {

// 0.0123 -> "13ms", 4.2 -> "5s": a min_time to type, rounded up.
std::string time_to_type(double seconds) {
    if (seconds < 1) return fmt::format("{}ms", static_cast<long long>(std::ceil(seconds * 1e3)));
    return fmt::format("{}s", static_cast<long long>(std::ceil(seconds)));
}

} // namespace

std::optional<std::string> noise_summary_text(const noise_summary& s, double noise_cv,
                                              unsigned noise_min_samples, bool verbose, bool busy) {
    if (!s.worst) return std::nullopt;
    std::vector<std::string> why;
    if (s.high_cv) why.push_back(fmt::format("{} with a CV above {:g}%", s.high_cv, noise_cv * 100));
    if (s.with_outliers) why.push_back(fmt::format("{} with outliers beyond 1.5 IQR", s.with_outliers));
    if (s.few_samples)
        why.push_back(fmt::format("{} with fewer than {} samples", s.few_samples, noise_min_samples));
    if (s.imprecise)
        why.push_back(fmt::format("{} with a median known less precisely than asked", s.imprecise));
    if (s.on_disturbed)
        why.push_back(
            fmt::format("{} resting on disturbed samples (something else took the CPU)", s.on_disturbed));
    std::string reasons;
    for (std::size_t i = 0; i < why.size(); ++i)
        reasons += (i ? ", " : "") + why[i];
    const phase_figures& w = *s.worst_phase;
    std::string worst =
        fmt::format("'{}' {}, CV {:.1f}% over {} sample{}", s.worst->spec.format.label,
                    s.worst_write ? "write" : "read", w.cv * 100, w.used, w.used == 1 ? "" : "s");
    if (w.outliers) worst += fmt::format(", {} outlier{}", w.outliers, w.outliers == 1 ? "" : "s");
    const double repetition_s = s.worst->figures.write.median_s + s.worst->figures.read.median_s;
    const double target = s.worst->spec.params.precision;
    // The interval narrows as 1 / sqrt(n): the samples for the precision asked.
    const double needed =
        w.imprecise ? std::ceil(static_cast<double>(w.used) * std::pow(w.precision / target, 2)) : 0;
    const std::string remedy =
        busy ? std::string("The machine was busy (see above): more repetitions do not steady what it "
                           "disturbs; run again on a quieter machine.")
        : w.imprecise
            ? fmt::format(
                  "Its median is known within \u00b1{:.1f}% over {} samples; for \u00b1{:g}%, about {} "
                  "repetitions: --set repeat=auto --set max_time={}.",
                  w.precision * 100, w.used, target * 100, needed,
                  time_to_type(std::isfinite(repetition_s) ? needed * repetition_s : 0))
        : s.repeat > w.used
            ? fmt::format("For its median within \u00b15% (95%), run about {} repetitions: --set "
                          "repeat={} or --set min_time={}.",
                          s.repeat, s.repeat, time_to_type(s.min_time_s))
            : fmt::format("Its median is within \u00b15% (95%) already over {} samples (the median is "
                          "robust to a few slow repetitions); a quieter machine steadies the rest.",
                          w.used);
    return fmt::format("{} of {} phases are noisy (~ in the table): {}. The worst: {}. {} {}", s.noisy,
                       s.phases, reasons, worst, remedy,
                       verbose ? "Each noisy phase is listed above."
                               : "Each noisy phase: --verbose, or \"noise\" in the JSON record.");
}

std::optional<std::string> short_rewarm_finding(const study_result& r) {
    if (r.spec.schedule == schedule_mode::sequential || r.cases.size() < 2) return std::nullopt;
    std::size_t short_ones = 0;
    const case_result* shortest = nullptr;
    double shortest_s = 0;
    for (const case_result& c : r.cases) {
        if (c.status != case_status::ok || c.samples.empty()) continue;
        const double repetition_s = c.figures.write.median_s + c.figures.read.median_s;
        const double rewarm_s = std::max(repetition_s, c.spec.params.warmup_time);
        if (rewarm_s >= enough_rewarm_s) continue;
        ++short_ones;
        if (!shortest || rewarm_s < shortest_s) {
            shortest = &c;
            shortest_s = rewarm_s;
        }
    }
    if (!shortest) return std::nullopt;
    return fmt::format(
        "schedule {}: {} of {} cases re-warm for less than {:g} ms before a recorded repetition (one "
        "repetition, or warmup_time if longer; shortest: case {}, '{}', {:.3g} ms); where memory left "
        "alone for a few milliseconds is slower to touch again, such cases measure slower than under "
        "sequential: set warmup_time: {:g}ms (docs/methodology.md, \"What a phase follows\")",
        to_string(r.spec.schedule), short_ones, r.cases.size(), enough_rewarm_s * 1e3, shortest->spec.index,
        shortest->spec.format.label, shortest_s * 1e3, enough_rewarm_s * 1e3);
}

} // namespace formatbench

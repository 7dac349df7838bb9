// Noise findings and speed-up intervals (noise.hpp).
#include "results/noise.hpp"

#include "results/figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench {

phase_noise assess_phase(const std::vector<double>& times, double noise_cv, unsigned noise_min_samples) {
    phase_noise p;
    const summary s = summarize(times);
    p.n = s.n;
    p.cv = s.cv;
    p.outliers = iqr_outliers(times);
    p.high_cv = s.n >= 2 && s.cv > noise_cv;
    p.few_samples = s.n < noise_min_samples;
    return p;
}

std::vector<std::string> noise_findings(const case_result& c, double noise_cv, unsigned noise_min_samples) {
    std::vector<std::string> out;
    if (c.status != case_status::ok) return out;
    for (const bool write : {true, false}) {
        const phase_noise p =
            assess_phase(write ? write_times(c) : read_times(c), noise_cv, noise_min_samples);
        std::vector<std::string> parts;
        if (p.high_cv) parts.push_back(fmt::format("CV {:.1f}% is above {:g}%", p.cv * 100, noise_cv * 100));
        if (p.outliers)
            parts.push_back(fmt::format("{} of {} samples {} (beyond 1.5 IQR)", p.outliers, p.n,
                                        p.outliers == 1 ? "is an outlier" : "are outliers"));
        if (p.few_samples)
            parts.push_back(
                fmt::format("only {} sample{} (fewer than {})", p.n, p.n == 1 ? "" : "s", noise_min_samples));
        if (!parts.empty()) {
            std::string line = write ? "write: " : "read: ";
            for (std::size_t i = 0; i < parts.size(); ++i)
                line += (i ? "; " : "") + parts[i];
            out.push_back(line);
        }
    }
    return out;
}

noise_summary summarize_noise(const std::vector<case_result>& cases, double noise_cv,
                              unsigned noise_min_samples) {
    noise_summary s;
    for (const case_result& c : cases) {
        if (c.status != case_status::ok) continue;
        for (const bool write : {true, false}) {
            const phase_noise p =
                assess_phase(write ? write_times(c) : read_times(c), noise_cv, noise_min_samples);
            ++s.phases;
            if (!p.noisy()) continue;
            ++s.noisy;
            s.high_cv += p.high_cv;
            s.with_outliers += p.outliers > 0;
            s.few_samples += p.few_samples;
            const bool worse = !s.worst || p.cv > s.worst_noise.cv ||
                               (p.cv == s.worst_noise.cv && p.outliers > s.worst_noise.outliers);
            if (worse) {
                s.worst = &c;
                s.worst_write = write;
                s.worst_noise = p;
            }
        }
    }
    if (!s.worst) return s;
    // The spread from the quartiles (sigma = IQR / 1.349 for a normal
    // distribution), not the CV: one slow repetition inflates the CV but
    // hardly moves the median, and the median is what is reported.
    const std::vector<double> times = s.worst_write ? write_times(*s.worst) : read_times(*s.worst);
    const double median = quantile(times, 0.5);
    const double robust_cv =
        median > 0 ? (quantile(times, 0.75) - quantile(times, 0.25)) / 1.349 / median : 0;
    const double z = 1.96 * 1.2533, target = 0.05;
    const double by_cv = std::isfinite(robust_cv) ? std::ceil(std::pow(z * robust_cv / target, 2)) : 0;
    const double n = std::max<double>(noise_min_samples, by_cv);
    s.repeat = static_cast<unsigned>(std::min(n, 100000.0));
    const double repetition_s =
        summarize(write_times(*s.worst)).median + summarize(read_times(*s.worst)).median;
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
                                              unsigned noise_min_samples, bool verbose) {
    if (!s.worst) return std::nullopt;
    std::vector<std::string> why;
    if (s.high_cv) why.push_back(fmt::format("{} with a CV above {:g}%", s.high_cv, noise_cv * 100));
    if (s.with_outliers) why.push_back(fmt::format("{} with outliers beyond 1.5 IQR", s.with_outliers));
    if (s.few_samples)
        why.push_back(fmt::format("{} with fewer than {} samples", s.few_samples, noise_min_samples));
    std::string reasons;
    for (std::size_t i = 0; i < why.size(); ++i)
        reasons += (i ? ", " : "") + why[i];
    const phase_noise& w = s.worst_noise;
    std::string worst = fmt::format("'{}' {}, CV {:.1f}% over {} sample{}", s.worst->spec.format.label,
                                    s.worst_write ? "write" : "read", w.cv * 100, w.n, w.n == 1 ? "" : "s");
    if (w.outliers) worst += fmt::format(", {} outlier{}", w.outliers, w.outliers == 1 ? "" : "s");
    const std::string remedy =
        s.repeat > w.n
            ? fmt::format("For its median within \u00b15% (95%), run about {} repetitions: --set "
                          "repeat={} or --set min_time={}.",
                          s.repeat, s.repeat, time_to_type(s.min_time_s))
            : fmt::format("Its median is within \u00b15% (95%) already over {} samples (the median is "
                          "robust to a few slow repetitions); a quieter machine steadies the rest.",
                          w.n);
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
        const double repetition_s = summarize(write_times(c)).median + summarize(read_times(c)).median;
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

namespace {

bool same_but_cache(const case_identity& a, const case_identity& b) {
    auto strip = [](const case_identity& id) {
        case_identity out;
        for (const auto& e : id)
            if (e.first != "run.cache") out.push_back(e);
        return out;
    };
    return strip(a) == strip(b);
}

// The baseline against itself: exactly 1 (two resamples of the same
// samples would give an interval that means nothing).
speedup_estimate self_speedup(const case_result& c) {
    const double one = c.samples.empty() ? not_a_number : 1.0;
    return {one, {one, one}};
}

} // namespace

std::vector<double> shared_write_times(const std::vector<case_result>& all, const case_result& c) {
    std::vector<double> out;
    bool self = false;
    for (const case_result& o : all) {
        if (o.status != case_status::ok && &o != &c) continue;
        if (&o == &c || (!c.spec.identity.empty() && same_but_cache(o.spec.identity, c.spec.identity))) {
            self |= &o == &c;
            for (double t : write_times(o))
                out.push_back(t);
        }
    }
    if (!self) out = write_times(c); // c is not one of `all`
    return out;
}

speedup_estimate estimate_speedup(const std::vector<double>& baseline_times,
                                  const std::vector<double>& times) {
    return {speedup(baseline_times, times), bootstrap_speedup_interval(baseline_times, times)};
}

speedup_estimate write_speedup(const std::vector<case_result>& all, const case_result& base,
                               const case_result& c) {
    if (&base == &c) return self_speedup(c);
    return estimate_speedup(shared_write_times(all, base), shared_write_times(all, c));
}

speedup_estimate read_speedup(const case_result& base, const case_result& c) {
    if (&base == &c) return self_speedup(c);
    return estimate_speedup(read_times(base), read_times(c));
}

} // namespace formatbench

// Noise findings and speed-up intervals (noise.hpp).
#include "results/noise.hpp"

#include "results/figures.hpp"

#include <fmt/format.h>

#include <algorithm>

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

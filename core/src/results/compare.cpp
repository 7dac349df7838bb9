// Comparison of two results records (see compare.hpp, docs/compare.md).
//
// Matching: first by case identity (study/identity.hpp: data set, format
// label, plugin, options, chunk, cache, sync...), field by field. A case left
// over on both sides whose identity differs only in the format's options is then
// paired when that identity is unique on each side: a plugin option changed
// under the same label (e.g. a planted slowdown) is still the same row of
// the study, and the note says what changed. Everything else is listed as
// unmatched, never dropped.
#include "results/compare.hpp"

#include "base/error.hpp"
#include "results/figures.hpp"
#include "results/json.hpp"
#include "results/stats.hpp"
#include "results/summary.hpp"
#include "study/identity.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace formatbench {
namespace {

// The identities of a record's cases (study/identity.hpp), recomputed from
// their specs with today's rules, so that records of different versions are
// matched alike, field by field.
std::vector<case_identity> identities(const study_result& r) {
    std::vector<case_spec> specs;
    for (const case_result& c : r.cases)
        specs.push_back(c.spec);
    assign_identities(specs);
    std::vector<case_identity> out;
    for (auto& s : specs)
        out.push_back(std::move(s.identity));
    return out;
}

std::string options_text(const option_list& o) {
    option_list sorted = o;
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    for (const auto& [k, v] : sorted)
        out += (out.empty() ? "" : ",") + k + "=" + v;
    return out.empty() ? "(none)" : out;
}

// Row labels as the console table names them (format label plus the run
// parameters that tell cases of the same data set apart), by case position.
std::vector<std::string> row_labels(const study_result& r) {
    std::vector<std::string> labels(r.cases.size());
    for (const dataset_group& g : group_by_dataset(r.cases))
        for (const case_result* c : g.cases)
            labels[static_cast<std::size_t>(c - r.cases.data())] = row_label(*c, g);
    return labels;
}

// One phase from the two cases' summaries; slower and faster are decided
// once the run-to-run spread is known (judge).
phase_comparison compare_phase(const phase_figures& base, const phase_figures& next) {
    phase_comparison p;
    p.n_base = base.n;
    p.n_new = next.n;
    p.base_median_s = base.median_s;
    p.new_median_s = next.median_s;
    p.ratio = p.base_median_s > 0 ? p.new_median_s / p.base_median_s : not_a_number;
    // What the disturbances cannot explain: a side's samples less the time
    // something outside took from each.
    auto less_outside = [](const phase_figures& f) {
        std::vector<double> t = f.used_times;
        for (std::size_t i = 0; i < t.size() && i < f.used_outside_s.size(); ++i)
            t[i] -= f.used_outside_s[i];
        return t;
    };
    auto any_outside = [](const phase_figures& f) {
        return std::any_of(f.used_outside_s.begin(), f.used_outside_s.end(), [](double x) { return x > 0; });
    };
    if (base.has_interval() && next.has_interval()) {
        // Both medians have a 95% interval (order statistics, summary.hpp):
        // the ratio lies between the quotients of their ends whenever both
        // cover their medians (at least 90%, in practice more). No
        // resampling: compare stays linear in the cases.
        p.ratio_low = next.ci_low_s / base.ci_high_s;
        p.ratio_high = next.ci_high_s / base.ci_low_s;
        auto low_end = [&](const phase_figures& f) {
            std::vector<double> t = less_outside(f);
            std::sort(t.begin(), t.end());
            return median_interval(t).low;
        };
        p.slower_low = any_outside(next) ? low_end(next) / base.ci_high_s : p.ratio_low;
        p.faster_high = any_outside(base) ? next.ci_high_s / low_end(base) : p.ratio_high;
    } else {
        // Too few samples for order statistics: the bootstrap interval of
        // median(new) / median(base) (bootstrap_speedup_interval's
        // "baseline" is the numerator).
        const interval ci = bootstrap_speedup_interval(next.used_times, base.used_times);
        p.ratio_low = ci.low;
        p.ratio_high = ci.high;
        p.slower_low = any_outside(next) ? bootstrap_speedup_interval(less_outside(next), base.used_times).low
                                         : p.ratio_low;
        p.faster_high = any_outside(base)
                            ? bootstrap_speedup_interval(next.used_times, less_outside(base)).high
                            : p.ratio_high;
    }
    p.p = mann_whitney_p(base.used_times, next.used_times);
    p.disturbed = base.on_disturbed || next.on_disturbed;
    return p;
}

void judge(phase_comparison& p, const compare_options& o, double run_spread) {
    const double limit = 1 + o.threshold.value_or(0.0);
    const bool beyond_spread = std::abs(std::log(p.ratio)) > 3 * run_spread;
    const bool significant = p.p < o.alpha && std::isfinite(p.ratio) && beyond_spread;
    p.slower = significant && p.ratio_low > limit && p.slower_low > limit;
    p.faster = significant && p.ratio_high < 1 / limit && p.faster_high < 1 / limit;
}

// 1.4826 x the median absolute deviation of the log ratios (a standard
// deviation's robust estimate); 0 for fewer than run_spread_min_phases.
double spread_of(const std::vector<double>& ratios) {
    std::vector<double> logs;
    for (double r : ratios)
        if (std::isfinite(r) && r > 0) logs.push_back(std::log(r));
    if (logs.size() < run_spread_min_phases) return 0;
    const double centre = quantile(logs, 0.5);
    for (double& x : logs)
        x = std::abs(x - centre);
    return 1.4826 * quantile(logs, 0.5);
}

std::string not_comparable(const case_result& c, const char* side) {
    if (c.status != case_status::ok)
        return fmt::format("{} {}{}", side, to_string(c.status), c.error.empty() ? "" : ": " + c.error);
    if (c.samples.empty()) return fmt::format("{} has no samples", side);
    return "";
}

case_comparison compare_case(const case_result& b, const case_result& n, const std::string& label,
                             const compare_options& o) {
    case_comparison c;
    c.key = b.spec.key;
    c.dataset = b.spec.dataset.name;
    c.label = label;
    std::string reason = not_comparable(b, "base");
    const std::string new_reason = not_comparable(n, "new");
    if (!new_reason.empty()) reason += (reason.empty() ? "" : "; ") + new_reason;
    if (b.payload_bytes != n.payload_bytes && reason.empty())
        reason = fmt::format("payload differs ({} vs {} bytes)", b.payload_bytes, n.payload_bytes);
    c.comparable = reason.empty();
    c.not_comparable_reason = reason;
    c.write = compare_phase(b.figures.write, n.figures.write);
    c.read = compare_phase(b.figures.read, n.figures.read);
    if (const auto& lb = b.figures.latency, &ln = n.figures.latency; lb && ln) {
        c.base_p99_ns = lb->p99_ns;
        c.new_p99_ns = ln->p99_ns;
        c.p99_ratio = lb->p99_ns > 0 ? ln->p99_ns / lb->p99_ns : not_a_number;
    }
    if (c.comparable) c.unreliable = std::min(b.samples.size(), n.samples.size()) < o.reliable_repetitions;
    return c;
}

} // namespace

double geometric_mean(const std::vector<double>& values) {
    double log_sum = 0;
    std::size_t n = 0;
    for (double v : values)
        if (std::isfinite(v) && v > 0) log_sum += std::log(v), ++n;
    return n ? std::exp(log_sum / static_cast<double>(n)) : not_a_number;
}

std::size_t comparison::comparable_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return c.comparable; }));
}
std::size_t comparison::slower_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return c.slower(); }));
}
std::size_t comparison::unreliable_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return c.unreliable; }));
}
bool comparison::gate_fails() const noexcept {
    return options.threshold.has_value() && slower_count() > 0;
}

comparison compare_results(const study_result& base, const study_result& next,
                           const compare_options& options) {
    comparison out;
    out.options = options;
    const std::vector<std::string> base_labels = row_labels(base), new_labels = row_labels(next);

    const std::vector<case_identity> base_ids = identities(base), new_ids = identities(next);
    std::map<case_identity, std::size_t> new_by_identity;
    for (std::size_t i = 0; i < next.cases.size(); ++i)
        new_by_identity.emplace(new_ids[i], i);
    std::vector<bool> base_used(base.cases.size(), false), new_used(next.cases.size(), false);
    std::vector<std::size_t> partner(base.cases.size(), 0);
    for (std::size_t i = 0; i < base.cases.size(); ++i) {
        auto it = new_by_identity.find(base_ids[i]);
        if (it != new_by_identity.end() && !new_used[it->second]) {
            base_used[i] = new_used[it->second] = true;
            partner[i] = it->second;
        }
    }
    // Fallback: same identity but for the options, unique on both sides.
    std::map<case_identity, std::vector<std::size_t>> base_loose, new_loose;
    for (std::size_t i = 0; i < base.cases.size(); ++i)
        if (!base_used[i]) base_loose[without_options(base_ids[i])].push_back(i);
    for (std::size_t i = 0; i < next.cases.size(); ++i)
        if (!new_used[i]) new_loose[without_options(new_ids[i])].push_back(i);
    std::vector<std::string> notes(base.cases.size());
    for (const auto& [k, bs] : base_loose) {
        auto it = new_loose.find(k);
        if (bs.size() != 1 || it == new_loose.end() || it->second.size() != 1) continue;
        const std::size_t b = bs.front(), n = it->second.front();
        base_used[b] = new_used[n] = true;
        partner[b] = n;
        notes[b] = fmt::format("options: {} -> {}", options_text(base.cases[b].spec.format.options),
                               options_text(next.cases[n].spec.format.options));
    }

    std::vector<double> write_ratios, read_ratios;
    for (std::size_t i = 0; i < base.cases.size(); ++i) {
        const case_result& b = base.cases[i];
        if (!base_used[i]) {
            out.only_base.push_back({b.spec.key, b.spec.dataset.name, base_labels[i], b.status});
            continue;
        }
        case_comparison c = compare_case(b, next.cases[partner[i]], base_labels[i], options);
        if (!notes[i].empty()) {
            c.kind = match_kind::options_differ;
            c.note = notes[i];
        }
        if (c.comparable) {
            write_ratios.push_back(c.write.ratio);
            read_ratios.push_back(c.read.ratio);
        }
        out.cases.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < next.cases.size(); ++i)
        if (!new_used[i])
            out.only_new.push_back({next.cases[i].spec.key, next.cases[i].spec.dataset.name, new_labels[i],
                                    next.cases[i].status});
    out.geomean_write = geometric_mean(write_ratios);
    out.geomean_read = geometric_mean(read_ratios);
    std::vector<double> all = write_ratios;
    all.insert(all.end(), read_ratios.begin(), read_ratios.end());
    out.run_spread = spread_of(all);
    for (case_comparison& c : out.cases) {
        if (!c.comparable) continue;
        for (phase_comparison* p : {&c.write, &c.read})
            judge(*p, options, out.run_spread);
    }
    for (std::size_t i = 0; i < base.cases.size(); ++i) {
        if (!base_used[i]) continue;
        const case_result &b = base.cases[i], &n = next.cases[partner[i]];
        if (not_comparable(b, "base").empty() && not_comparable(n, "new").empty())
            for (const bool write : {true, false}) {
                ++out.phases;
                out.base_disturbed += (write ? b.figures.write : b.figures.read).on_disturbed;
                out.new_disturbed += (write ? n.figures.write : n.figures.read).on_disturbed;
            }
    }
    return out;
}

double parse_threshold(std::string_view text) {
    std::string s(text);
    const bool percent = !s.empty() && s.back() == '%';
    if (percent) s.pop_back();
    double v = 0;
    std::size_t used = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (s.empty() || used != s.size() || !std::isfinite(v))
        throw usage_error(fmt::format(
            "--threshold: expected a percentage like 5% or a fraction like 0.05, got '{}'", text));
    if (percent) v /= 100;
    if (v < 0 || v > 10) throw usage_error(fmt::format("--threshold: '{}' is outside 0% .. 1000%", text));
    return v;
}

} // namespace formatbench

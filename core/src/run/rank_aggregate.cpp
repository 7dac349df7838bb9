// The ranks' reports combined (rank_aggregate.hpp).
#include "run/rank_aggregate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace formatbench {
namespace {

// The larger error; NaN (a value where an infinity or NaN was expected,
// verify.cpp) is larger than any number.
double larger_error(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
    return std::max(a, b);
}

// The fraction of one rank's operations at or below x, from its
// percentile curve (cdf_ns, p999_ns), linear between the percentiles.
double fraction_at_or_below(const latency_summary& l, double x) {
    if (l.cdf_ns.size() != 101 || x < l.cdf_ns.front()) return 0;
    if (x >= l.cdf_ns.back()) return 1;
    // Knots (value, fraction): the 101 percentiles, and p99.9 between p99 and p100.
    auto knot = [&](std::size_t k) -> std::pair<double, double> {
        if (k <= 99) return {l.cdf_ns[k], k / 100.0};
        if (k == 100) return {std::clamp(l.p999_ns, l.cdf_ns[99], l.cdf_ns[100]), 0.999};
        return {l.cdf_ns[100], 1.0};
    };
    for (std::size_t k = 1; k <= 101; ++k) {
        const auto [x1, f1] = knot(k);
        if (x > x1) continue;
        const auto [x0, f0] = knot(k - 1);
        return x1 > x0 ? f0 + (f1 - f0) * (x - x0) / (x1 - x0) : f1;
    }
    return 1;
}

// The latency value below which fraction q of all ranks' operations lie:
// the ranks' curves weighted by their operations, inverted by bisection.
double mixture_quantile(const std::vector<const latency_summary*>& ls, double q) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, ops = 0;
    for (const latency_summary* l : ls) {
        lo = std::min(lo, l->cdf_ns.front());
        hi = std::max(hi, l->cdf_ns.back());
        ops += static_cast<double>(l->ops);
    }
    if (q <= 0) return lo;
    if (q >= 1) return hi;
    auto mixture = [&](double x) {
        double f = 0;
        for (const latency_summary* l : ls)
            f += static_cast<double>(l->ops) * fraction_at_or_below(*l, x);
        return f / ops;
    };
    for (int i = 0; i < 200 && hi - lo > 1e-9 * std::max(1.0, hi); ++i) {
        const double mid = std::midpoint(lo, hi);
        (mixture(mid) < q ? lo : hi) = mid;
    }
    return hi;
}

// Ranks in increasing order as ranges: "0-3, 5, 7-8".
std::string rank_ranges(const std::vector<std::size_t>& ranks) {
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!out.empty()) out += ", ";
        out += j == i ? fmt::format("{}", ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[j]);
        i = j + 1;
    }
    return out;
}

} // namespace

std::optional<latency_summary> combine_latency(const std::vector<rank_report>& ranks) {
    std::vector<const latency_summary*> ls;
    for (const rank_report& r : ranks)
        if (r.report.sample.latency && r.report.sample.latency->ops > 0 &&
            r.report.sample.latency->cdf_ns.size() == 101)
            ls.push_back(&*r.report.sample.latency);
    if (ls.empty()) return std::nullopt;
    if (ls.size() == 1) return *ls.front();
    latency_summary out;
    out.min_ns = std::numeric_limits<double>::infinity();
    out.max_ns = -out.min_ns;
    double sum = 0;
    for (const latency_summary* l : ls) {
        out.ops += l->ops;
        out.bytes += l->bytes;
        out.min_ns = std::min(out.min_ns, l->min_ns);
        out.max_ns = std::max(out.max_ns, l->max_ns);
        out.clock_cost_ns = std::max(out.clock_cost_ns, l->clock_cost_ns);
        sum += l->mean_ns * static_cast<double>(l->ops);
    }
    out.mean_ns = sum / static_cast<double>(out.ops);
    out.cdf_ns.reserve(101);
    for (int k = 0; k <= 100; ++k)
        out.cdf_ns.push_back(k == 0 ? out.min_ns : k == 100 ? out.max_ns : mixture_quantile(ls, k / 100.0));
    out.p50_ns = out.cdf_ns[50];
    out.p90_ns = out.cdf_ns[90];
    out.p99_ns = out.cdf_ns[99];
    out.p999_ns = mixture_quantile(ls, 0.999);
    return out;
}

step_result combine_steps(const std::vector<rank_report>& ranks) {
    for (const rank_report& r : ranks)
        if (r.step.status == case_status::skipped) return r.step;
    for (bool followed : {false, true}) {
        // Each distinct message with the ranks that gave it, in the order
        // of their first rank.
        std::vector<std::pair<std::string, std::vector<std::size_t>>> messages;
        step_result out;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            const step_result& s = ranks[i].step;
            if (s.ok() || (s.error == another_rank_failed) != followed) continue;
            if (out.ok()) out = s;
            auto same = std::find_if(messages.begin(), messages.end(),
                                     [&](const auto& m) { return m.first == s.error; });
            if (same == messages.end())
                messages.push_back({s.error, {i}});
            else
                same->second.push_back(i);
        }
        if (messages.empty()) continue;
        if (ranks.size() == 1) return out;
        out.error.clear();
        for (const auto& [text, who] : messages) {
            if (!out.error.empty()) out.error += "; ";
            out.error += fmt::format("{} {}: {}", who.size() > 1 ? "ranks" : "rank", rank_ranges(who), text);
        }
        return out;
    }
    return {};
}

phase_sample combine_phase(const std::vector<rank_report>& ranks) {
    phase_sample out;
    if (ranks.empty()) return out;
    double first = std::numeric_limits<double>::infinity(), last = -first;
    std::vector<double> own;
    for (const rank_report& r : ranks) {
        const phase_sample& s = r.report.sample;
        first = std::min(first, r.report.started);
        last = std::max(last, r.report.started + s.wall_s);
        out.user_s += s.user_s;
        out.sys_s += s.sys_s;
        add_rank_accounting(out.accounting, s.accounting);
        own.push_back(s.wall_s);
        for (const auto& metric : s.metrics) {
            auto it = std::find_if(out.metrics.begin(), out.metrics.end(),
                                   [&](const auto& m) { return m.first == metric.first; });
            if (it == out.metrics.end())
                out.metrics.push_back(metric);
            else
                it->second += metric.second;
        }
    }
    out.wall_s = last - first;
    out.latency = combine_latency(ranks);
    if (ranks.size() > 1) {
        std::sort(own.begin(), own.end());
        const std::size_t n = own.size();
        const double median = n % 2 ? own[n / 2] : (own[n / 2 - 1] + own[n / 2]) / 2;
        out.ranks = rank_spread{own.front(), median, own.back()};
    }
    return out;
}

double combine_resident(const std::vector<rank_report>& ranks) {
    double sum = 0;
    std::size_t n = 0;
    for (const rank_report& r : ranks)
        if (r.report.resident_fraction >= 0) {
            sum += r.report.resident_fraction;
            ++n;
        }
    return n ? sum / static_cast<double>(n) : -1;
}

verification combine_verify(const std::vector<rank_report>& ranks) {
    verification out;
    if (ranks.empty()) return out;
    out.checked = true;
    out.lossless_expected = ranks.front().report.verify.lossless_expected;
    for (const rank_report& r : ranks) {
        const verification& v = r.report.verify;
        out.checked = out.checked && v.checked;
        out.compared += v.compared;
        if (v.mismatches > 0 && (out.mismatches == 0 || v.first_mismatch_index < out.first_mismatch_index))
            out.first_mismatch_index = v.first_mismatch_index;
        out.mismatches += v.mismatches;
        out.max_abs_error = larger_error(out.max_abs_error, v.max_abs_error);
        out.max_rel_error = larger_error(out.max_rel_error, v.max_rel_error);
        out.sum_squared_error += v.sum_squared_error;
        out.infinite_errors += v.infinite_errors;
        out.written_min = std::min(out.written_min, v.written_min);
        out.written_max = std::max(out.written_max, v.written_max);
        out.tolerance = v.tolerance;
        if (v.outside_tolerance > 0 &&
            (out.outside_tolerance == 0 || v.worst_excess > out.worst_excess ||
             (v.worst_excess == out.worst_excess && v.worst_error > out.worst_error))) {
            out.worst_index = v.worst_index;
            out.worst_written = v.worst_written;
            out.worst_read = v.worst_read;
            out.worst_error = v.worst_error;
            out.worst_excess = v.worst_excess;
        }
        out.outside_tolerance += v.outside_tolerance;
    }
    return out;
}

case_facts combine_facts(const std::vector<case_facts>& ranks, bool shared) {
    case_facts out;
    for (const case_facts& f : ranks) {
        out.file_bytes = shared ? std::max(out.file_bytes, f.file_bytes) : out.file_bytes + f.file_bytes;
        out.peak_rss_bytes = std::max(out.peak_rss_bytes, f.peak_rss_bytes);
    }
    return out;
}

} // namespace formatbench

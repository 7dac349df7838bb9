// The verdict's figures and sentences (verdict.hpp).
#include "report/verdict.hpp"

#include "base/suggest.hpp"
#include "report/table.hpp"
#include "results/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench::detail {
namespace {

verdict_factor factor_of(const case_result* slower, const case_result& faster, bool write,
                         const speedup_estimate& e) {
    auto phase = [&](const case_result& c) -> const phase_figures& {
        return write ? c.figures.write : c.figures.read;
    };
    return {slower, e.value, e.ci.low, e.ci.high, phase(*slower).on_disturbed || phase(faster).on_disturbed};
}

// `faster` against `slower` in one phase: the speed-up against the
// baseline as the summary holds it, else from the two cases' summaries.
verdict_factor factor_of(const study_result& r, const case_result& slower, const case_result& faster,
                         bool write) {
    const case_figures& f = faster.figures;
    if (f.baseline_index && *f.baseline_index == slower.spec.index)
        return factor_of(&slower, faster, write, write ? f.write_speedup : f.read_speedup);
    return factor_of(&slower, faster, write, pair_speedup(r.cases, slower, faster, write));
}

double median_of(const case_result& c, bool write) {
    return (write ? c.figures.write : c.figures.read).median_s;
}

// "239x [230, 251]".
std::string factor_text(const verdict_factor& f) {
    return format_speedup({f.value, {f.low, f.high}});
}

// What the interval says: " (not significant: ...)" where it includes 1;
// with `always_say`, also " (significant)" and where there is none.
std::string significance(const verdict_factor& f, bool always_say) {
    if (!f.has_interval()) return always_say ? " (too few samples for an interval)" : "";
    if (f.disturbed) return " (not significant: the estimate rests on disturbed samples)";
    if (!f.significant()) return " (not significant: the interval includes 1)";
    return always_say ? " (significant)" : "";
}

std::string name_of(const case_result& c, const dataset_group& g) {
    return row_label(c, g);
}

std::string phase_line(const phase_verdict& v, const study_result& r, const dataset_group& g) {
    const char* phase = v.write ? "write" : "read";
    std::string line = fmt::format("{}: {} is fastest, {}", phase, name_of(*v.fastest, g),
                                   format_duration(median_of(*v.fastest, v.write)));
    const auto& base = v.fastest->figures.baseline_index;
    if (base && *base == v.fastest->spec.index) line += ", and is the baseline";
    std::vector<std::string> parts;
    if (v.against_baseline.slower)
        parts.push_back(fmt::format("{} faster than the baseline, {}{}", factor_text(v.against_baseline),
                                    name_of(*v.against_baseline.slower, g),
                                    significance(v.against_baseline, false)));
    if (v.against_next.slower)
        parts.push_back(fmt::format("{} faster than the next, {}{}", factor_text(v.against_next),
                                    name_of(*v.against_next.slower, g), significance(v.against_next, true)));
    for (std::size_t i = 0; i < parts.size(); ++i)
        line += (i == 0 ? "; " : ", and ") + parts[i];
    return line + ".";
}

// The first ok case of `g` whose format `label` names (figures.hpp's
// label_matches), preferring an exact label.
const case_result* case_labelled(const dataset_group& g, const std::string& label) {
    const case_result* loose = nullptr;
    for (const case_result* c : g.cases) {
        if (c->status != case_status::ok || c->samples.empty()) continue;
        if (c->spec.format.label == label) return c;
        if (!loose && label_matches(c->spec.format, label)) loose = c;
    }
    return loose;
}

} // namespace

bool verdict_factor::has_interval() const {
    return std::isfinite(low) && std::isfinite(high) && low != high;
}

std::vector<phase_verdict> dataset_verdict(const study_result& r, const dataset_group& g) {
    std::vector<const case_result*> ranked, left_out;
    for (const case_result* c : g.cases) {
        if (c->status != case_status::ok || c->samples.empty()) continue;
        (c->file_bytes > 0 ? ranked : left_out).push_back(c);
    }
    std::vector<phase_verdict> out;
    if (ranked.size() < 2) return out;
    for (const bool write : {true, false}) {
        std::vector<const case_result*> order = ranked;
        std::stable_sort(order.begin(), order.end(), [&](const case_result* a, const case_result* b) {
            return median_of(*a, write) < median_of(*b, write);
        });
        phase_verdict v;
        v.write = write;
        v.fastest = order[0];
        v.left_out = left_out;
        const case_result* base = nullptr;
        if (const auto& b = v.fastest->figures.baseline_index; b && *b != v.fastest->spec.index)
            for (const case_result& c : r.cases)
                if (c.spec.index == *b) base = &c;
        if (base) v.against_baseline = factor_of(r, *base, *v.fastest, write);
        // The next one: the second fastest, unless that is the baseline,
        // already compared; then the third.
        for (std::size_t i = 1; i < order.size(); ++i)
            if (order[i] != v.against_baseline.slower) {
                v.against_next = factor_of(r, *order[i], *v.fastest, write);
                break;
            }
        out.push_back(v);
    }
    return out;
}

std::vector<std::string> verdict_lines(const study_result& r, const dataset_group& g) {
    std::vector<std::string> lines;
    const std::vector<phase_verdict> phases = dataset_verdict(r, g);
    for (const phase_verdict& v : phases)
        lines.push_back(phase_line(v, r, g));
    if (!phases.empty() && !phases.front().left_out.empty()) {
        std::vector<std::string> names;
        for (const case_result* c : phases.front().left_out)
            names.push_back(name_of(*c, g));
        lines.push_back(
            fmt::format("{} {} no file and {} left out of the ranking (the bound of a format that "
                        "does no I/O).",
                        join(names), names.size() == 1 ? "keeps" : "keep", names.size() == 1 ? "is" : "are"));
    }
    for (const published_speedup& p : r.spec.published) {
        const case_result* fast = case_labelled(g, p.format);
        if (!fast) continue;
        const case_result* slow = find_baseline(r.cases, *fast, p.against);
        if (!slow || slow->status != case_status::ok || slow == fast) continue;
        std::vector<std::string> here, there;
        if (std::isfinite(p.write)) {
            const verdict_factor f = factor_of(r, *slow, *fast, true);
            here.push_back(factor_text(f) + " faster to write" + significance(f, false));
            there.push_back(format_factor(p.write) + " to write");
        }
        if (std::isfinite(p.read)) {
            const verdict_factor f = factor_of(r, *slow, *fast, false);
            here.push_back(factor_text(f) + " faster to read" + significance(f, false));
            there.push_back(format_factor(p.read) + " to read");
        }
        auto both = [](const std::vector<std::string>& v) {
            return v.size() == 2 ? v[0] + " and " + v[1] : v[0];
        };
        lines.push_back(fmt::format("{} against {}: {}; {} {}.", name_of(*fast, g), name_of(*slow, g),
                                    both(here), p.source.empty() ? "published:" : p.source + " measured",
                                    both(there)));
    }
    return lines;
}

} // namespace formatbench::detail

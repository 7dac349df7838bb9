// The verdict's figures and sentences (verdict.hpp).
#include "report/verdict.hpp"

#include "base/suggest.hpp"
#include "report/recommend.hpp"
#include "report/table.hpp"
#include "report/tradeoff.hpp"
#include "results/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench::detail {
namespace {

verdict_factor factor_of(const work_row& slower, const work_row& faster, bool write,
                         const speedup_estimate& e) {
    const work_side side = write ? work_side::write : work_side::read;
    return {
        slower.c,  slower.name,
        e.value,   e.ci.low,
        e.ci.high, ranked_phase(*slower.c, side).on_disturbed || ranked_phase(*faster.c, side).on_disturbed};
}

// `faster` against `slower` in one phase: a write from the two rows' pooled
// writes; a read from the speed-up against the baseline as the summary
// holds it, else from the two cases' summaries.
verdict_factor factor_of(const study_result& r, const work_row& slower, const work_row& faster, bool write) {
    if (write) return factor_of(slower, faster, true, shared_write_speedup(*slower.c, *faster.c));
    const case_figures& f = faster.c->figures;
    if (f.baseline_index && *f.baseline_index == slower.c->spec.index)
        return factor_of(slower, faster, false, f.read_speedup);
    return factor_of(slower, faster, false, pair_speedup(r.cases, *slower.c, *faster.c, false));
}

std::string phase_line(const phase_verdict& v) {
    const std::string phase = v.write ? "write" : "read";
    const phase_figures& p = ranked_phase(*v.fastest, v.write ? work_side::write : work_side::read);
    std::string line =
        fmt::format("{}{}: {} is fastest, {}", phase, v.heading.empty() ? "" : " [" + v.heading + "]",
                    v.fastest_name, format_duration(p.median_s));
    if (v.fastest_is_baseline) line += ", and is the baseline";
    std::vector<std::string> parts;
    if (v.against_baseline.slower)
        parts.push_back(fmt::format("{} faster than the baseline, {}{}", factor_text(v.against_baseline),
                                    v.against_baseline.slower_name, significance(v.against_baseline, false)));
    if (v.against_next.slower)
        parts.push_back(fmt::format("{} faster than the next, {}{}", factor_text(v.against_next),
                                    v.against_next.slower_name, significance(v.against_next, true)));
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

// The row of `rows` that is the study's baseline: one of its cases has the
// baseline's label (an exact label first); null when none.
const work_row* baseline_row(const std::vector<const work_row*>& rows, const std::string& baseline) {
    const work_row* loose = nullptr;
    for (const work_row* row : rows)
        for (const case_result* c : row->pooled) {
            if (c->spec.format.label == baseline) return row;
            if (!loose && label_matches(c->spec.format, baseline)) loose = row;
        }
    return loose;
}

std::optional<phase_verdict> group_verdict(const study_result& r, const work_group& wg) {
    const bool write = wg.side == work_side::write;
    std::vector<const work_row*> ranked;
    std::vector<const case_result*> left_out;
    for (const work_row& row : wg.rows)
        if (row.c->file_bytes > 0)
            ranked.push_back(&row);
        else
            left_out.push_back(row.c);
    if (ranked.size() < 2) return std::nullopt;
    std::vector<const work_row*> order = ranked;
    std::stable_sort(order.begin(), order.end(), [&](const work_row* a, const work_row* b) {
        return ranked_phase(*a->c, wg.side).median_s < ranked_phase(*b->c, wg.side).median_s;
    });
    phase_verdict v;
    v.write = write;
    v.heading = wg.heading;
    v.fastest = order[0]->c;
    v.fastest_name = order[0]->name;
    v.left_out = left_out;
    const work_row* base = baseline_row(ranked, r.spec.baseline);
    v.fastest_is_baseline = base == order[0];
    if (base && base != order[0]) v.against_baseline = factor_of(r, *base, *order[0], write);
    // The next one: the second fastest, unless that is the baseline,
    // already compared; then the third.
    for (std::size_t i = 1; i < order.size(); ++i)
        if (order[i] != base) {
            v.against_next = factor_of(r, *order[i], *order[0], write);
            break;
        }
    return v;
}

} // namespace

bool verdict_factor::has_interval() const {
    return std::isfinite(low) && std::isfinite(high) && low != high;
}

std::string factor_text(const verdict_factor& f) {
    return format_speedup({f.value, {f.low, f.high}});
}

std::string significance(const verdict_factor& f, bool always_say) {
    if (!f.has_interval()) return always_say ? " (too few samples for an interval)" : "";
    if (f.disturbed) return " (not significant: the estimate rests on disturbed samples)";
    if (!f.significant()) return " (not significant: the interval includes 1)";
    return always_say ? " (significant)" : "";
}

// A factor of `format` against `against` (value: time of against / time of
// format) in the words a reader wants: "1.32x faster" or, below 1, the
// inverse, "1.25x slower", its interval inverted with it.
std::string relative_text(const verdict_factor& f) {
    if (!std::isfinite(f.value) || !(f.value > 0)) return "no factor (a median time is 0 or missing)";
    if (!(f.value < 1)) return factor_text(f) + " faster";
    verdict_factor inverse = f;
    inverse.value = 1 / f.value;
    inverse.low = 1 / f.high;
    inverse.high = 1 / f.low;
    return factor_text(inverse) + " slower";
}

std::vector<phase_verdict> dataset_verdict(const study_result& r, const dataset_group& g) {
    std::vector<phase_verdict> out;
    for (const work_side side : {work_side::write, work_side::read})
        for (const work_group& wg : work_groups(g, side))
            if (auto v = group_verdict(r, wg)) out.push_back(std::move(*v));
    return out;
}

std::vector<std::string> verdict_lines(const study_result& r, const dataset_group& g,
                                       bool with_recommendation) {
    std::vector<std::string> lines;
    std::vector<std::string> left_out;
    for (const work_side side : {work_side::write, work_side::read})
        for (const work_group& wg : work_groups(g, side)) {
            const auto v = group_verdict(r, wg);
            if (!v) continue;
            lines.push_back(phase_line(*v));
            if (auto t = tradeoff_line(wg)) lines.push_back(std::move(*t));
            for (const case_result* c : v->left_out)
                if (std::find(left_out.begin(), left_out.end(), c->spec.format.label) == left_out.end())
                    left_out.push_back(c->spec.format.label);
        }
    if (!left_out.empty())
        lines.push_back(fmt::format(
            "{} {} no file and {} left out of the ranking (the bound of a format that "
            "does no I/O).",
            join(left_out), left_out.size() == 1 ? "keeps" : "keep", left_out.size() == 1 ? "is" : "are"));
    for (const published_speedup& p : r.spec.published) {
        const case_result* fast = case_labelled(g, p.format);
        if (!fast) continue;
        const case_result* slow = find_baseline(r.cases, *fast, p.against);
        if (!slow || slow->status != case_status::ok || slow == fast) continue;
        const work_row fast_row{fast, row_label(*fast, g), {fast}},
            slow_row{slow, row_label(*slow, g), {slow}};
        std::vector<std::string> here, there;
        if (std::isfinite(p.write)) {
            // As the table's speed-up: the write pooled over the cache.
            const speedup_estimate e = pair_speedup(r.cases, *slow, *fast, true);
            const verdict_factor f = factor_of(slow_row, fast_row, true, e);
            here.push_back(factor_text(f) + " faster to write" + significance(f, false));
            there.push_back(format_factor(p.write) + " to write");
        }
        if (std::isfinite(p.read)) {
            const verdict_factor f = factor_of(r, slow_row, fast_row, false);
            here.push_back(factor_text(f) + " faster to read" + significance(f, false));
            there.push_back(format_factor(p.read) + " to read");
        }
        auto both = [](const std::vector<std::string>& v) {
            return v.size() == 2 ? v[0] + " and " + v[1] : v[0];
        };
        lines.push_back(fmt::format("{} against {}: {}; {} {}.", fast_row.name, slow_row.name, both(here),
                                    p.source.empty() ? "published:" : p.source + " measured", both(there)));
    }
    // `pairs:` each case of a format against its partner that did the same
    // work (a swept plane axis pairs axis by axis), written and read as the
    // table's speed-ups take them (the write pooled over the cache),
    // whichever is faster.
    for (const format_pair& p : r.spec.pairs)
        for (const case_result* mine : g.cases) {
            if (mine->status != case_status::ok || mine->samples.empty() ||
                !label_matches(mine->spec.format, p.format))
                continue;
            const case_result* other = find_baseline(r.cases, *mine, p.against);
            if (!other || other->status != case_status::ok || other->samples.empty() || other == mine)
                continue;
            const work_row mine_row{mine, row_label(*mine, g), {mine}},
                other_row{other, row_label(*other, g), {other}};
            const verdict_factor w =
                factor_of(other_row, mine_row, true, pair_speedup(r.cases, *other, *mine, true));
            const verdict_factor rd = factor_of(r, other_row, mine_row, false);
            lines.push_back(fmt::format("{} against {}: {} to write{}; {} to read{}.", mine_row.name,
                                        other_row.name, relative_text(w), significance(w, false),
                                        relative_text(rd), significance(rd, false)));
        }
    if (with_recommendation)
        for (std::string& l : recommendation_lines(r, g))
            lines.push_back(std::move(l));
    return lines;
}

} // namespace formatbench::detail

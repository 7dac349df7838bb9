// The workload's recommendation (recommend.hpp).
#include "report/recommend.hpp"

#include "base/suggest.hpp"
#include "report/units.hpp"
#include "report/verdict.hpp"
#include "report/work_groups.hpp"
#include "study/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace formatbench::detail {
namespace {

struct mix_phase {
    const workload_phase* spec;
    work_side side;
};

std::vector<mix_phase> phases_of(const workload_spec& w) {
    std::vector<mix_phase> out;
    if (w.write.weight > 0) out.push_back({&w.write, work_side::write});
    for (const workload_phase& p : w.reads)
        if (p.weight > 0) out.push_back({&p, work_side::read});
    return out;
}

// "the write", "the read [plane, axis 0]".
std::string phase_name(const mix_phase& p) {
    const std::string keys = phase_text(*p.spec);
    return fmt::format("the {}{}", p.side == work_side::write ? "write" : "read",
                       keys.empty() ? "" : " [" + keys + "]");
}

// "1 write, 100 reads [plane, axis 0]".
std::string mix_text(const std::vector<mix_phase>& phases) {
    std::vector<std::string> parts;
    for (const mix_phase& p : phases) {
        const std::string keys = phase_text(*p.spec);
        parts.push_back(fmt::format("{} {}{}{}", p.spec->weight,
                                    p.side == work_side::write ? "write" : "read",
                                    p.spec->weight == 1 ? "" : "s", keys.empty() ? "" : " [" + keys + "]"));
    }
    return join(parts);
}

bool lossy(const case_result& c) {
    return c.verify.checked && (c.verify.mismatches > 0 || !(c.verify.max_abs_error == 0));
}

} // namespace

mix_recommendation recommend(const study_result& r, const dataset_group& g) {
    mix_recommendation out;
    const std::vector<mix_phase> phases = phases_of(r.spec.workload);
    // The formats in plan order, each with its cases.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const case_result*>> cases;
    for (const case_result* c : g.cases) {
        auto& v = cases[format_key(*c)];
        if (v.empty()) order.push_back(format_key(*c));
        v.push_back(c);
    }
    for (const std::string& key : order) {
        const auto& mine = cases[key];
        mix_candidate m;
        std::vector<std::string> labels;
        for (const case_result* c : mine)
            if (std::find(labels.begin(), labels.end(), c->spec.format.label) == labels.end())
                labels.push_back(c->spec.format.label);
        m.name = join(labels, " / ");
        bool any_ok = false, any_file = false;
        for (const case_result* c : mine)
            if (c->status == case_status::ok) {
                any_ok = true;
                any_file |= c->file_bytes > 0;
            }
        if (any_ok && !any_file) {
            out.left_out.push_back(m.name);
            continue;
        }
        std::string why;
        for (const mix_phase& p : phases) {
            const case_result* used = nullptr;
            const case_result* broken = nullptr;
            for (const case_result* c : mine) {
                if (!phase_matches(*p.spec, c->spec.params)) continue;
                if (c->status == case_status::ok && !c->samples.empty()) {
                    used = c;
                    break;
                }
                if (!broken) broken = c;
            }
            if (!used) {
                if (!broken)
                    why = "has no case for " + phase_name(p);
                else if (broken->verify.outside_tolerance > 0)
                    why = "lossy beyond its tolerance in " + phase_name(p);
                else
                    why = fmt::format("{} in {}", to_string(broken->status), phase_name(p));
                break;
            }
            if (lossy(*used) && !used->spec.format.tolerance.given()) {
                why = fmt::format("lossy (max error {:.2g}) with no tolerance: state one to admit it",
                                  used->verify.max_abs_error);
                break;
            }
            const phase_figures& f = ranked_phase(*used, p.side);
            const double w = p.spec->weight;
            m.expected_s += w * f.median_s;
            m.low_s += w * f.ci_low_s;
            m.high_s += w * f.ci_high_s;
            m.disturbed |= f.on_disturbed;
            if (!m.file_bytes) m.file_bytes = used->file_bytes;
        }
        if (!why.empty())
            out.disqualified.emplace_back(m.name, why);
        else if (std::isfinite(m.expected_s))
            out.ranked.push_back(m);
    }
    std::stable_sort(
        out.ranked.begin(), out.ranked.end(),
        [](const mix_candidate& a, const mix_candidate& b) { return a.expected_s < b.expected_s; });
    return out;
}

std::vector<std::string> recommendation_lines(const study_result& r, const dataset_group& g) {
    const std::vector<mix_phase> phases = phases_of(r.spec.workload);
    if (!r.spec.workload.given || phases.empty()) return {};
    const mix_recommendation m = recommend(r, g);
    std::vector<std::string> lines;
    std::string line = fmt::format("workload ({}): ", mix_text(phases));
    if (m.ranked.empty()) {
        line += "no format ran every phase of the mix.";
    } else {
        const mix_candidate& best = m.ranked.front();
        line += fmt::format("pick {}, {} expected for the mix, file {}", best.name,
                            format_duration(best.expected_s), format_bytes(best.file_bytes));
        if (m.ranked.size() == 1) {
            line += "; no other format ran every phase of the mix.";
        } else {
            const mix_candidate& next = m.ranked[1];
            verdict_factor f;
            f.slower_name = next.name;
            f.value = next.expected_s / best.expected_s;
            const bool bounded = best.low_s > 0 && best.high_s > 0 && next.low_s > 0 && next.high_s > 0;
            f.low = bounded ? next.low_s / best.high_s : std::nan("");
            f.high = bounded ? next.high_s / best.low_s : std::nan("");
            f.disturbed = best.disturbed || next.disturbed;
            line += fmt::format("; the runner-up, {}, takes {} as long{}.", next.name, factor_text(f),
                                significance(f, true));
        }
    }
    lines.push_back(line);
    if (!m.disqualified.empty()) {
        std::vector<std::string> names;
        for (const auto& [name, why] : m.disqualified)
            names.push_back(fmt::format("{} ({})", name, why));
        lines.push_back(fmt::format("Not eligible for the mix: {}.", join(names)));
    }
    return lines;
}

} // namespace formatbench::detail

// The verdict's groups of rows that did the same work (work_groups.hpp).
#include "report/work_groups.hpp"

#include "results/summary.hpp"
#include "study/identity.hpp"

#include <algorithm>
#include <map>

namespace formatbench::detail {

const phase_figures& ranked_phase(const case_result& c, work_side side) {
    if (side == work_side::read) return c.figures.read;
    return c.figures.shared_write.n ? c.figures.shared_write : c.figures.write;
}

std::string format_key(const case_result& c) {
    std::string key = c.spec.format.plugin;
    return key.append("\n").append(canonical_options(c.spec.format.options));
}

std::vector<work_group> work_groups(const dataset_group& g, work_side side) {
    std::vector<work_group> groups;
    std::map<std::string, std::size_t> at;        // work key -> group
    std::map<std::string, std::size_t> write_row; // write: same_write_key -> (group, row) by group index
    for (const case_result* c : g.cases) {
        if (c->status != case_status::ok || c->samples.empty()) continue;
        const auto [it, inserted] = at.emplace(work_key(c->spec.params, side), groups.size());
        if (inserted) {
            groups.emplace_back();
            groups.back().side = side;
            groups.back().params = c->spec.params;
        }
        work_group& wg = groups[it->second];
        if (side == work_side::write) {
            const auto [row, first] = write_row.emplace(same_write_key(c->spec), wg.rows.size());
            if (!first) {
                work_row& r = wg.rows[row->second];
                r.pooled.push_back(c);
                const std::string& label = c->spec.format.label;
                bool named = false;
                for (const case_result* p : r.pooled)
                    named |= p != c && p->spec.format.label == label;
                if (!named) r.name += " / " + label;
                continue;
            }
        }
        wg.rows.push_back({c, c->spec.format.label, {c}});
    }
    // Headings: the work keys whose value differs among the groups where
    // they mean something (a block size only among the block reads).
    const auto fields = work_fields_named(side);
    std::vector<bool> varies(fields.size(), false);
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const work_group* seen = nullptr;
        for (const work_group& a : groups) {
            if (!fields[i]->applies(a.params)) continue;
            if (seen && !fields[i]->same(seen->params, a.params)) varies[i] = true;
            seen = &a;
        }
    }
    for (work_group& wg : groups) {
        for (std::size_t i = 0; i < fields.size(); ++i)
            if (varies[i] && fields[i]->applies(wg.params))
                wg.heading.append(wg.heading.empty() ? "" : ", ")
                    .append(fields[i]->label_prefix)
                    .append(fields[i]->text(wg.params));
        // Rows of one label that differ in keys that do not define work
        // (repeat, ...): named as the table names them.
        std::map<std::string, int> count;
        for (const work_row& r : wg.rows)
            ++count[r.name];
        for (work_row& r : wg.rows)
            if (count[r.name] > 1) r.name = row_label(*r.c, g);
    }
    return groups;
}

} // namespace formatbench::detail

// Facet planning (facets.hpp).
#include "report/facets.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace formatbench {
namespace {

std::string value_of(const facet_attributes& line, const std::string& name) {
    for (const auto& [k, v] : line)
        if (k == name) return v;
    return "";
}

// Lines grouped by their values of `names`, groups in order of first line.
std::vector<std::vector<std::size_t>> group(const std::vector<facet_attributes>& lines,
                                            const std::vector<std::string>& names) {
    std::map<std::vector<std::string>, std::size_t> index;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::vector<std::string> key;
        for (const std::string& n : names)
            key.push_back(value_of(lines[i], n));
        const auto [it, added] = index.emplace(key, groups.size());
        if (added) groups.emplace_back();
        groups[it->second].push_back(i);
    }
    return groups;
}

std::size_t largest(const std::vector<std::vector<std::size_t>>& groups) {
    std::size_t n = 0;
    for (const auto& g : groups)
        n = std::max(n, g.size());
    return n;
}

} // namespace

facet_plan plan_facets(const std::vector<facet_attributes>& lines,
                       const std::function<bool(const std::string&)>& compared, std::size_t max_lines) {
    max_lines = std::max<std::size_t>(1, max_lines);
    std::vector<std::string> names;
    for (const auto& line : lines)
        for (const auto& [k, v] : line)
            if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
    facet_plan plan;
    std::map<std::string, std::size_t> distinct;
    for (const std::string& n : names) {
        std::set<std::string> values;
        for (const auto& line : lines)
            values.insert(value_of(line, n));
        distinct[n] = values.size();
        if (values.size() < 2) continue;
        (compared(n) ? plan.series : plan.facets).push_back(n);
    }
    std::vector<std::vector<std::size_t>> groups = group(lines, plan.facets);
    while (!plan.facets.empty() && largest(groups) <= 1) {
        // Move the facet attribute with the most values that still fits.
        auto best = plan.facets.end();
        for (auto it = plan.facets.begin(); it != plan.facets.end(); ++it) {
            std::vector<std::string> rest = plan.facets;
            rest.erase(rest.begin() + (it - plan.facets.begin()));
            if (largest(group(lines, rest)) > max_lines) continue;
            if (best == plan.facets.end() || distinct[*it] > distinct[*best]) best = it;
        }
        if (best == plan.facets.end()) break;
        plan.series.push_back(*best);
        plan.facets.erase(best);
        groups = group(lines, plan.facets);
    }
    for (const auto& g : groups) {
        facet_attributes fixed;
        for (const std::string& n : plan.facets)
            fixed.emplace_back(n, value_of(lines[g.front()], n));
        const std::size_t parts = (g.size() + max_lines - 1) / max_lines;
        for (std::size_t p = 0, begin = 0; p < parts; ++p) {
            // Near-equal parts: the first (size % parts) get one line more.
            const std::size_t size = g.size() / parts + (p < g.size() % parts ? 1 : 0);
            facet_chart c{fixed,
                          {g.begin() + static_cast<std::ptrdiff_t>(begin),
                           g.begin() + static_cast<std::ptrdiff_t>(begin + size)},
                          p + 1,
                          parts};
            plan.charts.push_back(std::move(c));
            begin += size;
        }
    }
    return plan;
}

} // namespace formatbench

// Aggregate bandwidth against ranks across records (rank_scaling.hpp).
#include "report/rank_scaling.hpp"

#include "report/sweeps.hpp"
#include "results/figures.hpp"
#include "results/stats.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace formatbench {
namespace {

double median_mb_s(const case_result& c, bool write) {
    const phase_figures& f = write ? c.figures.write : c.figures.read;
    return f.n == 0 ? 0 : f.throughput_mb_s;
}

} // namespace

std::vector<rank_chart> find_rank_scaling(const std::vector<rank_record>& records) {
    std::set<unsigned> counts;
    for (const rank_record& r : records)
        counts.insert(r.ranks);
    if (counts.size() < 2) return {};

    // dataset -> row -> ranks -> point, keeping first-seen order of both.
    std::vector<std::string> datasets;
    std::map<std::string, std::vector<std::string>> rows;
    std::map<std::pair<std::string, std::string>, std::map<unsigned, rank_point>> lines;
    for (std::size_t i = 0; i < records.size(); ++i)
        for (const auto& [c, row] : records[i].cases) {
            if (c->status != case_status::ok || c->samples.empty()) continue;
            const std::string& d = c->spec.dataset.name;
            if (std::find(datasets.begin(), datasets.end(), d) == datasets.end()) datasets.push_back(d);
            auto& rs = rows[d];
            if (std::find(rs.begin(), rs.end(), row) == rs.end()) rs.push_back(row);
            auto& by_ranks = lines[{d, row}];
            if (by_ranks.count(records[i].ranks)) continue;
            by_ranks[records[i].ranks] = {records[i].ranks, median_mb_s(*c, true), median_mb_s(*c, false), i};
        }

    std::vector<rank_chart> charts;
    for (const std::string& d : datasets) {
        std::vector<rank_line> ls;
        for (const std::string& row : rows[d]) {
            const auto& by_ranks = lines[{d, row}];
            if (by_ranks.size() < 2) continue;
            rank_line l{row, {}};
            for (const auto& [n, p] : by_ranks)
                l.points.push_back(p);
            ls.push_back(std::move(l));
        }
        const std::size_t parts = (ls.size() + max_lines_per_chart - 1) / max_lines_per_chart;
        for (std::size_t p = 0; p < parts; ++p) {
            rank_chart ch{d, p + 1, parts, {}};
            for (std::size_t k = p * max_lines_per_chart;
                 k < std::min(ls.size(), (p + 1) * max_lines_per_chart); ++k)
                ch.lines.push_back(ls[k]);
            charts.push_back(std::move(ch));
        }
    }
    return charts;
}

} // namespace formatbench

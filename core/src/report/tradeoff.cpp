// The trade-off of size against time (tradeoff.hpp).
#include "report/tradeoff.hpp"

#include "base/suggest.hpp"
#include "report/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench::detail {
namespace {

double time_of(const work_row& r, work_side side) {
    return ranked_phase(*r.c, side).median_s;
}

double bytes_of(const work_row& r) {
    return static_cast<double>(r.c->file_bytes);
}

// " (max error 1.2e-06)" for a row whose values come back changed.
std::string error_text(const work_row& r) {
    const verification& v = r.c->verify;
    if (!v.checked || (v.mismatches == 0 && v.max_abs_error == 0)) return "";
    return std::isfinite(v.max_abs_error) ? fmt::format(" (max error {:.2g})", v.max_abs_error)
                                          : std::string(" (max error nan)");
}

} // namespace

pareto pareto_front(const work_group& wg) {
    std::vector<const work_row*> rows;
    for (const work_row& r : wg.rows)
        if (r.c->file_bytes > 0 && std::isfinite(time_of(r, wg.side))) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [&](const work_row* a, const work_row* b) {
        const double ta = time_of(*a, wg.side), tb = time_of(*b, wg.side);
        return ta != tb ? ta < tb : bytes_of(*a) < bytes_of(*b);
    });
    pareto p;
    for (const work_row* r : rows) {
        // The smallest file among the faster rows (all of them before r).
        const work_row* smallest = nullptr;
        for (const work_row* f : rows) {
            if (f == r) break;
            if (!smallest || bytes_of(*f) < bytes_of(*smallest)) smallest = f;
        }
        if (!smallest || bytes_of(*r) < (1 - same_size_fraction) * bytes_of(*smallest))
            p.front.push_back(r);
        else
            p.dominated.emplace_back(r, smallest);
    }
    return p;
}

std::optional<std::string> tradeoff_line(const work_group& wg) {
    const pareto p = pareto_front(wg);
    if (p.front.size() < 2) return std::nullopt;
    const char* phase = wg.side == work_side::write ? "write" : "read";
    const work_row& fastest = *p.front.front();
    std::string line = fmt::format("{}{} trade-off: {} is fastest, file {}{}", phase,
                                   wg.heading.empty() ? "" : " [" + wg.heading + "]", fastest.name,
                                   format_bytes(fastest.c->file_bytes), error_text(fastest));
    for (std::size_t i = 1; i < p.front.size(); ++i) {
        const work_row& r = *p.front[i];
        const double saved = 1 - bytes_of(r) / bytes_of(fastest);
        line +=
            fmt::format("; {} saves {} of the space for {} the {} time{}", r.name, format_percent(saved),
                        format_factor(time_of(r, wg.side) / time_of(fastest, wg.side)), phase, error_text(r));
    }
    if (!p.dominated.empty()) {
        std::vector<std::string> names;
        for (const auto& [slow, by] : p.dominated)
            names.push_back(fmt::format("{} (than {})", slow->name, by->name));
        line += fmt::format(
            ". Slower than a format whose file is no bigger (within 1%), so no one should pick {}: {}",
            p.dominated.size() == 1 ? "it" : "them", join(names));
    }
    return line + ".";
}

} // namespace formatbench::detail

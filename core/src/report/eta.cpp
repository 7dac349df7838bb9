// The remaining-time estimate (eta.hpp).
#include "report/eta.hpp"

#include "results/cost_model.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace formatbench {

double estimate_remaining_s(const std::vector<finished_case>& finished,
                            const std::vector<std::uint64_t>& remaining_bytes, double max_extrapolation) {
    constexpr double unknown = std::numeric_limits<double>::quiet_NaN();
    if (remaining_bytes.empty()) return 0;
    if (finished.empty()) return unknown;
    std::map<std::uint64_t, std::pair<double, std::size_t>> by_size; // bytes -> (seconds, cases)
    double spent = 0, finished_total = 0;
    for (const finished_case& c : finished) {
        auto& [seconds, cases] = by_size[c.bytes];
        seconds += c.seconds;
        ++cases;
        spent += c.seconds;
        finished_total += static_cast<double>(c.bytes);
    }
    const double largest = static_cast<double>(by_size.rbegin()->first);
    std::vector<double> n, t;
    for (const auto& [bytes, sum] : by_size) {
        n.push_back(static_cast<double>(bytes));
        t.push_back(sum.first / static_cast<double>(sum.second));
    }
    const auto line = n.size() >= 2 ? fit_relative_nonnegative(n, t) : std::nullopt;
    const double count = static_cast<double>(finished.size());
    const double mean_s = spent / count, mean_bytes = finished_total / count;
    double eta = 0;
    for (std::uint64_t b : remaining_bytes) {
        const double bytes = static_cast<double>(b);
        if (largest > 0 && bytes > max_extrapolation * largest) return unknown;
        if (line)
            eta += line->a + line->b * bytes;
        else
            eta += mean_bytes > 0 ? mean_s * bytes / mean_bytes : mean_s;
    }
    return eta;
}

} // namespace formatbench

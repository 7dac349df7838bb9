// The remaining-time estimate (eta.hpp).
#include "report/eta.hpp"

#include <algorithm>
#include <limits>

namespace formatbench {

double estimate_remaining_s(double spent_s, const std::vector<std::uint64_t>& finished_bytes,
                            const std::vector<std::uint64_t>& remaining_bytes, double max_extrapolation) {
    constexpr double unknown = std::numeric_limits<double>::quiet_NaN();
    if (remaining_bytes.empty()) return 0;
    if (finished_bytes.empty()) return unknown;
    const double n = static_cast<double>(finished_bytes.size());
    const double mean_s = spent_s / n;
    double finished_total = 0, largest = 0;
    for (std::uint64_t b : finished_bytes) {
        finished_total += static_cast<double>(b);
        largest = std::max(largest, static_cast<double>(b));
    }
    const double mean_bytes = finished_total / n;
    double eta = 0;
    for (std::uint64_t b : remaining_bytes) {
        const double bytes = static_cast<double>(b);
        if (mean_bytes > 0 && bytes > max_extrapolation * largest) return unknown;
        eta += mean_bytes > 0 ? mean_s * bytes / mean_bytes : mean_s;
    }
    return eta;
}

} // namespace formatbench

// The remaining-time estimate (eta.hpp).
#include "report/eta.hpp"

#include <limits>

namespace formatbench {

double estimate_remaining_s(double spent_s, const std::vector<std::uint64_t>& finished_bytes,
                            const std::vector<std::uint64_t>& remaining_bytes) {
    if (remaining_bytes.empty()) return 0;
    if (finished_bytes.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double n = static_cast<double>(finished_bytes.size());
    const double mean_s = spent_s / n;
    double finished_total = 0;
    for (std::uint64_t b : finished_bytes)
        finished_total += static_cast<double>(b);
    const double mean_bytes = finished_total / n;
    double eta = 0;
    for (std::uint64_t b : remaining_bytes)
        eta += mean_bytes > 0 ? mean_s * static_cast<double>(b) / mean_bytes : mean_s;
    return eta;
}

} // namespace formatbench

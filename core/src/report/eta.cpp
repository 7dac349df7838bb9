// The remaining-time estimate (eta.hpp).
#include "report/eta.hpp"

#include <algorithm>
#include <limits>

namespace formatbench {

remaining_time estimate_remaining(double spent_s, const std::vector<std::uint64_t>& finished_bytes,
                                  const std::vector<std::uint64_t>& remaining_bytes,
                                  double max_extrapolation) {
    remaining_time out;
    if (remaining_bytes.empty()) return out;
    if (finished_bytes.empty()) {
        out.seconds = std::numeric_limits<double>::quiet_NaN();
        return out;
    }
    const double n = static_cast<double>(finished_bytes.size());
    const double mean_s = spent_s / n;
    double finished_total = 0, largest = 0;
    for (std::uint64_t b : finished_bytes) {
        finished_total += static_cast<double>(b);
        largest = std::max(largest, static_cast<double>(b));
    }
    const double mean_bytes = finished_total / n;
    for (std::uint64_t b : remaining_bytes) {
        double bytes = static_cast<double>(b);
        if (mean_bytes > 0 && bytes > max_extrapolation * largest) {
            bytes = max_extrapolation * largest;
            out.lower_bound = true;
        }
        out.seconds += mean_bytes > 0 ? mean_s * bytes / mean_bytes : mean_s;
    }
    return out;
}

} // namespace formatbench

// Names of the result enumerations, as they appear in the JSON record and reports.
#include "results/result.hpp"

#include <cmath>
#include <limits>

namespace formatbench {

double phase_sample::iops() const noexcept {
    if (!latency || latency->ops == 0 || !(latency->mean_ns > 0)) return 0;
    return 1e9 / latency->mean_ns;
}

double verification::rmse() const noexcept {
    if (compared == 0) return std::numeric_limits<double>::quiet_NaN();
    if (infinite_errors > 0) return std::numeric_limits<double>::infinity();
    return std::sqrt(sum_squared_error / static_cast<double>(compared));
}

double verification::psnr_db() const noexcept {
    const double e = rmse();
    if (std::isnan(e)) return e;
    if (e == 0) return std::numeric_limits<double>::infinity();
    if (std::isinf(e)) return -std::numeric_limits<double>::infinity();
    const double range = written_max - written_min;
    if (!(range > 0)) return std::numeric_limits<double>::quiet_NaN(); // constant data: no peak signal
    return 20 * std::log10(range / e);
}

const char* to_string(case_status s) noexcept {
    switch (s) {
    case case_status::ok: return "ok";
    case case_status::failed: return "failed";
    case case_status::crashed: return "crashed";
    case case_status::timeout: return "timeout";
    case case_status::skipped: return "skipped";
    }
    return "?";
}

} // namespace formatbench

// Names of the result enumerations, as they appear in the JSON record and
// reports; the small derived figures of one sample; ranks' accounting merged.
#include "results/result.hpp"

#include <algorithm>
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

const char* to_string(case_stop s) noexcept {
    switch (s) {
    case case_stop::repeat: return "repeat";
    case case_stop::precision: return "precision";
    case case_stop::budget: return "budget";
    case case_stop::limit: return "limit";
    }
    return "?";
}

void add_rank_accounting(phase_accounting& into, const phase_accounting& other) noexcept {
    if (!other.measured) return;
    into.measured = true;
    into.wait_s += other.wait_s;
    into.thread_wait_s += other.thread_wait_s;
    into.steal_s = std::max(into.steal_s, other.steal_s);
    into.runnable = std::max(into.runnable, other.runnable);
    into.cpus = std::max(into.cpus, other.cpus);
    into.threads += other.threads;
    into.voluntary_switches += other.voluntary_switches;
    into.involuntary_switches += other.involuntary_switches;
    into.minor_faults += other.minor_faults;
    into.major_faults += other.major_faults;
    into.syscr += other.syscr;
    into.syscw += other.syscw;
    into.rchar += other.rchar;
    into.wchar += other.wchar;
    into.read_bytes += other.read_bytes;
    into.write_bytes += other.write_bytes;
}

} // namespace formatbench

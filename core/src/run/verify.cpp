// Bitwise and numeric comparison of read-back data.
#include "run/verify.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace formatbench {
namespace {

// The range of the finite values written, for the PSNR: scanned only when
// the case has a tolerance (a lossy case), where the error figures matter.
template <class T>
void note_range(const T* expected, std::uint64_t count, verification& v) {
    double lo = v.written_min, hi = v.written_max;
    for (std::uint64_t i = 0; i < count; ++i) {
        const double e = static_cast<double>(expected[i]);
        if (!std::isfinite(e)) continue;
        lo = e < lo ? e : lo;
        hi = e > hi ? e : hi;
    }
    v.written_min = lo;
    v.written_max = hi;
}

template <class T>
void compare(const T* expected, const T* actual, std::uint64_t count, std::uint64_t first_index,
             verification& v) {
    const bool judged = v.tolerance.given();
    if (judged) note_range(expected, count, v);
    // Fast path: identical memory, nothing to measure.
    if (std::memcmp(expected, actual, count * sizeof(T)) == 0) return;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (std::memcmp(&expected[i], &actual[i], sizeof(T)) == 0) continue;
        if (v.mismatches == 0 || first_index + i < v.first_mismatch_index)
            v.first_mismatch_index = first_index + i;
        ++v.mismatches;
        double e = static_cast<double>(expected[i]);
        double a = static_cast<double>(actual[i]);
        double abs_err;
        if (std::isnan(e) && std::isnan(a))
            abs_err = 0;
        else if (std::isnan(e) || std::isnan(a))
            abs_err = std::numeric_limits<double>::infinity();
        else if (e == a)
            abs_err = 0; // +0 vs -0
        else
            abs_err = std::fabs(a - e);
        if (std::isnan(abs_err)) abs_err = std::numeric_limits<double>::infinity(); // inf - inf
        // An infinite error is infinite relatively too (also when the
        // expected value is itself NaN or infinite, where the quotient is NaN).
        double rel_err = abs_err == 0                    ? 0
                         : std::isinf(abs_err) || e == 0 ? std::numeric_limits<double>::infinity()
                                                         : abs_err / std::fabs(e);
        if (abs_err > v.max_abs_error) v.max_abs_error = abs_err;
        if (rel_err > v.max_rel_error) v.max_rel_error = rel_err;
        if (std::isinf(abs_err))
            ++v.infinite_errors;
        else
            v.sum_squared_error += abs_err * abs_err;
        if (!judged) continue;
        const double allowed = v.tolerance.allowed(std::isfinite(e) ? e : 0);
        if (abs_err <= allowed) continue;
        ++v.outside_tolerance;
        // Worst: the largest multiple of what the value is allowed; among
        // values allowed nothing, the largest error.
        const double excess = allowed > 0 ? abs_err / allowed : std::numeric_limits<double>::infinity();
        if (v.outside_tolerance == 1 || excess > v.worst_excess ||
            (excess == v.worst_excess && abs_err > v.worst_error)) {
            v.worst_index = first_index + i;
            v.worst_written = e;
            v.worst_read = a;
            v.worst_error = abs_err;
            v.worst_excess = excess;
        }
    }
}

} // namespace

void verify_chunk(dtype type, const void* expected, const void* actual, std::uint64_t count,
                  std::uint64_t first_index, verification& v) {
    v.checked = true;
    v.compared += count;
    switch (type) {
    case FB_DTYPE_F64:
        compare(static_cast<const double*>(expected), static_cast<const double*>(actual), count, first_index,
                v);
        break;
    case FB_DTYPE_F32:
        compare(static_cast<const float*>(expected), static_cast<const float*>(actual), count, first_index,
                v);
        break;
    case FB_DTYPE_I64:
        compare(static_cast<const std::int64_t*>(expected), static_cast<const std::int64_t*>(actual), count,
                first_index, v);
        break;
    case FB_DTYPE_I32:
        compare(static_cast<const std::int32_t*>(expected), static_cast<const std::int32_t*>(actual), count,
                first_index, v);
        break;
    case FB_DTYPE_U8:
        compare(static_cast<const std::uint8_t*>(expected), static_cast<const std::uint8_t*>(actual), count,
                first_index, v);
        break;
    }
}

std::string tolerance_text(const tolerance_spec& t) {
    std::string out;
    if (!std::isnan(t.abs)) out = fmt::format("abs {:g}", t.abs);
    if (!std::isnan(t.rel)) out += fmt::format("{}rel {:g}", out.empty() ? "" : ", ", t.rel);
    return out;
}

std::string tolerance_failure(const verification& v) {
    const std::string excess = std::isinf(v.worst_excess)
                                   ? "where it may have none"
                                   : fmt::format("{:.3g}x what it may be", v.worst_excess);
    return fmt::format("{} of {} values read back are outside the tolerance ({}); the worst is element {}: "
                       "{:.17g} written, {:.17g} read back, error {:.3g}, {}; loosen the format's "
                       "tolerance or choose options that keep more",
                       v.outside_tolerance, v.compared, tolerance_text(v.tolerance), v.worst_index,
                       v.worst_written, v.worst_read, v.worst_error, excess);
}

} // namespace formatbench

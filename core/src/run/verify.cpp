// Bitwise and numeric comparison of read-back data.
#include "run/verify.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace formatbench {
namespace {

template <class T>
void compare(const T* expected, const T* actual, std::uint64_t count, verification& v) {
    // Fast path: identical memory, nothing to measure.
    if (std::memcmp(expected, actual, count * sizeof(T)) == 0) return;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (std::memcmp(&expected[i], &actual[i], sizeof(T)) == 0) continue;
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
    }
}

} // namespace

void verify_chunk(dtype type, const void* expected, const void* actual, std::uint64_t count,
                  verification& v) {
    v.checked = true;
    v.compared += count;
    switch (type) {
    case FB_DTYPE_F64:
        compare(static_cast<const double*>(expected), static_cast<const double*>(actual), count, v);
        break;
    case FB_DTYPE_F32:
        compare(static_cast<const float*>(expected), static_cast<const float*>(actual), count, v);
        break;
    case FB_DTYPE_I64:
        compare(static_cast<const std::int64_t*>(expected), static_cast<const std::int64_t*>(actual), count,
                v);
        break;
    case FB_DTYPE_I32:
        compare(static_cast<const std::int32_t*>(expected), static_cast<const std::int32_t*>(actual), count,
                v);
        break;
    case FB_DTYPE_U8:
        compare(static_cast<const std::uint8_t*>(expected), static_cast<const std::uint8_t*>(actual), count,
                v);
        break;
    }
}

} // namespace formatbench

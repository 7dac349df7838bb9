// What the zfp plugin's tests share, on tests/plugin_support: finite test
// data (zfp's lossy modes are for finite values) and the max abs error of
// values read back, computed here in double, not by the plugin.
#pragma once

#include "plugin_test.hpp"

namespace zfp_test {

using namespace plugin_test;

inline constexpr fb_dtype zfp_dtypes[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32};

// A smooth signal with noise: what zfp is for. Integers within +-2^20, so
// the lossy integer modes do not overflow zfp's transform.
inline bytes smooth_data(fb_dtype d, std::size_t n, unsigned seed = 1) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    bytes out(n * esize(d));
    for (std::size_t i = 0; i < n; ++i) {
        const double x = 1000.0 * std::sin(0.01 * double(i)) + noise(rng);
        unsigned char* p = out.data() + i * esize(d);
        switch (d) {
        case FB_DTYPE_F64: std::memcpy(p, &x, 8); break;
        case FB_DTYPE_F32: {
            float f = static_cast<float>(x);
            std::memcpy(p, &f, 4);
            break;
        }
        case FB_DTYPE_I64: {
            std::int64_t v = static_cast<std::int64_t>(x * 100);
            std::memcpy(p, &v, 8);
            break;
        }
        case FB_DTYPE_I32: {
            std::int32_t v = static_cast<std::int32_t>(x * 100);
            std::memcpy(p, &v, 4);
            break;
        }
        default: break;
        }
    }
    return out;
}

inline double value_at(const bytes& b, fb_dtype d, std::size_t i) {
    const unsigned char* p = b.data() + i * esize(d);
    switch (d) {
    case FB_DTYPE_F64: {
        double x;
        std::memcpy(&x, p, 8);
        return x;
    }
    case FB_DTYPE_F32: {
        float x;
        std::memcpy(&x, p, 4);
        return x;
    }
    case FB_DTYPE_I64: {
        std::int64_t x;
        std::memcpy(&x, p, 8);
        return static_cast<double>(x);
    }
    case FB_DTYPE_I32: {
        std::int32_t x;
        std::memcpy(&x, p, 4);
        return x;
    }
    default: return 0;
    }
}

inline double max_abs_error(const bytes& got, const bytes& want, fb_dtype d) {
    double m = 0;
    for (std::size_t i = 0; i < want.size() / esize(d); ++i)
        m = std::max(m, std::abs(value_at(got, d, i) - value_at(want, d, i)));
    return m;
}

} // namespace zfp_test

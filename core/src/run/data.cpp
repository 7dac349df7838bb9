// Counter-based data generation for every distribution and dtype.
//
// Floating point: uniform takes the top 53 (f64) or 24 (f32) bits, so every
// value is k * 2^-53 in [0, 1) with a full mantissa, as Fortran's
// random_number gives. normal uses Box-Muller on two independent counters.
// smooth is a slow sine plus small noise: highly compressible in its high
// bytes, like a physical field. Integer dtypes: uniform spans the dtype's full
// range, integers spans [low, high]; the others are rounded and clamped.
#include "run/data.hpp"

#include "base/error.hpp"
#include "base/splitmix.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

namespace formatbench {
namespace {

constexpr std::uint64_t golden_gamma = splitmix_gamma;

double unit_double(std::uint64_t bits) noexcept {
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

template <class T>
T clamp_round(double x) noexcept {
    if (std::isnan(x)) return T{0};
    double lo = static_cast<double>(std::numeric_limits<T>::min());
    double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (x <= lo) return std::numeric_limits<T>::min();
    if (x >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(std::llround(x));
}

// The value of element i as a double (for float dtypes and for rounding into
// integer dtypes); `seed` is already mixed.
double real_value(const dataset_spec& s, std::uint64_t seed, std::uint64_t i) noexcept {
    switch (s.dist) {
    case distribution::uniform: return unit_double(counter_bits(seed, i));
    case distribution::normal: {
        // Box-Muller from two independent streams; u1 in (0, 1] avoids log(0).
        double u1 = 1.0 - unit_double(counter_bits(seed, i));
        double u2 = unit_double(counter_bits(seed ^ 0xD1B54A32D192ED03ull, i));
        return s.mean + s.stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
    }
    case distribution::smooth: {
        double phase = unit_double(mix64(seed)) * 2 * std::numbers::pi;
        double noise = (unit_double(counter_bits(seed, i)) - 0.5) * 1e-3;
        return 0.5 + 0.5 * std::sin(static_cast<double>(i) * 1e-3 + phase) + noise;
    }
    case distribution::constant: return s.value;
    case distribution::integers: {
        // Unsigned: high - low overflows int64 for wide ranges.
        const auto span = static_cast<std::uint64_t>(s.high) - static_cast<std::uint64_t>(s.low) + 1;
        const std::uint64_t bits = counter_bits(seed, i);
        const std::uint64_t r = span ? mul_high(bits, span) : bits; // 0: the whole 2^64 range
        return static_cast<double>(static_cast<std::int64_t>(static_cast<std::uint64_t>(s.low) + r));
    }
    }
    return 0;
}

template <class T>
void fill_float(const dataset_spec& s, std::uint64_t seed, std::uint64_t first, std::uint64_t count, T* out) {
    if (s.dist == distribution::uniform) {
        constexpr int bits = std::numeric_limits<T>::digits; // 53 or 24
        constexpr T scale = static_cast<T>(1.0 / static_cast<double>(1ull << bits));
        for (std::uint64_t k = 0; k < count; ++k)
            out[k] = static_cast<T>(counter_bits(seed, first + k) >> (64 - bits)) * scale;
        return;
    }
    for (std::uint64_t k = 0; k < count; ++k)
        out[k] = static_cast<T>(real_value(s, seed, first + k));
}

template <class T>
void fill_int(const dataset_spec& s, std::uint64_t seed, std::uint64_t first, std::uint64_t count, T* out) {
    if (s.dist == distribution::uniform) {
        for (std::uint64_t k = 0; k < count; ++k) {
            std::uint64_t bits = counter_bits(seed, first + k);
            std::memcpy(&out[k], &bits, sizeof(T)); // the low bytes: the full range of T
        }
        return;
    }
    if (s.dist == distribution::integers) {
        // Unsigned: high - low overflows int64 for wide ranges. 0 means the whole 2^64 range.
        const auto span = static_cast<std::uint64_t>(s.high) - static_cast<std::uint64_t>(s.low) + 1;
        for (std::uint64_t k = 0; k < count; ++k) {
            std::uint64_t bits = counter_bits(seed, first + k);
            std::uint64_t r = span ? mul_high(bits, span) : bits;
            out[k] = static_cast<T>(static_cast<std::int64_t>(static_cast<std::uint64_t>(s.low) + r));
        }
        return;
    }
    if (s.dist == distribution::smooth) {
        // Scale the [0, 1] sine into the dtype's range (or 0..1000 for wide types).
        double amplitude = sizeof(T) == 1 ? 255.0 : 1000.0;
        for (std::uint64_t k = 0; k < count; ++k)
            out[k] = clamp_round<T>(real_value(s, seed, first + k) * amplitude);
        return;
    }
    for (std::uint64_t k = 0; k < count; ++k)
        out[k] = clamp_round<T>(real_value(s, seed, first + k));
}

} // namespace

std::uint64_t counter_bits(std::uint64_t seed, std::uint64_t i) noexcept {
    return mix64(seed + (i + 1) * golden_gamma);
}

generator::generator(const dataset_spec& spec) : spec_(spec) {
    if (spec.dist == distribution::integers && spec.high < spec.low)
        throw usage_error("dataset '" + spec.name + "': integers need low <= high");
}

void generator::fill(std::uint64_t first, std::uint64_t count, void* out) const {
    // Mix the seed once so that seeds 1, 2, 3 give unrelated streams.
    std::uint64_t seed = mix64(spec_.seed ^ 0x6A09E667F3BCC909ull);
    switch (spec_.type) {
    case FB_DTYPE_F64: fill_float(spec_, seed, first, count, static_cast<double*>(out)); break;
    case FB_DTYPE_F32: fill_float(spec_, seed, first, count, static_cast<float*>(out)); break;
    case FB_DTYPE_I64: fill_int(spec_, seed, first, count, static_cast<std::int64_t*>(out)); break;
    case FB_DTYPE_I32: fill_int(spec_, seed, first, count, static_cast<std::int32_t*>(out)); break;
    case FB_DTYPE_U8: fill_int(spec_, seed, first, count, static_cast<std::uint8_t*>(out)); break;
    }
}

} // namespace formatbench

// The counter-based data generator (data.hpp) against values that do not
// come from it: SplitMix64's published outputs, a second implementation of
// the documented uniform and integer mappings written here, golden bytes
// pinned for one seed, and sample moments. Also: any slice equals the same
// elements of a whole fill, and seeds change the data.
#include "run/data.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace fb = formatbench;

namespace {

const fb::distribution all_distributions[] = {fb::distribution::uniform, fb::distribution::normal,
                                              fb::distribution::smooth, fb::distribution::constant,
                                              fb::distribution::integers};
const fb_dtype all_types[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8};

std::string name(fb::distribution d, fb_dtype t) {
    return std::string(fb::to_string(d)) + "/" + std::to_string(static_cast<int>(t));
}

fb::dataset_spec spec(fb::distribution d, fb_dtype t, std::uint64_t seed = 7) {
    fb::dataset_spec s;
    s.type = t;
    s.dist = d;
    s.seed = seed;
    s.mean = 3;
    s.stddev = 2;
    s.value = 5;
    s.low = t == FB_DTYPE_U8 ? 0 : -1000;
    s.high = t == FB_DTYPE_U8 ? 200 : 1000;
    return s;
}

std::vector<unsigned char> fill(const fb::dataset_spec& s, std::uint64_t first, std::uint64_t count) {
    std::vector<unsigned char> out(count * fb_dtype_size(s.type));
    fb::generator(s).fill(first, count, out.data());
    return out;
}

std::string hex(const std::vector<unsigned char>& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

// SplitMix64 written from its definition (Steele, Lea, Flood 2014), not
// from data.cpp: state s, output i is mix(s + (i + 1) * gamma).
std::uint64_t ref_mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
// The stream of a study seed: docs/config.md says the seed is mixed once
// (with the first 64 bits of sqrt(2)'s fraction) before it starts the stream.
std::uint64_t ref_bits(std::uint64_t seed, std::uint64_t i) {
    const std::uint64_t state = ref_mix(seed ^ 0x6a09e667f3bcc909ull);
    return ref_mix(state + (i + 1) * 0x9e3779b97f4a7c15ull);
}

__extension__ using u128 = unsigned __int128;

} // namespace

TEST(generator, counter_bits_are_splitmix64) {
    // The first outputs of SplitMix64 seeded with 0, as published with the
    // algorithm (and in Java's SplittableRandom tests).
    EXPECT_EQ(fb::counter_bits(0, 0), 0xe220a8397b1dcdafull);
    EXPECT_EQ(fb::counter_bits(0, 1), 0x6e789e6aa1b965f4ull);
    EXPECT_EQ(fb::counter_bits(0, 2), 0x06c45d188009454full);
}

TEST(generator, uniform_and_integers_follow_the_documented_mapping) {
    const std::uint64_t first = 123456789;
    const std::size_t n = 1000;
    for (std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{42}, std::uint64_t{0xffffffffffffffff}}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        auto f64 = fill(spec(fb::distribution::uniform, FB_DTYPE_F64, seed), first, n);
        auto f32 = fill(spec(fb::distribution::uniform, FB_DTYPE_F32, seed), first, n);
        auto i64 = fill(spec(fb::distribution::uniform, FB_DTYPE_I64, seed), first, n);
        auto i32 = fill(spec(fb::distribution::uniform, FB_DTYPE_I32, seed), first, n);
        auto u8 = fill(spec(fb::distribution::uniform, FB_DTYPE_U8, seed), first, n);
        auto ints = fill(spec(fb::distribution::integers, FB_DTYPE_I64, seed), first, n); // [-1000, 1000]
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint64_t bits = ref_bits(seed, first + k);
            // f64: the top 53 bits times 2^-53; f32: the top 24 bits times 2^-24.
            double d;
            std::memcpy(&d, f64.data() + 8 * k, 8);
            ASSERT_EQ(d, std::ldexp(static_cast<double>(bits >> 11), -53)) << k;
            float f;
            std::memcpy(&f, f32.data() + 4 * k, 4);
            ASSERT_EQ(f, std::ldexp(static_cast<float>(bits >> 40), -24)) << k;
            // Integer dtypes: the low bytes of the 64 bits (little-endian machine).
            ASSERT_EQ(std::memcmp(i64.data() + 8 * k, &bits, 8), 0) << k;
            ASSERT_EQ(std::memcmp(i32.data() + 4 * k, &bits, 4), 0) << k;
            ASSERT_EQ(u8[k], static_cast<unsigned char>(bits)) << k;
            // integers [low, high]: low + floor(bits * span / 2^64).
            const auto span = static_cast<u128>(2001);
            const auto want = static_cast<std::int64_t>((span * bits) >> 64) - 1000;
            std::int64_t got;
            std::memcpy(&got, ints.data() + 8 * k, 8);
            ASSERT_EQ(got, want) << k;
        }
    }
}

// normal and smooth rebuilt from docs/config.md's words alone (u, b2, the
// phase, `i * 1e-3`): another program following the text gets every bit.
TEST(generator, normal_and_smooth_follow_the_documented_formulas) {
    const double pi = 3.14159265358979323846;
    auto u = [](std::uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; };
    const std::uint64_t seed = 7, n = 5000;
    const std::uint64_t s = ref_mix(seed ^ 0x6a09e667f3bcc909ull);
    auto b = [&](std::uint64_t state, std::uint64_t i) {
        return ref_mix(state + (i + 1) * 0x9e3779b97f4a7c15ull);
    };
    auto normal = fill(spec(fb::distribution::normal, FB_DTYPE_F64, seed), 0, n);
    auto smooth = fill(spec(fb::distribution::smooth, FB_DTYPE_F64, seed), 0, n);
    auto smooth32 = fill(spec(fb::distribution::smooth, FB_DTYPE_F32, seed), 0, n);
    auto smooth_i32 = fill(spec(fb::distribution::smooth, FB_DTYPE_I32, seed), 0, n);
    const double phase = u(ref_mix(s)) * 2 * pi;
    for (std::uint64_t i = 0; i < n; ++i) {
        const double want_normal = 3 + 2 * std::sqrt(-2 * std::log(1 - u(b(s, i)))) *
                                           std::cos(2 * pi * u(b(s ^ 0xd1b54a32d192ed03ull, i)));
        const double want_smooth =
            0.5 + 0.5 * std::sin(static_cast<double>(i) * 1e-3 + phase) + (u(b(s, i)) - 0.5) * 1e-3;
        double got;
        std::memcpy(&got, normal.data() + 8 * i, 8);
        ASSERT_EQ(got, want_normal) << i;
        std::memcpy(&got, smooth.data() + 8 * i, 8);
        ASSERT_EQ(got, want_smooth) << i;
        float got32;
        std::memcpy(&got32, smooth32.data() + 4 * i, 4);
        ASSERT_EQ(got32, static_cast<float>(want_smooth)) << i;
        std::int32_t got_i;
        std::memcpy(&got_i, smooth_i32.data() + 4 * i, 4);
        ASSERT_EQ(got_i, static_cast<std::int32_t>(std::llround(want_smooth * 1000))) << i;
    }
}

// Pinned bytes of elements 1000..1003 for seed 7 (mean 3, stddev 2, value 5,
// integers in [-1000, 1000] or [0, 200] for u8), recorded when the
// generator was written: a change to any distribution's values changes
// every study's data and must be deliberate.
TEST(generator, golden_values_for_seed_7) {
    struct golden {
        fb::distribution dist;
        fb_dtype type;
        const char* bytes;
    };
    using fb::distribution;
    const golden table[] = {
        {distribution::uniform, FB_DTYPE_F64,
         "24caa74c3865d03f2e417e8335d2e33f26c3a240d2f2dc3f941f837b20f1e23f"},
        {distribution::uniform, FB_DTYPE_F32, "c229833eac911e3f9296e73e0389173f"},
        {distribution::uniform, FB_DTYPE_I64,
         "1a91289f32e19441997009f21bac919e26990c8b0249cb739ca7fc18dc038997"},
        {distribution::uniform, FB_DTYPE_I32, "1a91289f997009f226990c8b9ca7fc18"},
        {distribution::uniform, FB_DTYPE_U8, "1a99269c"},
        {distribution::normal, FB_DTYPE_F64,
         "e4993542c873f83fb2d1a3de41140640f8592b4e50eff23fe4933b92fbab1640"},
        {distribution::normal, FB_DTYPE_F32, "429ec33f0fa23040827a973fdd5fb540"},
        {distribution::normal, FB_DTYPE_I64,
         "0200000000000000030000000000000001000000000000000600000000000000"},
        {distribution::normal, FB_DTYPE_I32, "02000000030000000100000006000000"},
        {distribution::normal, FB_DTYPE_U8, "02030106"},
        {distribution::smooth, FB_DTYPE_F64,
         "882c6260e295c33f45fca3fcfc95c33f98da91d8b984c33fd36b4e6f867dc33f"},
        {distribution::smooth, FB_DTYPE_F32, "13af1c3ee8af1c3ecf251c3e33ec1b3e"},
        {distribution::smooth, FB_DTYPE_I64,
         "9900000000000000990000000000000098000000000000009800000000000000"},
        {distribution::smooth, FB_DTYPE_I32, "99000000990000009800000098000000"},
        {distribution::smooth, FB_DTYPE_U8, "27272727"},
        {distribution::constant, FB_DTYPE_F64,
         "0000000000001440000000000000144000000000000014400000000000001440"},
        {distribution::constant, FB_DTYPE_F32, "0000a0400000a0400000a0400000a040"},
        {distribution::constant, FB_DTYPE_I64,
         "0500000000000000050000000000000005000000000000000500000000000000"},
        {distribution::constant, FB_DTYPE_I32, "05000000050000000500000005000000"},
        {distribution::constant, FB_DTYPE_U8, "05050505"},
        {distribution::integers, FB_DTYPE_F64,
         "0000000000807ec00000000000e06d400000000000c057c00000000000006740"},
        {distribution::integers, FB_DTYPE_F32, "0000f4c300006f430000bec200003843"},
        {distribution::integers, FB_DTYPE_I64,
         "18feffffffffffffef00000000000000a1ffffffffffffffb800000000000000"},
        {distribution::integers, FB_DTYPE_I32, "18feffffef000000a1ffffffb8000000"},
        {distribution::integers, FB_DTYPE_U8, "337c5a76"},
    };
    static_assert(std::endian::native == std::endian::little, "golden bytes are little-endian");
    for (const auto& g : table)
        EXPECT_EQ(hex(fill(spec(g.dist, g.type), 1000, 4)), g.bytes) << name(g.dist, g.type);
    // Hand-readable spot checks of the same table: the constant 5.0 as an
    // f64 is 0x4014000000000000; integers -488, 239, -95, 184.
    EXPECT_EQ(hex(fill(spec(distribution::constant, FB_DTYPE_F64), 0, 1)), "0000000000001440");
}

TEST(generator, any_slice_equals_the_same_elements_of_a_whole_fill) {
    const std::uint64_t n = 2000;
    for (auto d : all_distributions)
        for (auto t : all_types) {
            SCOPED_TRACE(name(d, t));
            const auto s = spec(d, t);
            const std::size_t size = fb_dtype_size(t);
            const auto whole = fill(s, 0, n);
            for (std::uint64_t chunk : {1u, 7u, 333u}) {
                std::vector<unsigned char> pieces(n * size);
                for (std::uint64_t first = 0; first < n; first += chunk) {
                    const std::uint64_t k = std::min(chunk, n - first);
                    fb::generator(s).fill(first, k, pieces.data() + first * size);
                }
                ASSERT_EQ(pieces, whole) << "chunks of " << chunk;
            }
            // Far offsets: the slice [first, first + 5) of a fill starting
            // earlier is the fill starting at first.
            for (std::uint64_t first : {std::uint64_t{999'999'999}, std::uint64_t{1} << 40}) {
                const auto from_before = fill(s, first - 3, 8);
                const auto direct = fill(s, first, 5);
                ASSERT_EQ(std::vector<unsigned char>(from_before.begin() + 3 * size, from_before.end()),
                          direct)
                    << "offset " << first;
            }
        }
}

TEST(generator, different_seeds_give_different_data) {
    const std::uint64_t n = 1000;
    for (auto d : all_distributions) {
        if (d == fb::distribution::constant) continue; // a constant has no randomness to seed
        for (auto t : all_types) {
            SCOPED_TRACE(name(d, t));
            const std::size_t size = fb_dtype_size(t);
            const auto a = fill(spec(d, t, 1), 0, n);
            const auto b = fill(spec(d, t, 2), 0, n);
            std::size_t differ = 0;
            for (std::uint64_t i = 0; i < n; ++i)
                differ += std::memcmp(a.data() + i * size, b.data() + i * size, size) != 0;
            // Narrow integer outputs (normal rounded to small integers, smooth
            // scaled into u8) repeat values by chance; most must still differ.
            EXPECT_GT(differ, n / 2) << differ << " of " << n << " elements differ";
        }
    }
}

TEST(generator, uniform_and_normal_moments) {
    const std::uint64_t n = 1'000'000;
    auto moments = [&](const fb::dataset_spec& s) {
        std::vector<double> x(n);
        fb::generator(s).fill(0, n, x.data());
        double mean = 0, m2 = 0, lo = x[0], hi = x[0];
        for (double v : x) {
            mean += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        mean /= n;
        for (double v : x)
            m2 += (v - mean) * (v - mean);
        return std::array<double, 4>{mean, std::sqrt(m2 / (n - 1)), lo, hi};
    };
    // Uniform [0, 1): mean 1/2, standard deviation 1/sqrt(12); the standard
    // error of the mean is 1/sqrt(12 n) = 2.9e-4, so 5 of them is 1.4e-3.
    auto u = moments(spec(fb::distribution::uniform, FB_DTYPE_F64));
    EXPECT_NEAR(u[0], 0.5, 1.5e-3);
    EXPECT_NEAR(u[1], 1 / std::sqrt(12.0), 1e-3);
    EXPECT_GE(u[2], 0.0);
    EXPECT_LT(u[3], 1.0);
    // Normal(3, 2): standard error of the mean 2/sqrt(n) = 2e-3.
    auto g = moments(spec(fb::distribution::normal, FB_DTYPE_F64));
    EXPECT_NEAR(g[0], 3.0, 1e-2);
    EXPECT_NEAR(g[1], 2.0, 1e-2);
    // About 6.3e-5 of a normal sample lies beyond 4 standard deviations:
    // with 10^6 values the extremes reach past 3 +- 8.
    EXPECT_LT(g[2], 3 - 8);
    EXPECT_GT(g[3], 3 + 8);
}

TEST(generator, integers_stay_within_low_and_high_including_the_full_range) {
    const std::uint64_t n = 100'000;
    auto check = [&](fb_dtype t, std::int64_t low,
                     std::int64_t high) -> std::pair<std::int64_t, std::int64_t> {
        SCOPED_TRACE(std::to_string(static_cast<int>(t)) + " [" + std::to_string(low) + ", " +
                     std::to_string(high) + "]");
        fb::dataset_spec s = spec(fb::distribution::integers, t);
        s.low = low;
        s.high = high;
        const auto bytes = fill(s, 0, n);
        std::int64_t seen_lo = std::numeric_limits<std::int64_t>::max();
        std::int64_t seen_hi = std::numeric_limits<std::int64_t>::min();
        for (std::uint64_t i = 0; i < n; ++i) {
            std::int64_t v = 0;
            switch (t) {
            case FB_DTYPE_I64: std::memcpy(&v, bytes.data() + 8 * i, 8); break;
            case FB_DTYPE_I32: {
                std::int32_t x;
                std::memcpy(&x, bytes.data() + 4 * i, 4);
                v = x;
                break;
            }
            case FB_DTYPE_U8: v = bytes[i]; break;
            default: ADD_FAILURE() << "not an integer dtype"; return {};
            }
            if (v < low || v > high) {
                ADD_FAILURE() << "element " << i << " = " << v << " is outside the range";
                return {};
            }
            seen_lo = std::min(seen_lo, v);
            seen_hi = std::max(seen_hi, v);
        }
        return std::pair{seen_lo, seen_hi};
    };
    // Small ranges are covered end to end.
    EXPECT_EQ(check(FB_DTYPE_I32, -3, 3), (std::pair<std::int64_t, std::int64_t>{-3, 3}));
    EXPECT_EQ(check(FB_DTYPE_U8, 0, 255), (std::pair<std::int64_t, std::int64_t>{0, 255}));
    EXPECT_EQ(check(FB_DTYPE_I64, 5, 5), (std::pair<std::int64_t, std::int64_t>{5, 5}));
    const std::int64_t i32_lo = std::numeric_limits<std::int32_t>::min();
    const std::int64_t i32_hi = std::numeric_limits<std::int32_t>::max();
    auto [lo32, hi32] = check(FB_DTYPE_I32, i32_lo, i32_hi);
    EXPECT_LT(lo32, i32_lo / 2);
    EXPECT_GT(hi32, i32_hi / 2);
    // The whole i64 range: both halves are reached.
    const std::int64_t i64_lo = std::numeric_limits<std::int64_t>::min();
    const std::int64_t i64_hi = std::numeric_limits<std::int64_t>::max();
    auto [lo64, hi64] = check(FB_DTYPE_I64, i64_lo, i64_hi);
    EXPECT_LT(lo64, i64_lo / 2);
    EXPECT_GT(hi64, i64_hi / 2);
    // A range touching the top: [2^63 - 10, 2^63 - 1].
    auto [lo_top, hi_top] = check(FB_DTYPE_I64, i64_hi - 9, i64_hi);
    EXPECT_EQ(lo_top, i64_hi - 9);
    EXPECT_EQ(hi_top, i64_hi);
}

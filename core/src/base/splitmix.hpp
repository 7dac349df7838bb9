// SplitMix64 (Steele, Lea and Flood 2014; the constants of
// java.util.SplittableRandom): the finaliser that turns a counter into
// random bits, shared by the data generator and the access patterns so that
// both are counter-based: output k depends only on the seed and k.
#pragma once

#include <cstdint>

namespace formatbench {

inline constexpr std::uint64_t splitmix_gamma = 0x9E3779B97F4A7C15ull;

// SplitMix64's output function.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The (k + 1)-th output of SplitMix64 started from state `seed`.
constexpr std::uint64_t splitmix64(std::uint64_t seed, std::uint64_t k) noexcept {
    return mix64(seed + (k + 1) * splitmix_gamma);
}

// The high 64 bits of a 64x64 product: maps random bits onto [0, span).
inline std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) noexcept {
    __extension__ using u128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<u128>(a) * b) >> 64);
}

} // namespace formatbench

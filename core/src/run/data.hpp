// Deterministic, counter-based data: value i is a function of (seed, i) only,
// so any slice can be regenerated anywhere (streaming writes, verification,
// one day MPI ranks) without keeping the array.
#pragma once

#include "study/study.hpp"

#include <cstdint>
#include <vector>

namespace formatbench {

// The 64 random bits for element i of a stream with this seed (SplitMix64:
// a Weyl sequence through a strong 64-bit mixer).
std::uint64_t counter_bits(std::uint64_t seed, std::uint64_t i) noexcept;

class generator {
public:
    explicit generator(const dataset_spec& spec);
    // Writes elements [first, first + count) of the data set, as spec.type,
    // into out (count * dtype_size bytes).
    void fill(std::uint64_t first, std::uint64_t count, void* out) const;

    const dataset_spec& spec() const noexcept { return spec_; }

private:
    dataset_spec spec_;
};

} // namespace formatbench

// Compares what a plugin read back with what was written: bitwise mismatch
// count, and the largest absolute and relative error (the reference program
// printed maxval(x - xchk)).
#pragma once

#include "results/result.hpp"

#include <cstdint>

namespace formatbench {

// Adds the comparison of `count` elements to `v` (call once per chunk).
// NaN against NaN of another payload is a bitwise mismatch with zero error;
// NaN against a number, or infinities that differ, count as infinite error.
void verify_chunk(dtype type, const void* expected, const void* actual, std::uint64_t count, verification& v);

} // namespace formatbench

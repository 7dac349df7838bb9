// Compares what a plugin read back with what was written: bitwise mismatch
// count, and the largest absolute and relative error (the reference program
// printed maxval(x - xchk)).
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <string>

namespace formatbench {

// Adds the comparison of `count` elements, the first of which is element
// `first_index` of the data set, to `v` (call once per chunk). NaN against
// NaN of another payload is a bitwise mismatch with zero error; NaN against
// a number, or infinities that differ, count as infinite error. When
// v.tolerance is given, each error is also judged against it (the worst
// value outside it is kept) and the range of the values written is noted.
void verify_chunk(dtype type, const void* expected, const void* actual, std::uint64_t count,
                  std::uint64_t first_index, verification& v);

// The reason a case fails its tolerance (v.outside_tolerance > 0): how many
// values, the tolerance, and the worst value with its index and error.
std::string tolerance_failure(const verification& v);

// The tolerance as the study gives it: "abs 1e-06", "rel 0.0001" or both.
std::string tolerance_text(const tolerance_spec& t);

} // namespace formatbench

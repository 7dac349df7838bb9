// The copy between the caller's buffer and a mapping: the hot path of every
// mmap write, and of every mmap read that is not a zero-copy view.
#pragma once

#include <cstddef>

namespace formatbench::detail {

// Copies n bytes; the ranges must not overlap. Any alignment of either.
void copy_bytes(unsigned char* to, const unsigned char* from, std::size_t n) noexcept;

} // namespace formatbench::detail

// Byte shuffle (Blosc's "shuffle" filter): the bytes of n elements of size s
// are transposed so that byte j of every element lands in plane j:
//
//     dst[j * n + i] = src[i * s + j]      for i < n, j < s
//
// Floating-point arrays compress better this way because the sign and
// exponent bytes of neighbouring values are alike and now sit side by side.
// unshuffle_bytes is the exact inverse. Both run at memory speed on x86-64
// (SSE2), with a portable scalar path for other element sizes and machines.
#pragma once

#include <cstddef>

namespace formatbench::detail {

// src and dst must not overlap; n * element_size bytes each.
void shuffle_bytes(const unsigned char* src, unsigned char* dst, std::size_t n,
                   std::size_t element_size) noexcept;
void unshuffle_bytes(const unsigned char* src, unsigned char* dst, std::size_t n,
                     std::size_t element_size) noexcept;

// The portable versions, exposed so that tests can compare the fast paths
// against them.
void shuffle_bytes_scalar(const unsigned char* src, unsigned char* dst, std::size_t n,
                          std::size_t element_size) noexcept;
void unshuffle_bytes_scalar(const unsigned char* src, unsigned char* dst, std::size_t n,
                            std::size_t element_size) noexcept;

} // namespace formatbench::detail

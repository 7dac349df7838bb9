// Byte shuffle (Blosc's "shuffle" filter), shared by the compressing plugins
// (zlib, zstd, lz4): the bytes of n elements of size s are transposed so that
// byte j of every element lands in plane j:
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

// A block of n bytes as n / element_size whole elements, shuffled as above;
// the n % element_size bytes after the last whole element are copied as they
// are. This is the unit the plugins write: a block may end in a partial
// element only when a stream ends in one.
void shuffle_block(const unsigned char* src, unsigned char* dst, std::size_t n,
                   std::size_t element_size) noexcept;
void unshuffle_block(const unsigned char* src, unsigned char* dst, std::size_t n,
                     std::size_t element_size) noexcept;

// The portable versions, exposed so that tests can compare the fast paths
// against them.
void shuffle_bytes_scalar(const unsigned char* src, unsigned char* dst, std::size_t n,
                          std::size_t element_size) noexcept;
void unshuffle_bytes_scalar(const unsigned char* src, unsigned char* dst, std::size_t n,
                            std::size_t element_size) noexcept;

} // namespace formatbench::detail

// The zlib plugin's options, parsed once per stream into plain values. The
// declarations (names, defaults, ranges, help) live in zlib.cpp; this file
// turns the checked option strings into zlib's constants.
#pragma once

#include <formatbench/plugin.hpp>

#include <cstddef>

namespace formatbench::detail {

// The wrapper around the deflate data.
enum class container_kind {
    zlib,   // RFC 1950: 2-byte header, adler32 trailer
    gzip,   // RFC 1952: 10-byte header, crc32 and size trailer
    deflate // RFC 1951 raw: no header, no checksum
};

struct zlib_settings {
    container_kind container = container_kind::zlib;
    int level = 6;
    int strategy = 0; // Z_DEFAULT_STRATEGY, Z_FILTERED, ...
    int mem_level = 8;
    bool shuffle = false;
    unsigned threads = 1;
    // block_size rounded down to whole elements (at least one element): the
    // unit of the shuffle and of parallel compression. Writer and reader
    // derive it from the same options, which is what makes the shuffled
    // layout decodable.
    std::size_t block_bytes = 0;
    std::size_t element_size = 0;
};

zlib_settings parse_settings(const sdk::open_request& request);

// windowBits for deflateInit2/inflateInit2: 15, 15 + 16 (gzip) or -15 (raw).
int window_bits(container_kind kind) noexcept;

// With shuffle, the size of one byte plane of a block of n bytes (0 when
// there is no shuffle or only one plane). The writers end a deflate block
// (Z_BLOCK, which adds no bytes) at every plane boundary, so each plane gets
// Huffman codes of its own instead of sharing a block with a plane of very
// different statistics: on uniform float64 this lifts the ratio from about
// 1.165 to 1.18 at no cost in speed.
std::size_t shuffle_plane_bytes(const zlib_settings& s, std::size_t n) noexcept;
const char* container_name(container_kind kind) noexcept;

} // namespace formatbench::detail

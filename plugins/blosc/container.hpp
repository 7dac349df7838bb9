// The blosc plugin's container (README.md, "What the file holds"): a
// 40-byte little-endian header, then each chunk as a 4-byte little-endian
// length and the Blosc chunk exactly as blosc_compress_ctx made it. This file
// encodes the header and decodes it with every field checked, so that the
// reader sizes nothing from a field it has not validated.
#pragma once

#include <formatbench/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace formatbench::detail {

inline constexpr unsigned char container_magic[8] = {'F', 'B', 'B', 'L', 'O', 'S', 'C', '\n'};
inline constexpr std::uint32_t container_version = 1;
inline constexpr std::size_t header_bytes = 40;
inline constexpr std::size_t prefix_bytes = 4; // each chunk's compressed length

struct container_header {
    fb_dtype dtype = FB_DTYPE_F64;
    std::uint64_t count = 0;       // elements in the file
    std::uint64_t chunk_bytes = 0; // uncompressed bytes per chunk (the last one shorter)
    std::uint64_t chunk_count = 0; // ceil(count * element size / chunk_bytes)
};

// Chunks of `chunk_bytes` that hold `payload` bytes.
inline std::uint64_t chunks_for(std::uint64_t payload, std::uint64_t chunk_bytes) noexcept {
    return payload / chunk_bytes + (payload % chunk_bytes ? 1 : 0);
}

void encode_header(const container_header& h, unsigned char out[header_bytes]) noexcept;

// Decodes and checks the header of `path` (n bytes at b, n < header_bytes
// when the file is shorter): the magic, the version, a known dtype and its
// element size, a chunk size of whole elements within max_chunk_bytes, a
// count whose bytes fit 64 bits, and the chunk count those imply. Throws
// sdk::error: FB_E_TRUNCATED for a file that ends inside the header,
// FB_E_UNSUPPORTED for another version, FB_E_CORRUPT for anything else.
container_header decode_header(const unsigned char* b, std::size_t n, const std::string& path);

inline std::uint32_t get_le32(const unsigned char* b) noexcept {
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
           std::uint32_t(b[3]) << 24;
}
inline void put_le32(unsigned char* b, std::uint32_t v) noexcept {
    for (int i = 0; i < 4; ++i)
        b[i] = static_cast<unsigned char>(v >> (8 * i));
}

} // namespace formatbench::detail

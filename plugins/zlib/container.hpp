// The bytes around a deflate stream that the parallel writer assembles
// itself (zlib's deflate writes them when it owns the whole stream): the
// RFC 1950 zlib header and adler32 trailer, the RFC 1952 gzip header and
// crc32 + ISIZE trailer, and the running check value that combines the
// checks of independently compressed blocks.
#pragma once

#include "settings.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace formatbench::detail {

// Header bytes exactly as zlib's deflate would write them for these
// settings (gzip: no name, mtime 0, OS 3 = Unix). Empty for raw deflate.
std::vector<unsigned char> container_header(const zlib_settings& s);

// The check value of one block of uncompressed bytes: adler32 for zlib,
// crc32 for gzip, 0 for raw deflate.
std::uint32_t block_check(container_kind kind, const unsigned char* data, std::size_t n) noexcept;

// Check value and length of a stream built from blocks, in order.
class running_check {
public:
    explicit running_check(container_kind kind) noexcept;
    // Appends a block whose own check is `check` over `n` bytes.
    void append(std::uint32_t check, std::size_t n) noexcept;
    // The trailer: adler32 big-endian (zlib), crc32 and ISIZE (the length
    // modulo 2^32) little-endian (gzip), nothing for raw deflate.
    std::vector<unsigned char> trailer() const;

private:
    container_kind kind_;
    std::uint32_t value_;
    std::uint64_t length_ = 0;
};

} // namespace formatbench::detail

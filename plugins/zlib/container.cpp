// Container headers, trailers and check combination; see container.hpp.
#include "container.hpp"

#include <zlib.h>

namespace formatbench::detail {

std::vector<unsigned char> container_header(const zlib_settings& s) {
    switch (s.container) {
    case container_kind::zlib: {
        // CMF: deflate, 32 KiB window. FLG: FLEVEL as zlib's deflate.c sets
        // it, no dictionary, FCHECK making CMF*256 + FLG a multiple of 31.
        unsigned level_flags = (s.strategy >= Z_HUFFMAN_ONLY || s.level < 2) ? 0
                               : s.level < 6                                 ? 1
                               : s.level == 6                                ? 2
                                                                             : 3;
        unsigned header = (Z_DEFLATED + ((MAX_WBITS - 8) << 4)) << 8;
        header |= level_flags << 6;
        header += 31 - header % 31;
        return {static_cast<unsigned char>(header >> 8), static_cast<unsigned char>(header & 0xff)};
    }
    case container_kind::gzip: {
        unsigned char xfl = s.level == 9 ? 2 : (s.strategy >= Z_HUFFMAN_ONLY || s.level < 2) ? 4 : 0;
        return {0x1f, 0x8b, Z_DEFLATED, 0, 0, 0, 0, 0, xfl, 3};
    }
    case container_kind::deflate: return {};
    }
    return {};
}

std::uint32_t block_check(container_kind kind, const unsigned char* data, std::size_t n) noexcept {
    // Blocks are far below 4 GiB (block_size is capped), so one call each.
    switch (kind) {
    case container_kind::zlib:
        return static_cast<std::uint32_t>(adler32(adler32(0, nullptr, 0), data, uInt(n)));
    case container_kind::gzip: return static_cast<std::uint32_t>(crc32(crc32(0, nullptr, 0), data, uInt(n)));
    case container_kind::deflate: return 0;
    }
    return 0;
}

running_check::running_check(container_kind kind) noexcept
    : kind_(kind), value_(kind == container_kind::zlib ? 1u : 0u) {}

void running_check::append(std::uint32_t check, std::size_t n) noexcept {
    switch (kind_) {
    case container_kind::zlib:
        value_ = static_cast<std::uint32_t>(adler32_combine(value_, check, z_off_t(n)));
        break;
    case container_kind::gzip:
        value_ = static_cast<std::uint32_t>(crc32_combine(value_, check, z_off_t(n)));
        break;
    case container_kind::deflate: break;
    }
    length_ += n;
}

std::vector<unsigned char> running_check::trailer() const {
    auto byte = [](std::uint64_t v, int shift) { return static_cast<unsigned char>((v >> shift) & 0xff); };
    switch (kind_) {
    case container_kind::zlib: return {byte(value_, 24), byte(value_, 16), byte(value_, 8), byte(value_, 0)};
    case container_kind::gzip:
        return {byte(value_, 0),  byte(value_, 8),  byte(value_, 16),  byte(value_, 24),
                byte(length_, 0), byte(length_, 8), byte(length_, 16), byte(length_, 24)};
    case container_kind::deflate: return {};
    }
    return {};
}

} // namespace formatbench::detail

// Byte-order reversal of whole elements, shared by the plugins that write a
// chosen byte order (raw's and npy's byte_order option). Header-only: the
// loop is short and inlines into each plugin's read and write paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace formatbench::detail {

// Reverses the bytes of each of count elements of size bytes in place.
// Sizes 4 and 8 are swapped; any other size (1: u8) is left as it is.
inline void swap_in_place(unsigned char* p, std::size_t count, std::size_t size) noexcept {
    if (size == 8) {
        for (std::size_t i = 0; i < count; ++i, p += 8) {
            std::uint64_t v;
            std::memcpy(&v, p, 8);
            v = __builtin_bswap64(v);
            std::memcpy(p, &v, 8);
        }
    } else if (size == 4) {
        for (std::size_t i = 0; i < count; ++i, p += 4) {
            std::uint32_t v;
            std::memcpy(&v, p, 4);
            v = __builtin_bswap32(v);
            std::memcpy(p, &v, 4);
        }
    }
}

} // namespace formatbench::detail

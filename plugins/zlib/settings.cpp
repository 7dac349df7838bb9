// Option strings to zlib parameters; see settings.hpp.
#include "settings.hpp"

#include <zlib.h>

#include <string>

namespace formatbench::detail {

zlib_settings parse_settings(const sdk::open_request& request) {
    const sdk::options& o = request.options;
    zlib_settings s;
    const std::string& container = o.get_string("container");
    s.container = container == "gzip"      ? container_kind::gzip
                  : container == "deflate" ? container_kind::deflate
                                           : container_kind::zlib;
    s.level = static_cast<int>(o.get_int("level"));
    const std::string& strategy = o.get_string("strategy");
    s.strategy = strategy == "filtered"  ? Z_FILTERED
                 : strategy == "huffman" ? Z_HUFFMAN_ONLY
                 : strategy == "rle"     ? Z_RLE
                 : strategy == "fixed"   ? Z_FIXED
                                         : Z_DEFAULT_STRATEGY;
    s.mem_level = static_cast<int>(o.get_int("mem_level"));
    s.shuffle = o.get_bool("shuffle");
    s.threads = static_cast<unsigned>(o.get_int("threads"));
    s.element_size = request.element_size();
    std::size_t block = static_cast<std::size_t>(o.get_size("block_size"));
    block -= block % s.element_size;
    s.block_bytes = block ? block : s.element_size;
    return s;
}

int window_bits(container_kind kind) noexcept {
    switch (kind) {
    case container_kind::zlib: return MAX_WBITS;
    case container_kind::gzip: return MAX_WBITS + 16;
    case container_kind::deflate: return -MAX_WBITS;
    }
    return MAX_WBITS;
}

std::size_t shuffle_plane_bytes(const zlib_settings& s, std::size_t n) noexcept {
    return s.shuffle && s.element_size > 1 ? n / s.element_size : 0;
}

const char* container_name(container_kind kind) noexcept {
    switch (kind) {
    case container_kind::zlib: return "zlib";
    case container_kind::gzip: return "gzip";
    case container_kind::deflate: return "deflate";
    }
    return "?";
}

} // namespace formatbench::detail

// What the zfp writer and reader share: owners of libzfp's objects, the
// array's shape as zfp sees it, and the one-call compression of a whole
// array into a buffer (header by zfp_write_header, then zfp_compress).
//
// A data set's shape (row-major, ABI 1.2) of 2 to 4 axes becomes a zfp
// field of that rank with its axes reversed (zfp's x is the fastest-varying
// axis: [nz, ny, nx] is zfp_field_3d(nx, ny, nz)); no shape, or one axis,
// is a 1-D field (array_shape::linear(count)).
#pragma once

#include "settings.hpp"

#include "common/byte_buffer.hpp"

#include <zfp.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace formatbench::detail {

struct zfp_stream_closer {
    void operator()(zfp_stream* s) const noexcept { ::zfp_stream_close(s); }
};
struct zfp_field_freer {
    void operator()(zfp_field* f) const noexcept { ::zfp_field_free(f); }
};
struct bitstream_closer {
    void operator()(bitstream* b) const noexcept { ::stream_close(b); }
};
using zfp_stream_ptr = std::unique_ptr<zfp_stream, zfp_stream_closer>;
using zfp_field_ptr = std::unique_ptr<zfp_field, zfp_field_freer>;
using bitstream_ptr = std::unique_ptr<bitstream, bitstream_closer>;

// The largest extent zfp's header holds for a 1-D array (48 bits of nx - 1).
inline constexpr std::uint64_t max_linear_count = std::uint64_t{1} << 48;

struct array_shape {
    unsigned rank = 1;
    std::uint64_t extent[4] = {0, 0, 0, 0}; // x (fastest) first; 0 past the rank

    static array_shape linear(std::uint64_t count) noexcept { return {1, {count, 0, 0, 0}}; }
    // A row-major shape of 1 to 4 axes (the data set's: last axis fastest);
    // empty is linear(count). Throws FB_E_UNSUPPORTED for more than 4 axes,
    // naming `path`.
    static array_shape of_data_set(const std::vector<std::uint64_t>& row_major, std::uint64_t count,
                                   const std::string& path);
    std::uint64_t count() const noexcept;
    // "1000000" or "100 x 100 x 100" (x first).
    std::string text() const;
    // The row-major shape, as numpy and the study write it: "[25, 40, 40]".
    std::string row_major_text() const;
    bool operator==(const array_shape& o) const noexcept;
};

// Whether zfp's header can hold the shape: 48 bits of extents in all (one
// axis < 2^48, two < 2^24 each, three < 2^16, four < 2^12), as
// zfp_field_metadata says. An empty shape (a zero extent) needs no header.
bool header_holds(zfp_type type, const array_shape& shape);

// A zfp_field over `data` (may be null: a field for sizes and headers).
// Throws FB_E_NO_MEMORY when libzfp cannot allocate it.
zfp_field_ptr make_field(void* data, zfp_type type, const array_shape& shape);

// The shape a zfp_field describes (a header's).
array_shape shape_of(const zfp_field* f) noexcept;

// A zfp_stream with no bit stream yet; throws FB_E_NO_MEMORY.
zfp_stream_ptr make_stream();
// A bit stream over [data, data + bytes); bytes a multiple of
// stream_word_bits / 8. Throws FB_E_NO_MEMORY.
bitstream_ptr make_bitstream(void* data, std::size_t bytes);

// Bytes of a buffer that holds any stream of `field` in the mode of `s`,
// header included, rounded up to whole stream words (zfp reads and writes
// words).
std::size_t buffer_bytes(const zfp_stream* s, const zfp_field* field);

// Compresses the whole array into `out` (resized to hold the worst case):
// the full header (magic, field metadata, mode) then the blocks, flushed to
// a whole stream word. Returns the stream's size in bytes. Throws
// FB_E_INTERNAL when libzfp refuses, naming `path`.
std::size_t compress_array(const void* data, zfp_type type, const array_shape& shape,
                           const zfp_settings& settings, byte_buffer& out, const std::string& path);

} // namespace formatbench::detail

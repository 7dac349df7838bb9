// The zfp plugin's read stream: one zfp stream with its full header, as
// this plugin and zfpy.compress_numpy write it.
//  - At open the header is read (zfp_read_header, from a zero-padded copy
//    of the file's first bytes) and checked: the magic and codec version,
//    the scalar type against the dtype asked for, the number of values
//    (the product of the header's extents: a 2-D, 3-D or 4-D stream reads
//    as its values with x fastest, numpy's C order) against the count, the
//    header's dimensions against the data set's shape when one is given
//    (any dimensions with the right count when none is), and
//    the file's size against the least a stream of that many blocks takes
//    in the header's mode (each block is at least minbits long).
//  - The whole file is then read into a buffer, zero-padded to the most
//    bits the decoder can consume for that many blocks in that mode, so a
//    damaged or cut stream can make zfp read padding, never past the
//    buffer. The decoder's own count of bytes consumed then tells a cut
//    stream (more than the file: FB_E_TRUNCATED) and trailing bytes (less:
//    FB_E_CORRUPT) from a whole one. zfp has no checksum: a flipped bit in
//    the blocks that keeps the stream's length reads back as other values.
//  - Decompression happens at the first read: straight into the caller's
//    buffer when it asks for every value at once, otherwise into a buffer of
//    the count's size that later reads copy from.
//  - Memory is bounded by the count asked for (payload and worst-case
//    stream), and by the file's size when the count is FB_COUNT_UNKNOWN:
//    then the header's count is taken only up to 32 values per byte of
//    file (a block of 4 values takes at least one bit).
#pragma once

#include "settings.hpp"
#include "zfp_codec.hpp"

#include "common/byte_buffer.hpp"
#include "common/sticky_failure.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstdint>
#include <string>

namespace formatbench::detail {

class zfp_reader {
public:
    explicit zfp_reader(const sdk::open_request& request);
    zfp_reader(const zfp_reader&) = delete;
    zfp_reader& operator=(const zfp_reader&) = delete;

    void read(void* data, std::uint64_t count);
    void close();

private:
    void read_header();
    void load_stream();
    void read_unguarded(unsigned char* out, std::uint64_t count);
    void decompress_into(void* out);
    [[noreturn]] void corrupt(const std::string& what) const;
    [[noreturn]] void truncated(const std::string& what) const;

    sdk::file file_;
    fb_dtype dtype_;
    zfp_type type_;
    std::size_t element_size_;
    array_shape wanted_; // the data set's shape (has_wanted_): the file's must be the same
    bool has_wanted_ = false;
    std::uint64_t count_;          // values to read (the header's when the open count was unknown)
    std::uint64_t file_bytes_ = 0; // the file's size at open
    zfp_stream_ptr stream_;        // the header's mode
    zfp_field_ptr field_;          // the header's type and shape
    byte_buffer input_;            // the file, zero-padded to the decoder's worst case
    byte_buffer values_;           // decompressed values when read in pieces
    bool decoded_ = false;
    std::uint64_t delivered_ = 0;
    sticky_failure failure_;
};

} // namespace formatbench::detail

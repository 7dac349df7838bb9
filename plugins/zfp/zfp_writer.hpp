// The zfp plugin's write stream: the whole array as one zfp stream, its
// full header (zfp_write_header) first, as zfpy.compress_numpy writes it.
//  - zfp compresses a whole field at once, so the array is compressed at
//    close from memory: a single write() of the whole announced count is
//    compressed straight from the caller's buffer (no copy; the work is
//    timed in that write), any other sequence of writes is gathered into a
//    buffer of the payload's size first (allocated once when the count is
//    known, grown by doubling when it is FB_COUNT_UNKNOWN).
//  - The compressed stream goes into a buffer of zfp's worst case for the
//    array and to the file with one write_all at close.
//  - Memory: the payload (unless the single-write path is taken) plus zfp's
//    worst case, about the payload size again.
//  - A data set's shape of 2 to 4 axes is written as a zfp field of that
//    rank (zfp_codec.hpp), so zfpy.decompress_numpy returns the array with
//    its shape; more than 4 axes are FB_E_UNSUPPORTED at open.
//  - An empty array is an empty file: zfp's header cannot say 0 values.
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

class zfp_writer {
public:
    // Checks the options and creates the file; on failure nothing is left.
    explicit zfp_writer(const sdk::open_request& request);
    zfp_writer(const zfp_writer&) = delete;
    zfp_writer& operator=(const zfp_writer&) = delete;

    void write(const void* data, std::uint64_t count);
    // Compresses what was gathered (unless done already) and writes the
    // file. After an earlier failure it reports that failure again.
    void close();

private:
    void write_unguarded(const unsigned char* p, std::uint64_t count);
    void gather(const unsigned char* p, std::uint64_t count);
    void compress_and_write(const void* data, std::uint64_t count);
    template <class Fn>
    void guarded(Fn&& fn);

    zfp_settings settings_;
    zfp_type type_;
    std::size_t element_size_;
    std::uint64_t announced_; // the count at open, or FB_COUNT_UNKNOWN
    array_shape shape_;       // the data set's shape as zfp's field (has_shape_), else 1-D
    bool has_shape_ = false;
    sdk::file file_;
    byte_buffer staging_;        // gathered values
    std::uint64_t received_ = 0; // values written so far
    byte_buffer compressed_;
    bool compressed_done_ = false; // the stream is on disk already
    sdk::metric_reporter metrics_;
    sticky_failure failure_;
    bool closed_ = false;
};

} // namespace formatbench::detail

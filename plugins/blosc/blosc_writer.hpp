// The blosc plugin's write stream: the container header, then the array cut
// into chunks of chunk_size bytes, each compressed with blosc_compress_ctx
// (its own context and threads per call, so streams never share Blosc's
// global state) straight into the file buffer of common/file_io.hpp, behind
// its 4-byte length.
//  - A write's whole chunks are compressed from the caller's memory; the
//    rest waits in a staging chunk for the next write, unless it ends the
//    announced count, when it is compressed from there too. So a write of
//    the whole array copies no byte aside.
//  - With the count known at open the header is final before the first
//    chunk; with FB_COUNT_UNKNOWN it is rewritten at close (pwrite), which a
//    path that cannot seek refuses.
#pragma once

#include "container.hpp"
#include "settings.hpp"

#include "common/byte_buffer.hpp"
#include "common/file_io.hpp"
#include "common/sticky_failure.hpp"
#include "common/time_total.hpp"

#include <formatbench/plugin.hpp>

#include <cstdint>
#include <string>

namespace formatbench::detail {

class blosc_writer {
public:
    // Creates the file; on any failure nothing is left at the path.
    explicit blosc_writer(const sdk::open_request& request);
    blosc_writer(const blosc_writer&) = delete;
    blosc_writer& operator=(const blosc_writer&) = delete;

    void write(const void* data, std::uint64_t count);
    // Compresses the last chunk, completes the header if needed and closes
    // the file. After an earlier failure it only releases resources and
    // reports that failure again: the file is incomplete.
    void close();

private:
    void write_unguarded(const unsigned char* p, std::uint64_t bytes);
    void close_unguarded();
    // Compresses one chunk of n bytes (n <= chunk bytes) into the file.
    void compress(const unsigned char* p, std::size_t n);

    blosc_settings settings_;
    sdk::metric_reporter metrics_;
    fb_dtype dtype_;
    std::uint64_t total_bytes_; // announced payload, or FB_COUNT_UNKNOWN
    output_file file_;
    std::uint64_t written_ = 0;
    std::uint64_t chunks_ = 0;
    byte_buffer staging_;     // a chunk assembled from small writes (made when needed)
    std::size_t pending_ = 0; // bytes in staging_
    time_total codec_;
    sticky_failure failure_; // the first failure, repeated by every later call
    bool closed_ = false;
};

} // namespace formatbench::detail

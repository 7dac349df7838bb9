// The zlib plugin's read stream: streaming inflate through a bounded input
// buffer. Without shuffle it inflates straight into the caller's buffer;
// with shuffle it inflates one block (block_bytes, from the same options the
// writer had) at a time and unshuffles it. Every inflate call either makes
// progress or ends in an error, so corrupt or truncated input can neither
// crash nor hang the reader. After the last element the host announced
// (open count), the stream is inflated to its end, so the adler32/crc32
// trailer is verified and a damaged file is reported, not silently accepted.
#pragma once

#include "settings.hpp"

#include "common/file_io.hpp"
#include "common/shuffle_stream.hpp"
#include "common/sticky_failure.hpp"
#include "common/time_total.hpp"

#include <formatbench/plugin.hpp>

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::detail {

class zlib_reader {
public:
    explicit zlib_reader(const sdk::open_request& request);
    zlib_reader(const zlib_reader&) = delete;
    zlib_reader& operator=(const zlib_reader&) = delete;
    ~zlib_reader();

    void read(void* data, std::uint64_t count);
    void close();

private:
    // Reads the first bytes and rejects an empty file or another container
    // than the options name, with a message that says which.
    void check_start();
    void read_unguarded(unsigned char* out, std::uint64_t bytes);
    // Inflates up to n bytes into out; fewer only at the end of the stream.
    std::size_t inflate_into(unsigned char* out, std::size_t n);
    // Moves unread input to the front of the buffer and reads more.
    void refill();
    // After Z_STREAM_END: a further gzip member continues the data (as
    // gzip -dc does); anything else ends it.
    void on_stream_end();
    // Once the host has all it asked for: inflate on to the trailer.
    void verify_end();
    [[noreturn]] void corrupt(const std::string& what) const;
    [[noreturn]] void truncated_stream() const;
    [[noreturn]] void too_short() const;

    zlib_settings settings_;
    sdk::file file_;
    sdk::metric_reporter metrics_;
    time_total codec_, io_;            // inside inflate(), inside read(2)
    std::uint64_t file_bytes_ = 0;     // read from the file
    std::uint64_t requested_elements_; // the open count (FB_COUNT_UNKNOWN if unknown)
    z_stream z_{};
    bool z_ready_ = false;
    std::vector<unsigned char> input_;
    bool eof_ = false;            // the file has no more bytes
    bool stream_end_ = false;     // inflate reached the end of the (last) stream
    std::uint64_t consumed_ = 0;  // compressed bytes given to inflate
    std::uint64_t decoded_ = 0;   // uncompressed bytes inflate produced
    std::uint64_t delivered_ = 0; // bytes handed to the host
    unsigned char magic_[2] = {0, 0};
    // One byte inflated while looking for the end of the stream; handed out
    // first if the host reads on after all.
    bool has_carry_ = false;
    unsigned char carry_ = 0;
    unshuffle_buffer unshuffled_; // shuffle: blocks inflated and unshuffled
    sticky_failure failure_;      // the first failure, repeated by every later call
};

} // namespace formatbench::detail

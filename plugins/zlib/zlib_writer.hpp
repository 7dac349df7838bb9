// The zlib plugin's write stream. Three paths, chosen from the options:
//  - direct (no shuffle, one thread): the caller's chunks go straight into
//    one deflate stream with Z_NO_FLUSH; the file is byte for byte what
//    zlib's own compress2/gzip writer would produce for these parameters;
//  - serial blocks (shuffle, one thread): chunks are cut into blocks of
//    block_bytes, each shuffled, then fed to one deflate stream;
//  - parallel (threads > 1): blocks go to parallel_deflate.
// Compressed bytes reach the file through output_file (large write(2)s).
#pragma once

#include "parallel_deflate.hpp"
#include "settings.hpp"

#include "common/file_io.hpp"
#include "common/shuffle_stream.hpp"
#include "common/sticky_failure.hpp"

#include <formatbench/plugin.hpp>

#include <zlib.h>

#include <memory>
#include <string>
#include <vector>

namespace formatbench::detail {

class zlib_writer {
public:
    // Creates the file; on any failure nothing is left at the path.
    explicit zlib_writer(const sdk::open_request& request);
    zlib_writer(const zlib_writer&) = delete;
    zlib_writer& operator=(const zlib_writer&) = delete;
    ~zlib_writer();

    void write(const void* data, std::uint64_t count);
    // Finishes the stream. After an earlier failure it only releases
    // resources and reports that failure again: the file is incomplete.
    void close();

private:
    void write_unguarded(const unsigned char* p, std::uint64_t bytes);
    void close_unguarded();
    // One block of n bytes in plain element order (n < block_bytes only for
    // the last block): shuffle it if asked, then compress it.
    void emit_block(const unsigned char* src, std::size_t n, bool last);
    // Feeds n bytes to the single deflate stream.
    void deflate_serial(const unsigned char* p, std::size_t n, int flush);
    template <class Fn>
    void guarded(Fn&& fn);

    zlib_settings settings_;
    output_file file_;
    sdk::metric_reporter metrics_;
    time_total codec_; // serial paths: inside deflate()
    z_stream z_{};
    bool z_ready_ = false;
    std::unique_ptr<parallel_deflate> pool_;
    bool blocks_ = false;                 // serial-blocks or parallel path
    shuffle_stager stager_;               // blocks path: the writes cut into blocks
    std::vector<unsigned char> shuffled_; // serial-blocks path: the shuffled block
    sticky_failure failure_;              // the first failure, repeated by every later call
    bool closed_ = false;
};

} // namespace formatbench::detail

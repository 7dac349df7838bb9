// The lz4 plugin's write stream: one LZ4 frame through lz4frame's streaming
// API (LZ4F_compressBegin / LZ4F_compressUpdate / LZ4F_compressEnd), its
// output compressed straight into the file buffer of common/file_io.hpp.
//  - When the count is known the header holds the content size (LZ4F checks
//    at the end that it was right).
//  - LZ4F compresses whatever it is given at once (autoFlush), and is given
//    whole blocks only, but for the last block of the data: a write's whole
//    blocks go from the caller's memory in pieces whose worst case fits the
//    free buffer, without a copy; the rest of the write waits in a block
//    buffer for the next one, unless it ends the announced count, when it
//    goes too. So a write of the whole array is compressed as by the
//    one-shot LZ4F_compressFrame, with no byte copied aside. The pieces of
//    one write are declared stable to LZ4F (stableSrc), as LZ4F_compressFrame
//    does, so linked blocks keep their dictionary without copying it.
//  - With shuffle, each block of the frame's block size is byte-shuffled
//    (common/shuffle.hpp) before it is compressed: one LZ4 block holds one
//    shuffled block, and the reader learns the size from the frame header.
#pragma once

#include "settings.hpp"

#include "common/byte_buffer.hpp"
#include "common/file_io.hpp"
#include "common/sticky_failure.hpp"

#include <formatbench/plugin.hpp>

#include <lz4frame.h>

#include <cstdint>
#include <memory>
#include <string>

namespace formatbench::detail {

class lz4_writer {
public:
    // Creates the file; on any failure nothing is left at the path.
    explicit lz4_writer(const sdk::open_request& request);
    lz4_writer(const lz4_writer&) = delete;
    lz4_writer& operator=(const lz4_writer&) = delete;

    void write(const void* data, std::uint64_t count);
    // Ends the frame (end mark, checksum) and closes the file. After an
    // earlier failure it only releases resources and reports that failure
    // again: the file is incomplete.
    void close();

private:
    struct cctx_free {
        void operator()(LZ4F_cctx* c) const noexcept { LZ4F_freeCompressionContext(c); }
    };

    void write_unguarded(const unsigned char* p, std::uint64_t bytes);
    void close_unguarded();
    // Compresses n bytes of whole blocks (or the last, short block of the
    // data), shuffled first if asked. `caller`: the bytes are the caller's,
    // which stay put until this write returns.
    void emit(const unsigned char* p, std::size_t n, bool caller);
    // One LZ4F_compressUpdate; `stable`: the bytes stay put until the next call.
    void compress(const unsigned char* p, std::size_t n, bool stable);
    void check(std::size_t code, const char* what) const;
    template <class Fn>
    void guarded(Fn&& fn);

    // In this order: each is computed from those before it.
    lz4_settings settings_;
    std::uint64_t total_bytes_; // announced payload, or FB_COUNT_UNKNOWN
    LZ4F_preferences_t prefs_;
    std::size_t block_; // the frame's block size in bytes
    std::size_t piece_; // input bytes per LZ4F_compressUpdate call
    output_file file_;
    std::unique_ptr<LZ4F_cctx, cctx_free> cctx_;
    std::uint64_t written_ = 0;
    byte_buffer staging_;     // a block assembled from small chunks (made when needed)
    std::size_t pending_ = 0; // bytes in staging_
    byte_buffer shuffled_;    // shuffle: the shuffled block
    sticky_failure failure_;  // the first failure, repeated by every later call
    bool closed_ = false;
};

} // namespace formatbench::detail

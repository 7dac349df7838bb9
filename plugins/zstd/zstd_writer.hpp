// The zstd plugin's write stream: one Zstandard frame through libzstd's
// streaming API (ZSTD_compressStream2), its output compressed straight into
// the file buffer of common/file_io.hpp (large write(2)s).
//  - When the count is known it is pledged (ZSTD_CCtx_setPledgedSrcSize), so
//    the frame header holds the content size, and the write that completes
//    it ends the frame (ZSTD_e_end).
//  - When one write brings the whole array (no shuffle), zstd is told the
//    input stays put (ZSTD_c_stableInBuffer) and compresses it in place, as
//    the one-shot ZSTD_compress2 does, instead of copying it into its window.
//  - With shuffle, chunks are cut into blocks of shuffle_block bytes, each
//    byte-shuffled (common/shuffle.hpp) before it is compressed.
//  - threads > 0 hands the frame to libzstd's workers (ZSTD_c_nbWorkers);
//    they are joined when the stream is freed.
//  - frames: independent writes a sequence of frames instead
//    (zstd_frames.hpp): a write of at least threads * frame_size bytes, or
//    the one that completes the count, is compressed from the caller's
//    buffer; smaller writes (and shuffled blocks) collect in a batch buffer
//    of that size first. Unless seek_table is false, the file ends with a
//    seek table of the frames (zstd_frame_index.hpp), written at close.
#pragma once

#include "settings.hpp"
#include "zstd_frames.hpp"

#include "common/byte_buffer.hpp"
#include "common/file_io.hpp"
#include "common/shuffle_stream.hpp"
#include "common/sticky_failure.hpp"

#include <formatbench/plugin.hpp>

#include <zstd.h>

#include <cstdint>
#include <memory>
#include <string>

namespace formatbench::detail {

class zstd_writer {
public:
    // Creates the file; on any failure nothing is left at the path.
    explicit zstd_writer(const sdk::open_request& request);
    zstd_writer(const zstd_writer&) = delete;
    zstd_writer& operator=(const zstd_writer&) = delete;

    void write(const void* data, std::uint64_t count);
    // Ends the frame (unless the last write did) and closes the file. After
    // an earlier failure it only releases resources and reports that failure
    // again: the file is incomplete.
    void close();

private:
    struct cctx_free {
        void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
    };

    void write_unguarded(const unsigned char* p, std::uint64_t bytes);
    void close_unguarded();
    // Feeds n bytes to the frame until zstd has taken them all (and, with
    // ZSTD_e_end, until the frame is complete in the file buffer).
    void compress(const unsigned char* p, std::size_t n, ZSTD_EndDirective mode);
    // Shuffles one block of n bytes (n < block only for the last) and compresses it.
    void emit_block(const unsigned char* src, std::size_t n, ZSTD_EndDirective mode);
    // frames: independent: n bytes into frames, straight from p or through
    // the batch; `last` completes the count (the batch is flushed).
    void feed_frames(const unsigned char* p, std::uint64_t n, bool last);
    void flush_batch();
    // Why the count given at open binds, for the messages that enforce it.
    const char* count_reason() const noexcept;
    // Allocates the batch on first use: threads * frame_size bytes (at least
    // one shuffle block).
    unsigned char* batch();
    template <class Fn>
    void guarded(Fn&& fn);

    zstd_settings settings_;
    output_file file_;
    sdk::metric_reporter metrics_;
    time_total codec_; // inside ZSTD_compressStream2 (with workers: waiting for them too)
    std::unique_ptr<ZSTD_CCtx, cctx_free> cctx_;
    std::uint64_t total_bytes_;           // announced payload, or FB_COUNT_UNKNOWN
    std::uint64_t written_ = 0;           // payload bytes received
    bool frame_ended_ = false;            // ZSTD_e_end has completed
    shuffle_stager stager_;               // shuffle: the writes cut into blocks
    byte_buffer shuffled_;                // shuffle, one frame: the shuffled block
    std::unique_ptr<zstd_frames> frames_; // frames: independent
    byte_buffer batch_;                   // frames: independent, bytes waiting for a round of frames
    std::size_t batch_capacity_ = 0;
    std::size_t batch_fill_ = 0;
    sticky_failure failure_; // the first failure, repeated by every later call
    bool closed_ = false;
};

} // namespace formatbench::detail

// The zstd plugin's read stream: one Zstandard frame through libzstd's
// streaming decoder (ZSTD_decompressStream) from a bounded input buffer.
//  - At open the frame header is checked: magic, window size against the
//    limit (ZSTD_d_windowLogMax, so a damaged or hostile header cannot make
//    the decoder allocate more than that window), and the content size, when
//    the header holds one, against the count asked for.
//  - Without shuffle it decodes straight into the caller's buffer; when the
//    first read asks for the whole array, zstd is told the buffer stays put
//    (ZSTD_d_stableOutBuffer) and needs no window buffer of its own, as the
//    one-shot ZSTD_decompress.
//  - With shuffle it decodes one block of shuffle_block bytes at a time and
//    unshuffles it.
//  - After the last element asked for, it decodes on to the end of the frame
//    (so the checksum is verified) and refuses what follows: more data in
//    the frame, a second frame, or any trailing bytes.
//  - With frames: independent it reads a sequence of frames (skippable ones
//    too, as pzstd writes them) as one stream: each frame's header is
//    checked by the decoder (its window against ZSTD_d_windowLogMax), and
//    what follows the last element may only be frames that hold nothing.
//  - Random access (formatbench.read-at/1), with frames: independent only:
//    at open the frame index is built (zstd_frame_index.hpp: the seek table,
//    or the headers walked); read_at decodes each frame that holds part of
//    the range from its compressed bytes (one pread) with
//    ZSTD_decompressDCtx into a frame buffer, and copies out. The last frame
//    decoded stays in that buffer and serves the next read_at of the same
//    frame without decoding it again: the plugin's own cache, one frame.
//    With shuffle, every shuffle block that holds part of the range is
//    gathered (from the cached frame, or across frames into a block buffer)
//    and only the values asked for are unshuffled. A failure to build the
//    index is kept and reported by read_at, so read() behaves as before.
//    With frames: one, read_at is FB_E_UNSUPPORTED: a single frame can only
//    be decoded from its start.
// Every decoder call either makes progress or ends in an error, so corrupt
// or truncated input can neither crash nor hang the reader.
#pragma once

#include "settings.hpp"
#include "zstd_frame_index.hpp"

#include "common/byte_buffer.hpp"
#include "common/shuffle_stream.hpp"
#include "common/sticky_failure.hpp"
#include "common/time_total.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace formatbench::detail {

class zstd_reader {
public:
    explicit zstd_reader(const sdk::open_request& request);
    zstd_reader(const zstd_reader&) = delete;
    zstd_reader& operator=(const zstd_reader&) = delete;

    void read(void* data, std::uint64_t count);
    // The adapter has checked that [offset, offset + count) lies within the
    // count given at open.
    void read_at(std::uint64_t offset, void* data, std::uint64_t count);
    void close();

private:
    struct dctx_free {
        void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); }
    };

    // Reads the first bytes and checks the frame header (see above).
    void check_header();
    void read_unguarded(unsigned char* out, std::uint64_t bytes);
    // Decodes into out from out->pos up to out->size; stops early only at
    // the end of the frame.
    void decode(ZSTD_outBuffer& out);
    // Moves unread input to the front of the buffer and reads more.
    void refill();
    // Whether the file has bytes the decoder has not taken (refills first).
    bool more_input();
    // Once the host has all it asked for: on to the end of the frame, then
    // nothing may follow.
    void verify_end();
    [[noreturn]] void decoder_error(std::size_t code) const;
    [[noreturn]] void corrupt(const std::string& what) const;
    [[noreturn]] void truncated_frame() const;
    [[noreturn]] void too_short() const;
    [[noreturn]] void more_than_requested() const;
    std::string elements(std::uint64_t bytes) const;
    // read-at: builds the index (frames: independent), keeping a failure.
    void open_index();
    // Payload bytes [at, at + n) into out, frame by frame.
    void copy_payload(std::uint64_t at, std::size_t n, unsigned char* out);
    // Payload bytes [at, at + n): in the cached frame when one frame holds
    // them, else gathered into block_.
    const unsigned char* payload_view(std::uint64_t at, std::size_t n);
    // Decodes frame i into frame_ unless it is there already.
    void load_frame(std::size_t i);

    zstd_settings settings_;
    sdk::file file_;
    sdk::metric_reporter metrics_;
    time_total codec_, io_;        // inside ZSTD_decompressStream, inside read(2)
    std::uint64_t file_bytes_ = 0; // read from the file
    fb_dtype dtype_;
    std::uint64_t requested_bytes_; // the open count in bytes, or FB_COUNT_UNKNOWN
    std::unique_ptr<ZSTD_DCtx, dctx_free> dctx_;
    byte_buffer input_;
    ZSTD_inBuffer in_{nullptr, 0, 0};
    bool eof_ = false;              // the file has no more bytes
    bool frame_end_ = false;        // the decoder finished the frame (checksum checked)
    bool started_ = false;          // a read has begun decoding
    std::uint64_t file_offset_ = 0; // file bytes before input_[0]
    std::uint64_t decoded_ = 0;     // payload bytes the decoder produced
    std::uint64_t delivered_ = 0;   // payload bytes handed to the host
    // Whole-array read: the caller's buffer, kept for verify_end (zstd
    // checks that a stable output buffer never changes).
    bool stable_ = false;
    ZSTD_outBuffer stable_out_{nullptr, 0, 0};
    unshuffle_buffer unshuffled_; // shuffle: blocks decoded and unshuffled
    sticky_failure failure_;      // the first failure, repeated by every later call

    // read-at (frames: independent)
    std::string path_;
    std::uint64_t file_size_ = 0;
    zstd_frame_index index_;
    fb_status index_status_ = FB_OK; // building the index failed: read_at reports it
    std::string index_message_;
    double index_seconds_ = 0;
    byte_buffer compressed_;        // one frame's compressed bytes
    byte_buffer frame_;             // one frame's content: the cache
    std::size_t cached_ = SIZE_MAX; // the frame in frame_, or none
    byte_buffer block_;             // shuffle: a block gathered across frames
    std::uint64_t frames_decoded_ = 0;
};

} // namespace formatbench::detail

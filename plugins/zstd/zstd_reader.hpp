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
// Every decoder call either makes progress or ends in an error, so corrupt
// or truncated input can neither crash nor hang the reader.
#pragma once

#include "settings.hpp"

#include "common/byte_buffer.hpp"
#include "common/shuffle_stream.hpp"
#include "common/sticky_failure.hpp"
#include "common/time_total.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <zstd.h>

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
};

} // namespace formatbench::detail

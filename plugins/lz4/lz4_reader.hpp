// The lz4 plugin's read stream: one LZ4 frame through lz4frame's streaming
// decoder (LZ4F_decompress).
//  - At open the frame header is checked: magic (a legacy-format or
//    skippable frame is refused with its name), header checksum, no
//    dictionary, and the content size, when the header holds one, against
//    the count asked for. LZ4F's own buffers are bounded by the block size
//    (4 MiB at most), so a damaged header cannot make it allocate more.
//  - Input is read as LZ4F asks for it (its hint: the next block and the
//    header of the one after), so each block is decoded from the input
//    buffer in one piece, without LZ4F copying it aside first.
//  - Without shuffle it decodes straight into the caller's buffer; with
//    shuffle one block of the frame's block size at a time, unshuffled.
//  - After the last element asked for, it decodes on to the end of the frame
//    (so the content checksum is verified) and refuses what follows: more
//    data in the frame, a second frame, or any trailing bytes.
// Every decoder call either makes progress or ends in an error, so corrupt
// or truncated input can neither crash nor hang the reader.
#pragma once

#include "settings.hpp"

#include "common/byte_buffer.hpp"
#include "common/shuffle_stream.hpp"
#include "common/sticky_failure.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <lz4frame.h>

#include <cstdint>
#include <memory>
#include <string>

namespace formatbench::detail {

class lz4_reader {
public:
    explicit lz4_reader(const sdk::open_request& request);
    lz4_reader(const lz4_reader&) = delete;
    lz4_reader& operator=(const lz4_reader&) = delete;

    void read(void* data, std::uint64_t count);
    void close();

private:
    struct dctx_free {
        void operator()(LZ4F_dctx* d) const noexcept { LZ4F_freeDecompressionContext(d); }
    };

    // Reads the frame header and checks it (see above); sizes the buffers.
    void read_header();
    void read_unguarded(unsigned char* out, std::uint64_t bytes);
    // Decodes up to n bytes into out; fewer only at the end of the frame.
    std::size_t decode(unsigned char* out, std::size_t n);
    // Reads at least one more byte unless the file has ended: up to `want`
    // bytes after those not yet decoded.
    void refill(std::size_t want);
    // Once the host has all it asked for: on to the end of the frame, then
    // nothing may follow.
    void verify_end();
    [[noreturn]] void decoder_error(std::size_t code) const;
    [[noreturn]] void corrupt(const std::string& what) const;
    [[noreturn]] void truncated_frame() const;
    [[noreturn]] void too_short() const;
    [[noreturn]] void more_than_requested() const;
    std::string elements(std::uint64_t bytes) const;
    std::uint64_t offset() const noexcept { return file_offset_ + pos_; }

    lz4_settings settings_;
    sdk::file file_;
    fb_dtype dtype_;
    std::uint64_t requested_bytes_; // the open count in bytes, or FB_COUNT_UNKNOWN
    std::unique_ptr<LZ4F_dctx, dctx_free> dctx_;
    byte_buffer input_;
    std::size_t pos_ = 0;  // next byte of input_ to decode
    std::size_t size_ = 0; // bytes in input_
    std::size_t hint_ = 0; // LZ4F's wish for the next call's input size
    bool eof_ = false;     // the file has no more bytes
    bool frame_end_ = false;
    std::uint64_t file_offset_ = 0; // file bytes before input_[0]
    std::uint64_t decoded_ = 0;     // payload bytes the decoder produced
    std::uint64_t delivered_ = 0;   // payload bytes handed to the host
    std::size_t block_ = 0;         // the frame's block size
    unshuffle_buffer unshuffled_;   // shuffle: blocks decoded and unshuffled
    sticky_failure failure_;        // the first failure, repeated by every later call
};

} // namespace formatbench::detail

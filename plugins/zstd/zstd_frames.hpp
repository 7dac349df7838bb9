// The zstd plugin's independent frames (option frames: independent): a
// range of bytes cut into frames of at most frame_size bytes, each
// compressed on its own (ZSTD_compress2, its content size in its header),
// by `threads` threads (the calling one and short-lived helpers) that take
// the frames in turn; each thread appends its frame to the file once the
// frame before it is in, so the file is written in order while the other
// threads go on compressing. Nothing is copied on the way in (libzstd's
// multithreading copies the input into its job buffers and the output out
// of them, which costs a two-worker write about 40% more CPU at level 3:
// bench/compress-notes.md); the price is that a frame cannot refer to the
// data before it, and that the file is a sequence of frames, which the zstd
// command reads as one stream.
#pragma once

#include "settings.hpp"

#include "common/byte_buffer.hpp"
#include "common/file_io.hpp"
#include "common/time_total.hpp"

#include <zstd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace formatbench::detail {

class zstd_frames {
public:
    // Creates the contexts and output buffers; throws sdk::error.
    zstd_frames(const zstd_settings& settings, const std::string& path);

    // Compresses [p, p + n) as ceil(n / frame_bytes) frames or more (a
    // multiple of the thread count when there is enough data, so that every
    // thread has the same work), of equal size in whole elements, and
    // appends them to `file`. n == 0 writes one empty frame. `codec` gets
    // the wall time less the time inside write(2). Throws the first failure
    // (of a frame or of the file) once every thread has stopped.
    void compress(const unsigned char* p, std::size_t n, output_file& file, time_total& codec);
    std::uint64_t frames_written() const noexcept { return frames_written_; }
    // (compressed, content) bytes of every frame appended so far, in file
    // order: the seek table's entries.
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& sizes() const noexcept { return sizes_; }

private:
    struct cctx_free {
        void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
    };
    struct slot {
        std::unique_ptr<ZSTD_CCtx, cctx_free> cctx;
        byte_buffer out;
        std::size_t result = 0; // ZSTD_compress2's: the frame's size or an error code
    };

    const zstd_settings& settings_;
    const std::string& path_;
    std::vector<slot> slots_; // one per thread
    std::uint64_t frames_written_ = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> sizes_;
};

} // namespace formatbench::detail

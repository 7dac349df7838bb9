// The zstd plugin's write stream; see zstd_writer.hpp.
#include "zstd_writer.hpp"

#include "zstd_errors.hpp"
#include "zstd_frame_index.hpp"
#include "zstd_memory.hpp"

#include "common/shuffle.hpp"

#define ZSTD_STATIC_LINKING_ONLY // ZSTD_c_stableInBuffer
#include <zstd.h>

#include <cstring>
#include <new>
#include <utility>

namespace formatbench::detail {

namespace {

// The file buffer: the kernel sees write(2) calls of up to this size.
constexpr std::size_t output_buffer_bytes = std::size_t{1} << 20;

} // namespace

zstd_writer::zstd_writer(const sdk::open_request& request)
    : settings_(parse_settings(request)), file_(request.path, output_buffer_bytes, zstd_wording),
      metrics_(request.metrics()), total_bytes_(request.count) {
    const std::string& path = request.path;
    if (total_bytes_ != FB_COUNT_UNKNOWN) {
        if (total_bytes_ > UINT64_MAX / settings_.element_size)
            throw sdk::error(FB_E_UNSUPPORTED, "zstd: " + std::to_string(request.count) +
                                                   " elements do not fit a 64-bit byte count ('" + path +
                                                   "')");
        total_bytes_ *= settings_.element_size;
    }
    // Everything that can fail for reasons other than the file comes first,
    // so that the file is created last and never left behind.
    if (settings_.independent_frames) {
        frames_ = std::make_unique<zstd_frames>(settings_, path);
        batch_capacity_ =
            static_cast<std::size_t>(settings_.threads > 1 ? settings_.threads : 1) * settings_.frame_bytes;
        if (settings_.shuffle && batch_capacity_ < settings_.shuffle_block_bytes)
            batch_capacity_ = settings_.shuffle_block_bytes;
    } else {
        cctx_.reset(ZSTD_createCCtx_advanced(zstd_memory));
        if (!cctx_)
            throw sdk::error(FB_E_NO_MEMORY, "zstd: out of memory creating a compressor for '" + path + "'");
        ZSTD_CCtx* c = cctx_.get();
        apply_frame_parameters(c, settings_, path);
        if (settings_.threads > 0)
            check_compress(ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, settings_.threads),
                           "setting the threads", path);
        if (total_bytes_ != FB_COUNT_UNKNOWN)
            check_compress(ZSTD_CCtx_setPledgedSrcSize(c, total_bytes_), "pledging the content size", path);
    }
    if (settings_.shuffle) {
        stager_ = shuffle_stager(settings_.shuffle_block_bytes);
        // Independent frames shuffle straight into the batch (emit_block).
        if (!frames_) shuffled_ = byte_buffer(settings_.shuffle_block_bytes);
    }
    file_.open();
}

const char* zstd_writer::count_reason() const noexcept {
    return frames_ ? " (the file must hold exactly that count)" : " (the frame header holds that count)";
}

template <class Fn>
void zstd_writer::guarded(Fn&& fn) {
    if (closed_) throw sdk::error(FB_E_STATE, "zstd: '" + file_.path() + "' is already closed");
    failure_.rethrow();
    failure_.run(std::forward<Fn>(fn), "zstd: ", "writing", file_.path());
}

void zstd_writer::write(const void* data, std::uint64_t count) {
    guarded(
        [&] { write_unguarded(static_cast<const unsigned char*>(data), count * settings_.element_size); });
}

void zstd_writer::write_unguarded(const unsigned char* p, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (total_bytes_ != FB_COUNT_UNKNOWN && bytes > total_bytes_ - written_)
        throw sdk::error(FB_E_STATE, "zstd: writing '" + file_.path() + "': more data than the " +
                                         std::to_string(total_bytes_ / settings_.element_size) +
                                         " elements announced at open" + count_reason());
    const bool first = written_ == 0;
    written_ += bytes;
    const bool last = written_ == total_bytes_;
    if (!settings_.shuffle && frames_) {
        feed_frames(p, bytes, last);
        return;
    }
    if (!settings_.shuffle) {
        // The whole array in one call: zstd may work on it in place (no copy
        // into its window buffer), as ZSTD_compress2 does. Set before the
        // frame starts; zstd checks that the buffer then stays the same.
        if (first && last)
            check_compress(ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_stableInBuffer, 1),
                           "setting the stable input buffer", file_.path());
        compress(p, static_cast<std::size_t>(bytes), last ? ZSTD_e_end : ZSTD_e_continue);
        frame_ended_ = last;
        return;
    }
    stager_.feed(p, bytes,
                 [&](const unsigned char* block, std::size_t n) { emit_block(block, n, ZSTD_e_continue); });
}

void zstd_writer::emit_block(const unsigned char* src, std::size_t n, ZSTD_EndDirective mode) {
    if (frames_) {
        // Shuffled straight into the batch: the shuffle is the only copy.
        if (batch_fill_ + n > batch_capacity_) flush_batch();
        shuffle_block(src, batch() + batch_fill_, n, settings_.element_size);
        batch_fill_ += n;
        if (batch_fill_ == batch_capacity_ || mode == ZSTD_e_end) flush_batch();
        return;
    }
    shuffle_block(src, shuffled_.data(), n, settings_.element_size);
    compress(shuffled_.data(), n, mode);
}

void zstd_writer::feed_frames(const unsigned char* p, std::uint64_t n, bool last) {
    while (n > 0) {
        if (batch_fill_ == 0 && (n >= batch_capacity_ || last)) {
            frames_->compress(p, static_cast<std::size_t>(n), file_, codec_);
            return;
        }
        std::size_t k =
            batch_capacity_ - batch_fill_ < n ? batch_capacity_ - batch_fill_ : static_cast<std::size_t>(n);
        std::memcpy(batch() + batch_fill_, p, k);
        batch_fill_ += k;
        p += k;
        n -= k;
        if (batch_fill_ == batch_capacity_) flush_batch();
    }
    if (last) flush_batch();
}

void zstd_writer::flush_batch() {
    if (batch_fill_ == 0) return;
    frames_->compress(batch_.data(), batch_fill_, file_, codec_);
    batch_fill_ = 0;
}

unsigned char* zstd_writer::batch() {
    if (!batch_.data()) batch_ = byte_buffer(batch_capacity_);
    return batch_.data();
}

void zstd_writer::compress(const unsigned char* p, std::size_t n, ZSTD_EndDirective mode) {
    // A whole compressed block's worst case: with that much room zstd
    // compresses straight into the file buffer instead of into its own
    // buffer and copying.
    const std::size_t room_wanted = ZSTD_CStreamOutSize();
    ZSTD_inBuffer in{p, n, 0};
    for (;;) {
        auto room = file_.space(room_wanted);
        ZSTD_outBuffer out{room.data(), room.size(), 0};
        std::size_t left = codec_.time([&] { return ZSTD_compressStream2(cctx_.get(), &out, &in, mode); });
        file_.commit(out.pos);
        check_compress(left, "compressing", file_.path());
        if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
    }
}

void zstd_writer::close() {
    if (closed_) return;
    if (failure_.failed()) {
        closed_ = true;
        cctx_.reset(); // joins the workers
        file_.abandon();
        throw sdk::error(failure_.status(), failure_.message() + " (the file is incomplete)");
    }
    guarded([&] { close_unguarded(); });
    closed_ = true;
}

void zstd_writer::close_unguarded() {
    if (total_bytes_ != FB_COUNT_UNKNOWN && written_ != total_bytes_)
        throw sdk::error(FB_E_STATE, "zstd: closing '" + file_.path() + "' after " +
                                         std::to_string(written_ / settings_.element_size) + " of the " +
                                         std::to_string(total_bytes_ / settings_.element_size) +
                                         " elements announced at open" + count_reason());
    if (frames_) {
        if (settings_.shuffle && stager_.pending() > 0)
            emit_block(stager_.staged(), stager_.pending(), ZSTD_e_end);
        stager_.clear();
        flush_batch();
        // An empty array is one empty frame: a zstd file is never empty.
        if (frames_->frames_written() == 0) frames_->compress(nullptr, 0, file_, codec_);
        if (settings_.seek_table) {
            const std::vector<unsigned char> table = encode_seek_table(frames_->sizes(), file_.path());
            file_.append(table.data(), table.size());
        }
        frames_.reset();
    } else if (!frame_ended_) {
        if (settings_.shuffle) {
            // The last, possibly short, block ends the frame.
            emit_block(stager_.staged(), stager_.pending(), ZSTD_e_end);
            stager_.clear();
        } else {
            compress(nullptr, 0, ZSTD_e_end);
        }
        frame_ended_ = true;
    }
    cctx_.reset();
    file_.close();
    metrics_("compressed_bytes", static_cast<double>(file_.bytes_written()));
    metrics_("codec_s", codec_.seconds());
    metrics_("io_s", file_.io_seconds());
}

} // namespace formatbench::detail

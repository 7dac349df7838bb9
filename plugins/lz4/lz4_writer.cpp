// The lz4 plugin's write stream; see lz4_writer.hpp.
#include "lz4_writer.hpp"

#include "common/shuffle.hpp"

#define LZ4F_STATIC_LINKING_ONLY // LZ4F_getErrorCode
#include <lz4frame.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace formatbench::detail {

namespace {

// At least this many input bytes per LZ4F_compressUpdate call (more with
// larger blocks: one whole block), so the kernel sees write(2)s of about
// this size or more.
constexpr std::size_t min_piece = std::size_t{1} << 20;

std::uint64_t payload_bytes(const sdk::open_request& r) {
    if (r.count == FB_COUNT_UNKNOWN) return FB_COUNT_UNKNOWN;
    if (r.count > UINT64_MAX / r.element_size())
        throw sdk::error(FB_E_UNSUPPORTED, "lz4: " + std::to_string(r.count) +
                                               " elements do not fit a 64-bit byte count ('" + r.path + "')");
    return r.count * r.element_size();
}

} // namespace

lz4_writer::lz4_writer(const sdk::open_request& request)
    : settings_(parse_settings(request)), total_bytes_(payload_bytes(request)),
      prefs_(settings_.preferences(total_bytes_ == FB_COUNT_UNKNOWN ? 0 : total_bytes_)),
      block_(block_bytes(settings_.block_size_id)), piece_(std::max(block_, min_piece)),
      file_(request.path, LZ4F_HEADER_SIZE_MAX + LZ4F_compressBound(piece_, &prefs_), lz4_wording) {
    LZ4F_cctx* c = nullptr;
    std::size_t rc = LZ4F_createCompressionContext(&c, LZ4F_VERSION);
    cctx_.reset(c);
    check(rc, "creating a compressor");
    if (settings_.shuffle) shuffled_ = byte_buffer(block_);
    // The header goes into the empty buffer: no I/O before the file exists.
    auto room = file_.space(LZ4F_HEADER_SIZE_MAX);
    rc = LZ4F_compressBegin(cctx_.get(), room.data(), room.size(), &prefs_);
    check(rc, "starting the frame");
    file_.commit(rc);
    file_.open();
}

void lz4_writer::check(std::size_t code, const char* what) const {
    if (!LZ4F_isError(code)) return;
    std::string message =
        std::string("lz4: ") + what + " for '" + file_.path() + "' failed: " + LZ4F_getErrorName(code);
    if (LZ4F_getErrorCode(code) == LZ4F_ERROR_allocation_failed) throw sdk::error(FB_E_NO_MEMORY, message);
    throw sdk::error(FB_E_INTERNAL, message);
}

template <class Fn>
void lz4_writer::guarded(Fn&& fn) {
    if (closed_) throw sdk::error(FB_E_STATE, "lz4: '" + file_.path() + "' is already closed");
    failure_.rethrow();
    failure_.run(std::forward<Fn>(fn), "lz4: ", "writing", file_.path());
}

void lz4_writer::write(const void* data, std::uint64_t count) {
    guarded(
        [&] { write_unguarded(static_cast<const unsigned char*>(data), count * settings_.element_size); });
}

void lz4_writer::write_unguarded(const unsigned char* p, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (total_bytes_ != FB_COUNT_UNKNOWN && bytes > total_bytes_ - written_)
        throw sdk::error(FB_E_STATE, "lz4: writing '" + file_.path() + "': more data than the " +
                                         std::to_string(total_bytes_ / settings_.element_size) +
                                         " elements announced at open (the frame header holds that count)");
    written_ += bytes;
    const bool last = written_ == total_bytes_;
    if (pending_ > 0) {
        // Complete the block an earlier write began.
        std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(block_ - pending_, bytes));
        std::memcpy(staging_.data() + pending_, p, k);
        pending_ += k;
        p += k;
        bytes -= k;
        if (pending_ < block_ && !last) return;
        emit(staging_.data(), pending_, false);
        pending_ = 0;
    }
    // Whole blocks from the caller's memory; the rest too when it ends the data.
    std::uint64_t direct = last ? bytes : bytes - bytes % block_;
    if (direct > 0) emit(p, static_cast<std::size_t>(direct), true);
    p += direct;
    bytes -= direct;
    if (bytes > 0) {
        if (!staging_.data()) staging_ = byte_buffer(block_);
        std::memcpy(staging_.data(), p, static_cast<std::size_t>(bytes));
        pending_ = static_cast<std::size_t>(bytes);
    }
}

void lz4_writer::emit(const unsigned char* p, std::size_t n, bool caller) {
    if (settings_.shuffle) {
        // One shuffled block per call: the shuffled copy is reused.
        for (std::size_t at = 0; at < n; at += block_) {
            const std::size_t k = std::min(block_, n - at);
            shuffle_block(p + at, shuffled_.data(), k, settings_.element_size);
            compress(shuffled_.data(), k, false);
        }
        return;
    }
    for (std::size_t at = 0; at < n; at += piece_) {
        const std::size_t k = std::min(piece_, n - at);
        // Stable up to the last piece of the caller's write: the caller's
        // buffer may change after the call returns, the staging block with
        // the next write.
        compress(p + at, k, caller && at + k < n);
    }
}

void lz4_writer::compress(const unsigned char* p, std::size_t n, bool stable) {
    // Room for the worst case of this call (LZ4F requires it).
    auto room = file_.space(LZ4F_compressBound(n, &prefs_));
    LZ4F_compressOptions_t options{};
    options.stableSrc = stable ? 1 : 0;
    std::size_t rc = LZ4F_compressUpdate(cctx_.get(), room.data(), room.size(), p, n, &options);
    check(rc, "compressing");
    file_.commit(rc);
}

void lz4_writer::close() {
    if (closed_) return;
    if (failure_.failed()) {
        closed_ = true;
        file_.abandon();
        throw sdk::error(failure_.status(), failure_.message() + " (the file is incomplete)");
    }
    guarded([&] { close_unguarded(); });
    closed_ = true;
}

void lz4_writer::close_unguarded() {
    if (total_bytes_ != FB_COUNT_UNKNOWN && written_ != total_bytes_)
        throw sdk::error(FB_E_STATE, "lz4: closing '" + file_.path() + "' after " +
                                         std::to_string(written_ / settings_.element_size) + " of the " +
                                         std::to_string(total_bytes_ / settings_.element_size) +
                                         " elements announced at open (the frame header holds that count)");
    if (pending_ > 0) {
        // The last, short block (the count was not announced).
        emit(staging_.data(), pending_, false);
        pending_ = 0;
    }
    auto room = file_.space(LZ4F_compressBound(0, &prefs_));
    std::size_t rc = LZ4F_compressEnd(cctx_.get(), room.data(), room.size(), nullptr);
    check(rc, "ending the frame");
    file_.commit(rc);
    file_.close();
}

} // namespace formatbench::detail

// The zstd plugin's read stream; see zstd_reader.hpp.
#include "zstd_reader.hpp"

#include "zstd_errors.hpp"
#include "zstd_memory.hpp"

#include "common/file_io.hpp"
#include "common/shuffle.hpp"

#define ZSTD_STATIC_LINKING_ONLY // ZSTD_getFrameHeader, ZSTD_d_stableOutBuffer
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

namespace formatbench::detail {

namespace {

// Compressed bytes read per read(2) call: bounded, whatever the file size.
constexpr std::size_t input_buffer_bytes = std::size_t{1} << 19;

std::uint32_t le32(const unsigned char* b) {
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
           std::uint32_t(b[3]) << 24;
}

} // namespace

zstd_reader::zstd_reader(const sdk::open_request& request)
    : settings_(parse_settings(request)), file_(open_input(request.path, zstd_wording)),
      metrics_(request.metrics()), dtype_(request.dtype), requested_bytes_(request.count) {
    if (requested_bytes_ != FB_COUNT_UNKNOWN) {
        if (requested_bytes_ > UINT64_MAX / settings_.element_size)
            throw sdk::error(FB_E_UNSUPPORTED, "zstd: " + std::to_string(request.count) +
                                                   " elements do not fit a 64-bit byte count ('" +
                                                   request.path + "')");
        requested_bytes_ *= settings_.element_size;
    }
    dctx_.reset(ZSTD_createDCtx_advanced(zstd_memory));
    if (!dctx_)
        throw sdk::error(FB_E_NO_MEMORY, "zstd: out of memory creating a decoder for '" + request.path + "'");
    std::size_t rc =
        ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, settings_.reader_window_log_max());
    if (ZSTD_isError(rc)) decoder_error(rc);
    input_ = byte_buffer(input_buffer_bytes);
    in_.src = input_.data();
    if (settings_.shuffle)
        unshuffled_ = unshuffle_buffer(settings_.shuffle_block_bytes, settings_.element_size);
    check_header();
    open_index();
}

void zstd_reader::open_index() {
    if (!settings_.independent_frames) return;
    const auto start = std::chrono::steady_clock::now();
    try {
        file_size_ = static_cast<std::uint64_t>(file_.status().st_size);
        index_ = build_frame_index(file_, file_size_, io_);
        file_bytes_ += index_.bytes_read;
        const std::uint64_t held = index_.payload_bytes;
        if (requested_bytes_ != FB_COUNT_UNKNOWN && held != requested_bytes_) {
            const std::string sizes = "zstd: '" + file_.path() + "' holds " + elements(held) + " (its " +
                                      (index_.from_seek_table ? "seek table" : "frame headers") + "), " +
                                      elements(requested_bytes_) + " were asked for";
            if (held < requested_bytes_) throw sdk::error(FB_E_TRUNCATED, sizes);
            throw sdk::error(FB_E_CORRUPT, sizes + "; the count or dtype does not match the file");
        }
    } catch (const sdk::error& e) {
        index_status_ = e.status();
        index_message_ = e.what();
    } catch (const std::bad_alloc&) {
        index_status_ = FB_E_NO_MEMORY;
        index_message_ = "zstd: out of memory indexing the frames of '" + file_.path() + "'";
    }
    index_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void zstd_reader::read_at(std::uint64_t offset, void* data, std::uint64_t count) {
    const std::string& path = file_.path();
    if (!dctx_) throw sdk::error(FB_E_STATE, "zstd: read_at on '" + path + "' after close");
    if (!settings_.independent_frames)
        throw sdk::error(
            FB_E_UNSUPPORTED,
            "zstd: read-at on '" + path +
                "' needs frames: independent: with frames: one the file is a single zstd frame, "
                "which can only be decoded from its start; write the file with frames: "
                "independent (a frame_size such as 1MiB sets how much one read decodes) and read "
                "it with frames: independent");
    if (index_status_ != FB_OK) throw sdk::error(index_status_, index_message_);
    if (count == 0) return;
    const std::size_t es = settings_.element_size;
    auto* out = static_cast<unsigned char*>(data);
    if (!settings_.shuffle) {
        copy_payload(offset * es, static_cast<std::size_t>(count * es), out);
        return;
    }
    // Shuffle blocks start every shuffle_block bytes of the payload (the
    // last one shorter); each holds n whole values, byte j of value i at
    // j * n + i.
    const std::uint64_t block = settings_.shuffle_block_bytes, total = index_.payload_bytes;
    const std::uint64_t end = (offset + count) * es;
    for (std::uint64_t k = offset * es / block; k * block < end; ++k) {
        const std::uint64_t at = k * block;
        const std::size_t len = static_cast<std::size_t>(std::min(block, total - at));
        const unsigned char* p = payload_view(at, len);
        const std::uint64_t n = len / es, first = at / es;
        const std::uint64_t lo = std::max(offset, first), hi = std::min(offset + count, first + n);
        if (lo == first && hi == first + n) {
            unshuffle_block(p, out + (lo - offset) * es, len, es);
            continue;
        }
        for (std::uint64_t g = lo; g < hi; ++g) {
            unsigned char* dst = out + (g - offset) * es;
            const unsigned char* src = p + (g - first);
            for (std::size_t j = 0; j < es; ++j)
                dst[j] = src[j * n];
        }
    }
}

void zstd_reader::copy_payload(std::uint64_t at, std::size_t n, unsigned char* out) {
    while (n > 0) {
        const std::size_t i = index_.frame_of(at);
        load_frame(i);
        const zstd_frame& f = index_.frames[i];
        const std::uint64_t inside = at - f.payload_offset;
        const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, f.payload - inside));
        std::memcpy(out, frame_.data() + inside, k);
        out += k;
        at += k;
        n -= k;
    }
}

const unsigned char* zstd_reader::payload_view(std::uint64_t at, std::size_t n) {
    const std::size_t i = index_.frame_of(at);
    const zstd_frame& f = index_.frames[i];
    if (at + n <= f.payload_offset + f.payload) {
        load_frame(i);
        return frame_.data() + (at - f.payload_offset);
    }
    if (!block_.data()) block_ = byte_buffer(settings_.shuffle_block_bytes);
    copy_payload(at, n, block_.data());
    return block_.data();
}

void zstd_reader::load_frame(std::size_t i) {
    if (cached_ == i) return;
    const zstd_frame& f = index_.frames[i];
    const std::string& path = file_.path();
    // Both bounded by the file: the index's sizes add up to the file's
    // size and to the count asked for.
    if (compressed_.size() < f.compressed) compressed_ = byte_buffer(static_cast<std::size_t>(f.compressed));
    if (!frame_.data()) frame_ = byte_buffer(static_cast<std::size_t>(index_.largest_frame));
    cached_ = SIZE_MAX; // frame_ is overwritten below
    const std::size_t want = static_cast<std::size_t>(f.compressed);
    const std::size_t got =
        io_.time([&] { return file_.read_full_at(compressed_.data(), want, f.file_offset); });
    file_bytes_ += got;
    const std::string frame = "frame " + std::to_string(i) + " (compressed bytes " +
                              std::to_string(f.file_offset) + ".." +
                              std::to_string(f.file_offset + f.compressed) + ")";
    if (got < want)
        throw sdk::error(FB_E_TRUNCATED, "zstd: '" + path + "' is truncated: it ends inside " + frame);
    const std::size_t rc = codec_.time([&] {
        return ZSTD_decompressDCtx(dctx_.get(), frame_.data(), static_cast<std::size_t>(f.payload),
                                   compressed_.data(), want);
    });
    if (ZSTD_isError(rc)) {
        switch (ZSTD_getErrorCode(rc)) {
        case ZSTD_error_memory_allocation:
            throw sdk::error(FB_E_NO_MEMORY, "zstd: out of memory decoding " + frame + " of '" + path + "'");
        case ZSTD_error_checksum_wrong:
            throw sdk::error(FB_E_CORRUPT, "zstd: '" + path + "': the content checksum of " + frame +
                                               " does not match: the compressed data is damaged");
        case ZSTD_error_dstSize_tooSmall:
            throw sdk::error(FB_E_CORRUPT, "zstd: '" + path + "': " + frame + " holds more than the " +
                                               std::to_string(f.payload) + " bytes its index gives it");
        default:
            throw sdk::error(FB_E_CORRUPT, "zstd: '" + path + "' is not a valid zstd file (" + frame + ": " +
                                               ZSTD_getErrorName(rc) + ")");
        }
    }
    if (rc != f.payload)
        throw sdk::error(FB_E_CORRUPT, "zstd: '" + path + "': " + frame + " holds " + std::to_string(rc) +
                                           " bytes, its index gives it " + std::to_string(f.payload));
    ++frames_decoded_;
    cached_ = i;
}

void zstd_reader::check_header() {
    refill();
    const std::string& path = file_.path();
    const auto* b = static_cast<const unsigned char*>(in_.src);
    const std::size_t n = in_.size;
    if (n == 0) throw sdk::error(FB_E_TRUNCATED, "zstd: '" + path + "' is empty: the zstd frame is missing");
    const unsigned char magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    if (n < 4) {
        if (std::memcmp(b, magic, n) == 0)
            throw sdk::error(FB_E_TRUNCATED, "zstd: '" + path + "' ends inside the zstd magic number");
        corrupt("it does not start with the zstd magic number 28 b5 2f fd");
    }
    const std::uint32_t m = le32(b);
    if ((m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START) {
        // pzstd puts one before each frame; the decoder skips them.
        if (settings_.independent_frames) return;
        corrupt("it starts with a skippable frame; this plugin reads a file of one zstd frame unless told "
                "frames: independent");
    }
    if (m != ZSTD_MAGICNUMBER) corrupt("it does not start with the zstd magic number 28 b5 2f fd");

    ZSTD_frameHeader h{};
    std::size_t rc = ZSTD_getFrameHeader(&h, b, n);
    if (ZSTD_isError(rc)) corrupt(std::string("invalid frame header: ") + ZSTD_getErrorName(rc));
    if (rc > 0) throw sdk::error(FB_E_TRUNCATED, "zstd: '" + path + "' ends inside the zstd frame header");
    if (h.dictID != 0)
        throw sdk::error(FB_E_UNSUPPORTED,
                         "zstd: '" + path + "' needs zstd dictionary " + std::to_string(h.dictID) +
                             " to be decoded; this plugin reads frames without a dictionary");
    const int limit = settings_.reader_window_log_max();
    if (h.windowSize > (std::uint64_t{1} << limit)) {
        // A single-segment frame's window is its content size, any 64-bit value.
        int log = limit;
        while (log < 63 && (std::uint64_t{1} << log) < h.windowSize)
            ++log;
        if (log > ZSTD_WINDOWLOG_MAX)
            corrupt("its header asks for a window of " + std::to_string(h.windowSize) +
                    " bytes, more than any zstd encoder uses (2^" + std::to_string(ZSTD_WINDOWLOG_MAX) + ")");
        throw sdk::error(FB_E_UNSUPPORTED,
                         "zstd: '" + path + "' needs a window of " + std::to_string(h.windowSize) +
                             " bytes, more than the 2^" + std::to_string(limit) +
                             " this reader allows; if the file is right (zstd --long=" + std::to_string(log) +
                             "), read it with window_log=" + std::to_string(log));
    }
    // A sequence of frames: this one's content size is a part; the decoder
    // finds out whether the frames hold the count.
    if (h.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN || settings_.independent_frames) return;
    const std::uint64_t stored = h.frameContentSize;
    if (stored % settings_.element_size != 0)
        corrupt("its header gives a content size of " + std::to_string(stored) +
                " bytes, not a whole number of " + sdk::dtype_name(dtype_) + " values");
    if (requested_bytes_ == FB_COUNT_UNKNOWN || stored == requested_bytes_) return;
    const std::string sizes = "holds " + elements(stored) + " (the frame header's content size), " +
                              elements(requested_bytes_) + " were asked for";
    if (stored < requested_bytes_)
        throw sdk::error(FB_E_TRUNCATED, "zstd: '" + path + "' " + sizes +
                                             "; if more frames follow it, read it with frames: independent");
    throw sdk::error(FB_E_CORRUPT,
                     "zstd: '" + path + "' " + sizes + "; the count or dtype does not match the file");
}

void zstd_reader::close() {
    file_.reset(); // nothing to flush: a failing close(2) changes nothing
    dctx_.reset();
    metrics_("compressed_bytes", static_cast<double>(file_bytes_));
    metrics_("codec_s", codec_.seconds());
    metrics_("io_s", io_.seconds());
    if (settings_.independent_frames) {
        // Building the frame index at open (in io_s too), and what read_at decoded.
        metrics_("index_s", index_seconds_);
        metrics_("index_frames", static_cast<double>(index_.frames.size()));
        metrics_("decoded_frames", static_cast<double>(frames_decoded_));
    }
    compressed_ = byte_buffer();
    frame_ = byte_buffer();
    block_ = byte_buffer();
}

void zstd_reader::read(void* data, std::uint64_t count) {
    failure_.rethrow();
    if (!dctx_) throw sdk::error(FB_E_STATE, "zstd: read from '" + file_.path() + "' after close");
    failure_.run([&] { read_unguarded(static_cast<unsigned char*>(data), count * settings_.element_size); },
                 "zstd: ", "reading", file_.path());
}

void zstd_reader::read_unguarded(unsigned char* out, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (!settings_.shuffle) {
        if (!started_ && bytes == requested_bytes_) {
            // The whole array into one buffer: zstd decodes into it directly
            // and keeps no window buffer of its own. Set before decoding
            // starts; zstd checks that the buffer then stays the same.
            std::size_t rc = ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_stableOutBuffer, 1);
            if (ZSTD_isError(rc)) decoder_error(rc);
            stable_ = true;
        }
        started_ = true;
        ZSTD_outBuffer o{out, static_cast<std::size_t>(bytes), 0};
        decode(o);
        delivered_ += o.pos;
        if (o.pos < o.size) too_short();
        if (stable_) stable_out_ = o;
    } else {
        started_ = true;
        const std::uint64_t got = unshuffled_.read(out, bytes, [&](unsigned char* block, std::size_t max) {
            ZSTD_outBuffer o{block, max, 0};
            decode(o);
            return o.pos;
        });
        delivered_ += got;
        if (got < bytes) too_short();
    }
    if (delivered_ == requested_bytes_ && unshuffled_.drained()) verify_end();
}

void zstd_reader::refill() {
    if (eof_) return;
    std::size_t have = in_.size - in_.pos;
    if (have > 0 && in_.pos > 0) std::memmove(input_.data(), input_.data() + in_.pos, have);
    file_offset_ += in_.pos;
    std::size_t got = io_.time([&] { return file_.read_full(input_.data() + have, input_.size() - have); });
    file_bytes_ += got;
    if (got < input_.size() - have) eof_ = true;
    in_.pos = 0;
    in_.size = have + got;
}

bool zstd_reader::more_input() {
    if (in_.pos == in_.size) refill();
    return in_.pos < in_.size;
}

void zstd_reader::decode(ZSTD_outBuffer& out) {
    while (out.pos < out.size && !frame_end_) {
        if (in_.pos == in_.size) refill();
        const std::size_t in_before = in_.pos, out_before = out.pos;
        std::size_t hint = codec_.time([&] { return ZSTD_decompressStream(dctx_.get(), &out, &in_); });
        decoded_ += out.pos - out_before;
        if (ZSTD_isError(hint)) decoder_error(hint);
        if (hint == 0) {
            // A frame is complete; with independent frames the next call
            // starts the next one, if the file has more.
            if (settings_.independent_frames && more_input()) continue;
            frame_end_ = true;
            break;
        }
        if (in_.pos == in_before && out.pos == out_before) {
            // The decoder wants input the file does not have: it was cut short.
            if (in_.pos == in_.size && eof_) truncated_frame();
            corrupt("the decoder made no progress");
        }
    }
}

void zstd_reader::verify_end() {
    if (!frame_end_) {
        if (stable_) {
            // The same, full buffer: what is left of the frame may only be
            // its end (an empty last block, the checksum); more data fails
            // with dstSize_tooSmall.
            for (;;) {
                if (in_.pos == in_.size) refill();
                const std::size_t in_before = in_.pos;
                std::size_t hint =
                    codec_.time([&] { return ZSTD_decompressStream(dctx_.get(), &stable_out_, &in_); });
                if (ZSTD_isError(hint)) decoder_error(hint);
                if (hint == 0) break;
                if (in_.pos == in_before) {
                    if (in_.pos == in_.size && eof_) truncated_frame();
                    corrupt("the decoder made no progress");
                }
            }
            frame_end_ = true;
            if (settings_.independent_frames && more_input()) {
                // More frames: they may hold nothing (empty or skippable
                // frames). A probe of one byte tells, decoded without the
                // stable buffer, which is full.
                std::size_t rc = ZSTD_DCtx_reset(dctx_.get(), ZSTD_reset_session_only);
                if (!ZSTD_isError(rc)) rc = ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_stableOutBuffer, 0);
                if (ZSTD_isError(rc)) decoder_error(rc);
                stable_ = false;
                frame_end_ = false;
                unsigned char probe = 0;
                ZSTD_outBuffer o{&probe, 1, 0};
                decode(o);
                if (o.pos > 0) more_than_requested();
            }
        } else {
            // One byte tells "more data follows" from "the frame ends here".
            unsigned char probe = 0;
            ZSTD_outBuffer o{&probe, 1, 0};
            decode(o);
            if (o.pos > 0) more_than_requested();
        }
    }
    if (in_.pos == in_.size) refill();
    if (in_.pos < in_.size)
        corrupt("bytes follow the end of the zstd frame at byte " + std::to_string(file_offset_ + in_.pos) +
                " (a second frame or other data); this plugin reads a file of one frame unless told "
                "frames: independent");
}

void zstd_reader::more_than_requested() const {
    throw sdk::error(FB_E_CORRUPT, "zstd: '" + file_.path() + "' holds more than the " +
                                       elements(requested_bytes_) +
                                       " asked for; the count or dtype does not match the file");
}

void zstd_reader::decoder_error(std::size_t code) const {
    const std::string& path = file_.path();
    switch (ZSTD_getErrorCode(code)) {
    case ZSTD_error_memory_allocation:
        throw sdk::error(FB_E_NO_MEMORY, "zstd: out of memory decoding '" + path + "'");
    case ZSTD_error_frameParameter_windowTooLarge:
        throw sdk::error(FB_E_UNSUPPORTED, "zstd: '" + path + "' needs a window larger than the 2^" +
                                               std::to_string(settings_.reader_window_log_max()) +
                                               " this reader allows; if the file is right, raise window_log");
    case ZSTD_error_checksum_wrong:
        corrupt("the content checksum does not match: the compressed data is damaged");
    case ZSTD_error_dstSize_tooSmall:
        // Only with the stable output buffer: the frame has more to decode.
        more_than_requested();
    default: corrupt(ZSTD_getErrorName(code));
    }
}

void zstd_reader::corrupt(const std::string& what) const {
    throw sdk::error(FB_E_CORRUPT, "zstd: '" + file_.path() + "' is not a valid zstd file (" + what +
                                       ", near compressed byte " + std::to_string(file_offset_ + in_.pos) +
                                       ")");
}

void zstd_reader::truncated_frame() const {
    throw sdk::error(FB_E_TRUNCATED, "zstd: '" + file_.path() + "' is truncated: the zstd frame ends after " +
                                         std::to_string(file_offset_ + in_.pos) + " compressed bytes (" +
                                         std::to_string(decoded_) + " bytes decoded) without its end");
}

void zstd_reader::too_short() const {
    std::string message = "zstd: '" + file_.path() + "' holds " + elements(decoded_);
    if (requested_bytes_ != FB_COUNT_UNKNOWN)
        message += ", fewer than the " + elements(requested_bytes_) + " asked for";
    throw sdk::error(FB_E_TRUNCATED, message);
}

std::string zstd_reader::elements(std::uint64_t bytes) const {
    const std::size_t es = settings_.element_size;
    std::string text = std::to_string(bytes / es) + " elements";
    if (bytes % es) text += " and " + std::to_string(bytes % es) + " stray bytes";
    return text;
}

} // namespace formatbench::detail

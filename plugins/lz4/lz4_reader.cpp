// The lz4 plugin's read stream; see lz4_reader.hpp.
#include "lz4_reader.hpp"

#include "common/file_io.hpp"

#define LZ4F_STATIC_LINKING_ONLY // LZ4F_getErrorCode
#include <lz4frame.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace formatbench::detail {

namespace {

constexpr std::uint32_t legacy_magic = 0x184C2102; // lz4 -l

std::uint32_t le32(const unsigned char* b) {
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
           std::uint32_t(b[3]) << 24;
}

} // namespace

lz4_reader::lz4_reader(const sdk::open_request& request)
    : settings_(parse_settings(request)), file_(open_input(request.path, lz4_wording)), dtype_(request.dtype),
      requested_bytes_(request.count) {
    if (requested_bytes_ != FB_COUNT_UNKNOWN) {
        if (requested_bytes_ > UINT64_MAX / settings_.element_size)
            throw sdk::error(FB_E_UNSUPPORTED, "lz4: " + std::to_string(request.count) +
                                                   " elements do not fit a 64-bit byte count ('" +
                                                   request.path + "')");
        requested_bytes_ *= settings_.element_size;
    }
    LZ4F_dctx* d = nullptr;
    std::size_t rc = LZ4F_createDecompressionContext(&d, LZ4F_VERSION);
    dctx_.reset(d);
    if (LZ4F_isError(rc)) decoder_error(rc);
    read_header();
}

void lz4_reader::read_header() {
    const std::string& path = file_.path();
    input_ = byte_buffer(LZ4F_HEADER_SIZE_MAX);
    refill(LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH);
    const unsigned char* b = input_.data();
    if (size_ == 0)
        throw sdk::error(FB_E_TRUNCATED, "lz4: '" + path + "' is empty: the LZ4 frame is missing");
    const unsigned char magic[4] = {0x04, 0x22, 0x4d, 0x18};
    if (size_ < 4) {
        if (std::memcmp(b, magic, size_) == 0)
            throw sdk::error(FB_E_TRUNCATED, "lz4: '" + path + "' ends inside the LZ4 magic number");
        corrupt("it does not start with the LZ4 frame magic number 04 22 4d 18");
    }
    const std::uint32_t m = le32(b);
    if ((m & 0xFFFFFFF0u) == LZ4F_MAGIC_SKIPPABLE_START)
        corrupt("it starts with a skippable frame; this plugin reads a file of one LZ4 frame");
    if (m == legacy_magic)
        corrupt("it is in the legacy LZ4 format (lz4 -l); this plugin reads the LZ4 frame format");
    if (m != LZ4F_MAGICNUMBER) corrupt("it does not start with the LZ4 frame magic number 04 22 4d 18");
    if (size_ < LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH)
        throw sdk::error(FB_E_TRUNCATED, "lz4: '" + path + "' ends inside the LZ4 frame header");
    std::size_t header = LZ4F_headerSize(b, size_);
    if (LZ4F_isError(header)) corrupt(std::string("invalid frame header: ") + LZ4F_getErrorName(header));
    refill(header);
    if (size_ < header)
        throw sdk::error(FB_E_TRUNCATED, "lz4: '" + path + "' ends inside the LZ4 frame header");

    LZ4F_frameInfo_t info = LZ4F_INIT_FRAMEINFO;
    std::size_t consumed = size_;
    std::size_t rc = LZ4F_getFrameInfo(dctx_.get(), &info, b, &consumed);
    if (LZ4F_isError(rc)) corrupt(std::string("invalid frame header: ") + LZ4F_getErrorName(rc));
    pos_ += consumed;
    hint_ = rc;
    if (info.dictID != 0)
        throw sdk::error(FB_E_UNSUPPORTED,
                         "lz4: '" + path + "' needs LZ4 dictionary " + std::to_string(info.dictID) +
                             " to be decoded; this plugin reads frames without a dictionary");
    block_ = block_bytes(info.blockSizeID);
    // A whole block, its checksum and the next block's header fit, so each
    // read brings LZ4F one whole block (see refill).
    byte_buffer input(block_ + 64);
    std::memcpy(input.data(), input_.data() + pos_, size_ - pos_);
    file_offset_ += pos_;
    size_ -= pos_;
    pos_ = 0;
    input_ = std::move(input);
    if (settings_.shuffle) unshuffled_ = unshuffle_buffer(block_, settings_.element_size);
    if (info.contentSize == 0) return; // absent (LZ4F reads 0 as unknown)
    const std::uint64_t stored = info.contentSize;
    if (stored % settings_.element_size != 0)
        corrupt("its header gives a content size of " + std::to_string(stored) +
                " bytes, not a whole number of " + sdk::dtype_name(dtype_) + " values");
    if (requested_bytes_ == FB_COUNT_UNKNOWN || stored == requested_bytes_) return;
    const std::string sizes = "holds " + elements(stored) + " (the frame header's content size), " +
                              elements(requested_bytes_) + " were asked for";
    if (stored < requested_bytes_) throw sdk::error(FB_E_TRUNCATED, "lz4: '" + path + "' " + sizes);
    throw sdk::error(FB_E_CORRUPT,
                     "lz4: '" + path + "' " + sizes + "; the count or dtype does not match the file");
}

void lz4_reader::close() {
    file_.reset(); // nothing to flush: a failing close(2) changes nothing
    dctx_.reset();
}

void lz4_reader::read(void* data, std::uint64_t count) {
    failure_.rethrow();
    if (!dctx_) throw sdk::error(FB_E_STATE, "lz4: read from '" + file_.path() + "' after close");
    failure_.run([&] { read_unguarded(static_cast<unsigned char*>(data), count * settings_.element_size); },
                 "lz4: ", "reading", file_.path());
}

void lz4_reader::read_unguarded(unsigned char* out, std::uint64_t bytes) {
    if (bytes == 0) return;
    const std::uint64_t got =
        settings_.shuffle
            ? unshuffled_.read(out, bytes,
                               [&](unsigned char* block, std::size_t max) { return decode(block, max); })
            : decode(out, static_cast<std::size_t>(bytes));
    delivered_ += got;
    if (got < bytes) too_short();
    if (delivered_ == requested_bytes_ && unshuffled_.drained()) verify_end();
}

void lz4_reader::refill(std::size_t want) {
    const std::size_t have = size_ - pos_;
    if (have > 0 && pos_ > 0) std::memmove(input_.data(), input_.data() + pos_, have);
    file_offset_ += pos_;
    pos_ = 0;
    size_ = have;
    if (eof_ || have >= want) return;
    const std::size_t k = std::min(want, input_.size()) - have;
    const std::size_t got = file_.read_full(input_.data() + have, k);
    if (got < k) eof_ = true;
    size_ += got;
}

std::size_t lz4_reader::decode(unsigned char* out, std::size_t n) {
    std::size_t done = 0;
    while (done < n && !frame_end_) {
        if (pos_ == size_) refill(std::max<std::size_t>(hint_, 1));
        std::size_t src_size = size_ - pos_;
        std::size_t dst_size = n - done;
        LZ4F_decompressOptions_t options{};
        std::size_t rc =
            LZ4F_decompress(dctx_.get(), out + done, &dst_size, input_.data() + pos_, &src_size, &options);
        if (LZ4F_isError(rc)) decoder_error(rc);
        pos_ += src_size;
        done += dst_size;
        decoded_ += dst_size;
        hint_ = rc;
        if (rc == 0) {
            frame_end_ = true;
            break;
        }
        if (src_size == 0 && dst_size == 0) {
            // The decoder wants input the file does not have: it was cut short.
            if (pos_ == size_ && eof_) truncated_frame();
            corrupt("the decoder made no progress");
        }
    }
    return done;
}

void lz4_reader::verify_end() {
    if (!frame_end_) {
        // One byte tells "more data follows" from "the frame ends here" (then
        // LZ4F has checked the end mark and the content checksum).
        unsigned char probe = 0;
        if (decode(&probe, 1) > 0) more_than_requested();
    }
    if (pos_ == size_) refill(1);
    if (pos_ < size_)
        corrupt("bytes follow the end of the LZ4 frame at byte " + std::to_string(offset()) +
                " (a second frame or other data); this plugin reads a file of one frame");
}

void lz4_reader::decoder_error(std::size_t code) const {
    switch (LZ4F_getErrorCode(code)) {
    case LZ4F_ERROR_allocation_failed:
        throw sdk::error(FB_E_NO_MEMORY, "lz4: out of memory decoding '" + file_.path() + "'");
    case LZ4F_ERROR_contentChecksum_invalid:
        corrupt("the content checksum does not match: the compressed data is damaged");
    case LZ4F_ERROR_blockChecksum_invalid: corrupt("a block checksum does not match: the block is damaged");
    case LZ4F_ERROR_frameSize_wrong:
        corrupt("the data decoded does not match the content size in the frame header");
    default: corrupt(LZ4F_getErrorName(code));
    }
}

void lz4_reader::corrupt(const std::string& what) const {
    throw sdk::error(FB_E_CORRUPT, "lz4: '" + file_.path() + "' is not a valid LZ4 frame file (" + what +
                                       ", near compressed byte " + std::to_string(offset()) + ")");
}

void lz4_reader::truncated_frame() const {
    throw sdk::error(FB_E_TRUNCATED, "lz4: '" + file_.path() + "' is truncated: the LZ4 frame ends after " +
                                         std::to_string(offset()) + " compressed bytes (" +
                                         std::to_string(decoded_) + " bytes decoded) without its end mark");
}

void lz4_reader::too_short() const {
    std::string message = "lz4: '" + file_.path() + "' holds " + elements(decoded_);
    if (requested_bytes_ != FB_COUNT_UNKNOWN)
        message += ", fewer than the " + elements(requested_bytes_) + " asked for";
    throw sdk::error(FB_E_TRUNCATED, message);
}

void lz4_reader::more_than_requested() const {
    throw sdk::error(FB_E_CORRUPT, "lz4: '" + file_.path() + "' holds more than the " +
                                       elements(requested_bytes_) +
                                       " asked for; the count or dtype does not match the file");
}

std::string lz4_reader::elements(std::uint64_t bytes) const {
    const std::size_t es = settings_.element_size;
    std::string text = std::to_string(bytes / es) + " elements";
    if (bytes % es) text += " and " + std::to_string(bytes % es) + " stray bytes";
    return text;
}

} // namespace formatbench::detail

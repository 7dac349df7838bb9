// The zlib plugin's read stream; see zlib_reader.hpp.
#include "zlib_reader.hpp"

#include "wording.hpp"

#include <cstring>
#include <new>

namespace formatbench::detail {

// Compressed bytes read per read(2) call: bounded, whatever the file size.
constexpr std::size_t input_buffer_bytes = std::size_t{1} << 19;
// inflate's avail_out is 32-bit: produce large requests in pieces.
constexpr std::size_t max_piece = std::size_t{1} << 30;

namespace {

bool is_gzip_magic(const unsigned char* b) {
    return b[0] == 0x1f && b[1] == 0x8b;
}

// A valid RFC 1950 header: deflate method and the FCHECK multiple of 31.
bool is_zlib_header(const unsigned char* b) {
    return (b[0] & 0x0f) == 8 && (b[0] * 256u + b[1]) % 31 == 0;
}

} // namespace

zlib_reader::zlib_reader(const sdk::open_request& request)
    : settings_(parse_settings(request)), file_(open_input(request.path, zlib_wording)),
      metrics_(request.metrics()), requested_elements_(request.count) {
    input_.resize(input_buffer_bytes);
    if (settings_.shuffle) unshuffled_ = unshuffle_buffer(settings_.block_bytes, settings_.element_size);
    int rc = inflateInit2(&z_, window_bits(settings_.container));
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK) throw sdk::error(FB_E_INTERNAL, std::string("zlib: inflateInit2 failed: ") + zError(rc));
    z_ready_ = true;

    // The destructor does not run when the constructor throws.
    try {
        check_start();
    } catch (...) {
        inflateEnd(&z_);
        throw;
    }
}

void zlib_reader::check_start() {
    // Look at the first bytes now, to name the right problem: an empty
    // file, or a container other than the one the options say.
    refill();
    const std::string& path = file_.path();
    if (z_.avail_in == 0)
        throw sdk::error(FB_E_TRUNCATED, "zlib: '" + path + "' is empty: the " +
                                             container_name(settings_.container) + " stream is missing");
    if (z_.avail_in >= 2) std::memcpy(magic_, z_.next_in, 2);
    if (z_.avail_in >= 2 && settings_.container == container_kind::zlib && is_gzip_magic(magic_))
        throw sdk::error(FB_E_CORRUPT,
                         "zlib: '" + path +
                             "' is a gzip stream, not a zlib stream: read it with container=gzip");
    if (settings_.container == container_kind::gzip && (z_.avail_in < 2 || !is_gzip_magic(magic_))) {
        if (z_.avail_in >= 2 && is_zlib_header(magic_))
            throw sdk::error(FB_E_CORRUPT,
                             "zlib: '" + path +
                                 "' is a zlib stream, not a gzip stream: read it with container=zlib");
        throw sdk::error(FB_E_CORRUPT, "zlib: '" + path + "' is not a gzip stream (no 1f 8b signature)");
    }
}

zlib_reader::~zlib_reader() {
    if (z_ready_) inflateEnd(&z_);
}

void zlib_reader::close() {
    file_.reset(); // nothing to flush: a failing close(2) changes nothing
    if (z_ready_) inflateEnd(&z_);
    z_ready_ = false;
    metrics_("compressed_bytes", static_cast<double>(file_bytes_));
    metrics_("codec_s", codec_.seconds());
    metrics_("io_s", io_.seconds());
}

void zlib_reader::read(void* data, std::uint64_t count) {
    failure_.rethrow();
    if (!z_ready_) throw sdk::error(FB_E_STATE, "zlib: read from '" + file_.path() + "' after close");
    failure_.run([&] { read_unguarded(static_cast<unsigned char*>(data), count * settings_.element_size); },
                 "zlib: ", "reading", file_.path());
}

void zlib_reader::read_unguarded(unsigned char* out, std::uint64_t bytes) {
    const std::uint64_t want = bytes;
    if (!settings_.shuffle) {
        while (bytes > 0) {
            std::size_t piece = bytes < max_piece ? static_cast<std::size_t>(bytes) : max_piece;
            std::size_t got = inflate_into(out, piece);
            delivered_ += got;
            if (got < piece) too_short();
            out += got;
            bytes -= got;
        }
    } else {
        const std::uint64_t got = unshuffled_.read(
            out, bytes, [&](unsigned char* block, std::size_t max) { return inflate_into(block, max); });
        delivered_ += got;
        if (got < bytes) too_short();
    }
    if (want > 0 && requested_elements_ != FB_COUNT_UNKNOWN &&
        delivered_ == requested_elements_ * settings_.element_size && unshuffled_.drained())
        verify_end();
}

void zlib_reader::refill() {
    if (eof_) return;
    if (z_.avail_in > 0 && z_.next_in != input_.data()) std::memmove(input_.data(), z_.next_in, z_.avail_in);
    std::size_t have = z_.avail_in;
    std::size_t got = io_.time([&] { return file_.read_full(input_.data() + have, input_.size() - have); });
    file_bytes_ += got;
    if (got == 0) eof_ = true;
    z_.next_in = input_.data();
    z_.avail_in = uInt(have + got);
}

std::size_t zlib_reader::inflate_into(unsigned char* out, std::size_t n) {
    std::size_t done = 0;
    if (has_carry_ && n > 0) {
        out[0] = carry_;
        has_carry_ = false;
        done = 1;
    }
    while (done < n && !stream_end_) {
        if (z_.avail_in == 0) refill();
        const uInt in_before = z_.avail_in;
        z_.next_out = out + done;
        z_.avail_out = uInt(n - done);
        int rc = codec_.time([&] { return inflate(&z_, Z_NO_FLUSH); });
        const std::size_t produced = (n - done) - z_.avail_out;
        done += produced;
        decoded_ += produced;
        consumed_ += in_before - z_.avail_in;
        const bool progress = produced > 0 || z_.avail_in != in_before;
        switch (rc) {
        case Z_OK: break;
        case Z_STREAM_END: on_stream_end(); continue;
        case Z_BUF_ERROR: break; // no progress possible: decided below
        case Z_NEED_DICT: corrupt("the stream needs a preset dictionary, which this format never uses");
        case Z_DATA_ERROR: corrupt(z_.msg ? z_.msg : "invalid data");
        case Z_MEM_ERROR: throw std::bad_alloc();
        default: corrupt(std::string("inflate failed: ") + zError(rc));
        }
        if (!progress) {
            // inflate wants input the file does not have: it was cut short.
            if (z_.avail_in == 0 && eof_) truncated_stream();
            corrupt("inflate made no progress");
        }
    }
    return done;
}

void zlib_reader::on_stream_end() {
    if (settings_.container == container_kind::gzip) {
        if (z_.avail_in < 2) refill();
        if (z_.avail_in >= 2 && is_gzip_magic(z_.next_in)) {
            inflateReset(&z_);
            return;
        }
    }
    // Anything after the end of the stream is ignored, as gzip -dc does.
    stream_end_ = true;
}

void zlib_reader::verify_end() {
    if (stream_end_) return;
    unsigned char probe;
    // One byte is enough to tell "more data follows" (the host reads a
    // prefix: fine, keep the byte) from "the stream ends here" (then inflate
    // has checked the trailer, or thrown).
    if (inflate_into(&probe, 1) == 1) {
        carry_ = probe;
        has_carry_ = true;
    }
}

void zlib_reader::corrupt(const std::string& what) const {
    std::string message = "zlib: '" + file_.path() + "' is not a valid " +
                          container_name(settings_.container) + " stream (" + what +
                          ", near compressed byte " + std::to_string(consumed_) + ")";
    if (settings_.container == container_kind::deflate && is_gzip_magic(magic_))
        message += "; it starts like a gzip stream: try container=gzip";
    else if (settings_.container == container_kind::deflate && is_zlib_header(magic_))
        message += "; it starts like a zlib stream: try container=zlib";
    throw sdk::error(FB_E_CORRUPT, message);
}

void zlib_reader::truncated_stream() const {
    throw sdk::error(FB_E_TRUNCATED, "zlib: '" + file_.path() + "' is truncated: the " +
                                         container_name(settings_.container) + " stream ends after " +
                                         std::to_string(consumed_) + " compressed bytes (" +
                                         std::to_string(decoded_) + " bytes decoded) without its end marker");
}

void zlib_reader::too_short() const {
    const std::size_t es = settings_.element_size;
    std::string message = "zlib: '" + file_.path() + "' holds " + std::to_string(decoded_ / es) + " elements";
    if (decoded_ % es) message += " and " + std::to_string(decoded_ % es) + " stray bytes";
    message += ", fewer than requested";
    if (requested_elements_ != FB_COUNT_UNKNOWN) message += " (" + std::to_string(requested_elements_) + ")";
    throw sdk::error(FB_E_TRUNCATED, message);
}

} // namespace formatbench::detail

// The blosc plugin's write stream; see blosc_writer.hpp.
#include "blosc_writer.hpp"

#include <blosc.h>

#include <algorithm>
#include <cstring>

namespace formatbench::detail {

namespace {

// The file buffer holds at least this much, so small chunks leave in
// write(2)s of about this size.
constexpr std::size_t min_file_buffer = std::size_t{1} << 20;

std::uint64_t payload_bytes(const sdk::open_request& r) {
    if (r.count == FB_COUNT_UNKNOWN) return FB_COUNT_UNKNOWN;
    if (r.count > UINT64_MAX / r.element_size())
        throw sdk::error(FB_E_UNSUPPORTED, "blosc: " + std::to_string(r.count) +
                                               " elements do not fit a 64-bit byte count ('" + r.path + "')");
    return r.count * r.element_size();
}

} // namespace

blosc_writer::blosc_writer(const sdk::open_request& request)
    : settings_(parse_settings(request)), metrics_(request.metrics()), dtype_(request.dtype),
      total_bytes_(payload_bytes(request)),
      file_(request.path,
            std::max(min_file_buffer, prefix_bytes + settings_.chunk_bytes + BLOSC_MAX_OVERHEAD),
            blosc_wording) {
    container_header h;
    h.dtype = request.dtype;
    h.chunk_bytes = settings_.chunk_bytes;
    if (total_bytes_ != FB_COUNT_UNKNOWN) {
        h.count = request.count;
        h.chunk_count = chunks_for(total_bytes_, h.chunk_bytes);
    } // else a header of 0 elements until close completes it
    // The header goes into the empty buffer: no I/O before the file exists.
    auto room = file_.space(header_bytes);
    encode_header(h, room.data());
    file_.commit(header_bytes);
    file_.open();
}

void blosc_writer::write(const void* data, std::uint64_t count) {
    if (closed_) throw sdk::error(FB_E_STATE, "blosc: '" + file_.path() + "' is already closed");
    failure_.rethrow();
    failure_.run(
        [&] { write_unguarded(static_cast<const unsigned char*>(data), count * settings_.element_size); },
        "blosc: ", "writing", file_.path());
}

void blosc_writer::write_unguarded(const unsigned char* p, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (total_bytes_ != FB_COUNT_UNKNOWN && bytes > total_bytes_ - written_)
        throw sdk::error(FB_E_STATE, "blosc: writing '" + file_.path() + "': more data than the " +
                                         std::to_string(total_bytes_ / settings_.element_size) +
                                         " elements announced at open (the header holds that count)");
    const std::size_t chunk = settings_.chunk_bytes;
    written_ += bytes;
    const bool last = written_ == total_bytes_;
    if (pending_ > 0) {
        // Complete the chunk an earlier write began.
        const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(chunk - pending_, bytes));
        std::memcpy(staging_.data() + pending_, p, k);
        pending_ += k;
        p += k;
        bytes -= k;
        if (pending_ < chunk && !last) return;
        compress(staging_.data(), pending_);
        pending_ = 0;
    }
    // Whole chunks from the caller's memory; the rest too when it ends the data.
    while (bytes >= chunk || (last && bytes > 0)) {
        const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, bytes));
        compress(p, k);
        p += k;
        bytes -= k;
    }
    if (bytes > 0) {
        if (!staging_.data()) staging_ = byte_buffer(chunk);
        std::memcpy(staging_.data(), p, static_cast<std::size_t>(bytes));
        pending_ = static_cast<std::size_t>(bytes);
    }
}

void blosc_writer::compress(const unsigned char* p, std::size_t n) {
    // Room for the length and the worst case (n + BLOSC_MAX_OVERHEAD), for
    // which Blosc guarantees success; the buffer was sized for it.
    const std::size_t bound = n + BLOSC_MAX_OVERHEAD;
    auto room = file_.space(prefix_bytes + bound);
    const blosc_settings& s = settings_;
    const int z = codec_.time([&] {
        return blosc_compress_ctx(s.level, s.shuffle, s.element_size, n, p, room.data() + prefix_bytes, bound,
                                  s.codec.c_str(), s.block_size, s.threads);
    });
    if (z <= 0)
        throw sdk::error(FB_E_INTERNAL, "blosc: blosc_compress_ctx failed (" + std::to_string(z) +
                                            ") on chunk " + std::to_string(chunks_) + " of '" + file_.path() +
                                            "' with codec " + s.codec + "; please report this");
    put_le32(room.data(), static_cast<std::uint32_t>(z));
    file_.commit(prefix_bytes + static_cast<std::size_t>(z));
    ++chunks_;
}

void blosc_writer::close() {
    if (closed_) return;
    if (failure_.failed()) {
        closed_ = true;
        file_.abandon();
        throw sdk::error(failure_.status(), failure_.message() + " (the file is incomplete)");
    }
    failure_.run([&] { close_unguarded(); }, "blosc: ", "closing", file_.path());
    closed_ = true;
}

void blosc_writer::close_unguarded() {
    const std::size_t es = settings_.element_size;
    if (total_bytes_ != FB_COUNT_UNKNOWN && written_ != total_bytes_)
        throw sdk::error(FB_E_STATE, "blosc: closing '" + file_.path() + "' after " +
                                         std::to_string(written_ / es) + " of the " +
                                         std::to_string(total_bytes_ / es) +
                                         " elements announced at open (the header holds that count)");
    if (pending_ > 0) {
        // The last, short chunk (the count was not announced).
        compress(staging_.data(), pending_);
        pending_ = 0;
    }
    if (total_bytes_ == FB_COUNT_UNKNOWN && written_ > 0) {
        unsigned char header[header_bytes];
        encode_header({.dtype = dtype_,
                       .count = written_ / es,
                       .chunk_bytes = settings_.chunk_bytes,
                       .chunk_count = chunks_},
                      header);
        file_.write_at(header, header_bytes, 0);
    }
    file_.close();
    metrics_("compressed_bytes", static_cast<double>(file_.bytes_written()));
    metrics_("codec_s", codec_.seconds());
    metrics_("io_s", file_.io_seconds());
    metrics_("chunks", static_cast<double>(chunks_));
    metrics_("threads", settings_.threads);
}

} // namespace formatbench::detail

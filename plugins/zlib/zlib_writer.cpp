// The zlib plugin's write stream; see zlib_writer.hpp.
#include "zlib_writer.hpp"

#include "container.hpp"
#include "wording.hpp"

#include "common/shuffle.hpp"

#include <cstring>
#include <new>
#include <utility>

namespace formatbench::detail {

// Output buffer: the kernel sees write(2) calls of this size.
constexpr std::size_t output_buffer_bytes = std::size_t{1} << 20;
// deflate's avail_in is 32-bit: feed large chunks in pieces of this size.
constexpr std::size_t max_piece = std::size_t{1} << 30;

zlib_writer::zlib_writer(const sdk::open_request& request)
    : settings_(parse_settings(request)), file_(request.path, output_buffer_bytes, zlib_wording),
      metrics_(request.metrics()) {
    blocks_ = settings_.shuffle || settings_.threads > 1;
    // Everything that can fail for reasons other than the file comes first,
    // so that the file is created last and never left behind.
    if (blocks_) stager_ = shuffle_stager(settings_.block_bytes);
    if (settings_.shuffle && settings_.threads == 1) shuffled_.resize(settings_.block_bytes);
    if (settings_.threads > 1) {
        pool_ = std::make_unique<parallel_deflate>(settings_, file_, request.count);
        // The parallel path writes the container itself; deflate does
        // otherwise. The header fits in the empty buffer: no I/O yet.
        auto header = container_header(settings_);
        file_.append(header.data(), header.size());
        file_.open();
        return;
    }
    int rc = deflateInit2(&z_, settings_.level, Z_DEFLATED, window_bits(settings_.container),
                          settings_.mem_level, settings_.strategy);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK) throw sdk::error(FB_E_INTERNAL, std::string("zlib: deflateInit2 failed: ") + zError(rc));
    try {
        file_.open();
    } catch (...) {
        deflateEnd(&z_); // the destructor does not run when the constructor throws
        throw;
    }
    z_ready_ = true;
}

zlib_writer::~zlib_writer() {
    pool_.reset(); // joins the workers before file_ goes away
    if (z_ready_) deflateEnd(&z_);
}

template <class Fn>
void zlib_writer::guarded(Fn&& fn) {
    if (closed_) throw sdk::error(FB_E_STATE, "zlib: '" + file_.path() + "' is already closed");
    failure_.rethrow();
    failure_.run(std::forward<Fn>(fn), "zlib: ", "writing", file_.path());
}

void zlib_writer::write(const void* data, std::uint64_t count) {
    guarded(
        [&] { write_unguarded(static_cast<const unsigned char*>(data), count * settings_.element_size); });
}

void zlib_writer::write_unguarded(const unsigned char* p, std::uint64_t bytes) {
    if (!blocks_) {
        deflate_serial(p, bytes, Z_NO_FLUSH);
        return;
    }
    stager_.feed(p, bytes, [&](const unsigned char* block, std::size_t n) { emit_block(block, n, false); });
}

void zlib_writer::close() {
    if (closed_) return;
    if (failure_.failed()) {
        closed_ = true;
        pool_.reset();
        file_.abandon();
        throw sdk::error(failure_.status(), failure_.message() + " (the file is incomplete)");
    }
    guarded([&] { close_unguarded(); });
    closed_ = true;
}

void zlib_writer::close_unguarded() {
    if (!blocks_) {
        deflate_serial(nullptr, 0, Z_FINISH);
    } else {
        // The last block may be empty: it then only carries the final-block
        // bit (and ends the stream).
        emit_block(stager_.staged(), stager_.pending(), true);
        stager_.clear();
    }
    double codec_s = codec_.seconds();
    if (pool_) {
        pool_->drain();
        auto trailer = pool_->check().trailer();
        file_.append(trailer.data(), trailer.size());
        codec_s = pool_->codec_seconds();
        pool_.reset();
    }
    file_.close();
    metrics_("compressed_bytes", static_cast<double>(file_.bytes_written()));
    metrics_("codec_s", codec_s);
    metrics_("io_s", file_.io_seconds());
}

void zlib_writer::emit_block(const unsigned char* src, std::size_t n, bool last) {
    if (pool_) {
        unsigned char* dst = pool_->next_input();
        if (settings_.shuffle)
            shuffle_block(src, dst, n, settings_.element_size);
        else if (n)
            std::memcpy(dst, src, n);
        pool_->submit(n, last);
        return;
    }
    if (settings_.shuffle) {
        shuffle_block(src, shuffled_.data(), n, settings_.element_size);
        src = shuffled_.data();
    }
    // One deflate block (at least) per byte plane; see shuffle_plane_bytes.
    const std::size_t plane = shuffle_plane_bytes(settings_, n);
    std::size_t offset = 0;
    if (plane > 0)
        for (std::size_t j = 0; j + 1 < settings_.element_size; ++j, offset += plane)
            deflate_serial(src + offset, plane, Z_BLOCK);
    deflate_serial(src + offset, n - offset, last ? Z_FINISH : Z_NO_FLUSH);
}

void zlib_writer::deflate_serial(const unsigned char* p, std::size_t n, int flush) {
    do {
        std::size_t piece = n < max_piece ? n : max_piece;
        n -= piece;
        const int f = n == 0 ? flush : Z_NO_FLUSH;
        z_.next_in = const_cast<unsigned char*>(p); // zlib does not write through next_in
        z_.avail_in = uInt(piece);
        p += piece;
        for (;;) {
            auto room = file_.space();
            z_.next_out = room.data();
            z_.avail_out = uInt(room.size());
            int rc = codec_.time([&] { return deflate(&z_, f); });
            file_.commit(room.size() - z_.avail_out);
            if (rc == Z_STREAM_ERROR)
                throw sdk::error(FB_E_INTERNAL,
                                 "zlib: deflate failed (stream error) for '" + file_.path() + "'");
            if (f == Z_FINISH ? rc == Z_STREAM_END : (z_.avail_in == 0 && z_.avail_out != 0)) break;
        }
    } while (n > 0);
}

} // namespace formatbench::detail

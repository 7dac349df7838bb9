// The blosc plugin's read stream; see blosc_reader.hpp.
#include "blosc_reader.hpp"

#include "common/file_io.hpp"

#include <blosc.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstring>

namespace formatbench::detail {

blosc_reader::blosc_reader(const sdk::open_request& request)
    : settings_(parse_settings(request)), metrics_(request.metrics()),
      file_(open_input(request.path, blosc_wording)) {
    const struct stat st = file_.status();
    if (S_ISREG(st.st_mode)) file_size_ = static_cast<std::uint64_t>(st.st_size);
    read_header(request);
}

void blosc_reader::read_header(const sdk::open_request& request) {
    const std::string& path = file_.path();
    unsigned char b[header_bytes + prefix_bytes];
    const std::size_t got = io_.time([&] { return file_.read_full(b, sizeof b); });
    header_ = decode_header(b, std::min(got, header_bytes), path);
    const std::size_t es = settings_.element_size;
    if (header_.dtype != request.dtype)
        throw sdk::error(FB_E_CORRUPT, "blosc: '" + path + "' holds " + sdk::dtype_name(header_.dtype) +
                                           " values, " + sdk::dtype_name(request.dtype) +
                                           " were asked for; read it with dtype " +
                                           sdk::dtype_name(header_.dtype));
    payload_ = header_.count * es;
    if (request.count != FB_COUNT_UNKNOWN && request.count != header_.count) {
        const std::string sizes = "holds " + std::to_string(header_.count) + " elements (its header), " +
                                  std::to_string(request.count) + " were asked for";
        if (header_.count < request.count) throw sdk::error(FB_E_TRUNCATED, "blosc: '" + path + "' " + sizes);
        throw sdk::error(FB_E_CORRUPT,
                         "blosc: '" + path + "' " + sizes + "; the count does not match the file");
    }
    offset_ = header_bytes + prefix_bytes;
    if (header_.chunk_count == 0) {
        if (got > header_bytes) corrupt("bytes follow the header of a file of no elements");
        return;
    }
    // Each chunk takes its length and at least Blosc's header: a count that
    // the file is far too short for is refused before any chunk is read.
    const std::uint64_t least = (prefix_bytes + BLOSC_MIN_HEADER_LENGTH);
    if (file_size_ != UINT64_MAX &&
        (header_.chunk_count > file_size_ / least || header_bytes + header_.chunk_count * least > file_size_))
        truncated("its header announces " + std::to_string(header_.chunk_count) +
                  " chunks, which take more than its " + std::to_string(file_size_) + " bytes");
    if (got < sizeof b) truncated("it ends before the length of its first chunk");
    next_cbytes_ = get_le32(b + header_bytes);
}

void blosc_reader::close() {
    if (closed_) return;
    closed_ = true;
    file_.reset(); // nothing to flush: a failing close(2) changes nothing
    // The header and the chunks decoded, with their lengths.
    metrics_("compressed_bytes", static_cast<double>(offset_ - prefix_bytes));
    metrics_("codec_s", codec_.seconds());
    metrics_("io_s", io_.seconds());
    metrics_("threads", settings_.threads);
}

void blosc_reader::read(void* data, std::uint64_t count) {
    failure_.rethrow();
    if (closed_) throw sdk::error(FB_E_STATE, "blosc: read from '" + file_.path() + "' after close");
    failure_.run([&] { read_unguarded(static_cast<unsigned char*>(data), count * settings_.element_size); },
                 "blosc: ", "reading", file_.path());
}

void blosc_reader::read_unguarded(unsigned char* out, std::uint64_t bytes) {
    if (bytes == 0) return;
    const std::size_t es = settings_.element_size;
    if (bytes > payload_ - delivered_)
        throw sdk::error(FB_E_TRUNCATED, "blosc: reading " + std::to_string(bytes / es) + " elements from '" +
                                             file_.path() + "' goes past the " +
                                             std::to_string(header_.count) + " it holds (" +
                                             std::to_string(delivered_ / es) + " read before)");
    while (bytes > 0) {
        if (plain_pos_ < plain_size_) {
            const std::size_t k =
                static_cast<std::size_t>(std::min<std::uint64_t>(plain_size_ - plain_pos_, bytes));
            std::memcpy(out, plain_.data() + plain_pos_, k);
            plain_pos_ += k;
            out += k;
            bytes -= k;
            delivered_ += k;
            continue;
        }
        const std::size_t nbytes =
            static_cast<std::size_t>(std::min<std::uint64_t>(header_.chunk_bytes, payload_ - decoded_));
        load_chunk(nbytes);
        if (bytes >= nbytes) {
            decompress_chunk(out, nbytes);
            out += nbytes;
            bytes -= nbytes;
            delivered_ += nbytes;
            continue;
        }
        // Made once the chunk has passed its checks: at most one chunk, and
        // at most the payload the host asked for.
        if (plain_.size() < nbytes)
            plain_ =
                byte_buffer(static_cast<std::size_t>(std::min<std::uint64_t>(header_.chunk_bytes, payload_)));
        decompress_chunk(plain_.data(), nbytes);
        plain_pos_ = 0;
        plain_size_ = nbytes;
    }
}

std::string blosc_reader::where() const {
    return "chunk " + std::to_string(chunk_index_) + " of " + std::to_string(header_.chunk_count);
}

void blosc_reader::load_chunk(std::size_t nbytes) {
    const std::size_t cbytes = next_cbytes_;
    if (cbytes < BLOSC_MIN_HEADER_LENGTH || cbytes > nbytes + BLOSC_MAX_OVERHEAD)
        corrupt(where() + " has a length of " + std::to_string(cbytes) +
                " bytes, impossible for a Blosc chunk of " + std::to_string(nbytes) + " bytes");
    if (file_size_ != UINT64_MAX && (offset_ > file_size_ || cbytes > file_size_ - offset_))
        truncated(where() + " (" + std::to_string(cbytes) + " bytes at byte " + std::to_string(offset_) +
                  ") goes past the end of the file");
    const bool last = chunk_index_ + 1 == header_.chunk_count;
    // The chunk and the next chunk's length; after the last chunk one byte
    // more, which must not be there.
    const std::size_t want = cbytes + (last ? 1 : prefix_bytes);
    if (packed_.size() < want) {
        std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(header_.chunk_bytes, payload_) +
                                                    BLOSC_MAX_OVERHEAD + prefix_bytes);
        if (file_size_ != UINT64_MAX)
            size = static_cast<std::size_t>(std::min<std::uint64_t>(size, file_size_));
        packed_ = byte_buffer(std::max(size, want));
    }
    const std::size_t got = io_.time([&] { return file_.read_full(packed_.data(), want); });
    if (got < cbytes)
        truncated(where() + " ends after " + std::to_string(got) + " of its " + std::to_string(cbytes) +
                  " bytes");
    if (last && got > cbytes)
        corrupt("bytes follow its last chunk at byte " + std::to_string(offset_ + cbytes));
    if (!last && got < want) truncated("it ends after " + where() + ", before the next chunk's length");
    const unsigned char* c = packed_.data();
    std::size_t header_nbytes = 0, header_cbytes = 0, blocksize = 0;
    if (blosc_cbuffer_validate(c, cbytes, &header_nbytes) != 0)
        corrupt(where() + " is not a valid Blosc chunk (blosc_cbuffer_validate)");
    blosc_cbuffer_sizes(c, &header_nbytes, &header_cbytes, &blocksize);
    if (header_nbytes != nbytes)
        corrupt(where() + " decodes to " + std::to_string(header_nbytes) +
                " bytes, its place in the file to " + std::to_string(nbytes));
    if (header_cbytes != cbytes || blocksize == 0 || blocksize > nbytes)
        corrupt(where() + " has an impossible Blosc header (" + std::to_string(header_cbytes) +
                " bytes, blocks of " + std::to_string(blocksize) + ")");
    loaded_ = cbytes;
}

void blosc_reader::decompress_chunk(unsigned char* dest, std::size_t nbytes) {
    const unsigned char* c = packed_.data();
    const int r = codec_.time([&] { return blosc_decompress_ctx(c, dest, nbytes, settings_.threads); });
    if (r < 0 || static_cast<std::size_t>(r) != nbytes)
        corrupt(where() + " does not decode (Blosc returned " + std::to_string(r) + ")");
    if (chunk_index_ + 1 < header_.chunk_count) next_cbytes_ = get_le32(c + loaded_);
    offset_ += loaded_ + prefix_bytes;
    ++chunk_index_;
    decoded_ += nbytes;
}

void blosc_reader::corrupt(const std::string& what) const {
    throw sdk::error(FB_E_CORRUPT, "blosc: '" + file_.path() + "' is damaged: " + what +
                                       "; write it again or read another file");
}

void blosc_reader::truncated(const std::string& what) const {
    throw sdk::error(FB_E_TRUNCATED, "blosc: '" + file_.path() + "' is truncated: " + what);
}

} // namespace formatbench::detail

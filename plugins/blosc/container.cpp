// The blosc plugin's container header; see container.hpp.
#include "container.hpp"

#include "settings.hpp"

#include <cstring>

namespace formatbench::detail {

namespace {

std::uint64_t get_le64(const unsigned char* b) noexcept {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | b[i];
    return v;
}

void put_le64(unsigned char* b, std::uint64_t v) noexcept {
    for (int i = 0; i < 8; ++i)
        b[i] = static_cast<unsigned char>(v >> (8 * i));
}

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
    throw sdk::error(FB_E_CORRUPT, "blosc: '" + path + "' is not a valid blosc plugin file (" + what +
                                       "); was it written by this plugin?");
}

} // namespace

void encode_header(const container_header& h, unsigned char out[header_bytes]) noexcept {
    std::memcpy(out, container_magic, sizeof container_magic);
    put_le32(out + 8, container_version);
    out[12] = static_cast<unsigned char>(h.dtype);
    out[13] = static_cast<unsigned char>(fb_dtype_size(h.dtype));
    out[14] = 0;
    out[15] = 0;
    put_le64(out + 16, h.count);
    put_le64(out + 24, h.chunk_bytes);
    put_le64(out + 32, h.chunk_count);
}

container_header decode_header(const unsigned char* b, std::size_t n, const std::string& path) {
    const std::size_t m = n < sizeof container_magic ? n : sizeof container_magic;
    if (std::memcmp(b, container_magic, m) != 0)
        corrupt(path, "it does not start with the magic 'FBBLOSC\\n'");
    if (n == 0) throw sdk::error(FB_E_TRUNCATED, "blosc: '" + path + "' is empty: the header is missing");
    if (n < header_bytes)
        throw sdk::error(FB_E_TRUNCATED, "blosc: '" + path + "' ends inside its " +
                                             std::to_string(header_bytes) + "-byte header (" +
                                             std::to_string(n) + " bytes)");
    const std::uint32_t version = get_le32(b + 8);
    if (version != container_version)
        throw sdk::error(FB_E_UNSUPPORTED, "blosc: '" + path + "' is container version " +
                                               std::to_string(version) + "; this plugin reads version " +
                                               std::to_string(container_version) +
                                               " (a newer plugin may read it)");
    container_header h;
    const unsigned code = b[12];
    if (code < FB_DTYPE_F64 || code > FB_DTYPE_U8)
        corrupt(path, "unknown dtype code " + std::to_string(code));
    h.dtype = static_cast<fb_dtype>(code);
    const std::size_t es = fb_dtype_size(h.dtype);
    if (b[13] != es)
        corrupt(path, "element size " + std::to_string(b[13]) + " for dtype " + sdk::dtype_name(h.dtype));
    if (b[14] != 0 || b[15] != 0) corrupt(path, "reserved header bytes 14-15 are not zero");
    h.count = get_le64(b + 16);
    h.chunk_bytes = get_le64(b + 24);
    h.chunk_count = get_le64(b + 32);
    if (h.count > UINT64_MAX / es) corrupt(path, "a count of " + std::to_string(h.count) + " elements");
    if (h.chunk_bytes == 0 || h.chunk_bytes % es != 0 || h.chunk_bytes > max_chunk_bytes)
        corrupt(path, "a chunk size of " + std::to_string(h.chunk_bytes) + " bytes (whole " +
                          sdk::dtype_name(h.dtype) + " values, at most " + std::to_string(max_chunk_bytes) +
                          ", are allowed)");
    const std::uint64_t want = chunks_for(h.count * es, h.chunk_bytes);
    if (h.chunk_count != want)
        corrupt(path, "its header gives " + std::to_string(h.chunk_count) + " chunks where " +
                          std::to_string(h.count) + " elements in chunks of " +
                          std::to_string(h.chunk_bytes) + " bytes need " + std::to_string(want));
    return h;
}

} // namespace formatbench::detail

// The zstd plugin's frame index: its seek table written and read, or the
// frame and block headers walked; see zstd_frame_index.hpp.
#include "zstd_frame_index.hpp"

#include <formatbench/plugin.hpp>

#define ZSTD_STATIC_LINKING_ONLY // ZSTD_getFrameHeader, ZSTD_BLOCKSIZE_MAX
#include <zstd.h>

#include <algorithm>

namespace formatbench::detail {

namespace {

constexpr std::uint32_t skippable_seek_table_magic = 0x184D2A5Eu;
constexpr std::uint32_t seekable_magic = 0x8F92EAB1u;
constexpr std::size_t footer_bytes = 9;
constexpr std::size_t skippable_header_bytes = 8;
constexpr unsigned char checksum_flag = 0x80, reserved_bits = 0x7c;

std::uint32_t le32(const unsigned char* b) {
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
           std::uint32_t(b[3]) << 24;
}

void put_le32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

class index_reader {
public:
    index_reader(sdk::file& file, std::uint64_t size, time_total& io, zstd_frame_index& index)
        : file_(file), size_(size), io_(io), index_(index) {}

    // Reads n bytes at `at`; fewer only where the file ends.
    std::size_t read(void* data, std::size_t n, std::uint64_t at) {
        if (at >= size_) return 0;
        n = static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - at));
        const std::size_t got = io_.time([&] { return file_.read_full_at(data, n, at); });
        ++index_.header_reads;
        index_.bytes_read += got;
        return got;
    }

    // The seek table, when the file ends in a valid one.
    bool seek_table() {
        if (size_ < skippable_header_bytes + footer_bytes) return false;
        unsigned char footer[footer_bytes];
        if (read(footer, footer_bytes, size_ - footer_bytes) < footer_bytes) return false;
        if (le32(footer + 5) != seekable_magic || (footer[4] & reserved_bits) != 0) return false;
        const std::uint64_t frames = le32(footer);
        const std::uint64_t entry = (footer[4] & checksum_flag) ? 12 : 8;
        const std::uint64_t table = skippable_header_bytes + frames * entry + footer_bytes;
        if (table > size_) return false;
        // The skippable header and the entries, in one read.
        std::vector<unsigned char> b(static_cast<std::size_t>(table - footer_bytes));
        if (read(b.data(), b.size(), size_ - table) < b.size()) return false;
        if (le32(b.data()) != skippable_seek_table_magic ||
            le32(b.data() + 4) != table - skippable_header_bytes)
            return false;
        std::uint64_t at = 0, payload = 0;
        std::vector<zstd_frame> list;
        for (std::uint64_t i = 0; i < frames; ++i) {
            const unsigned char* e = b.data() + skippable_header_bytes + i * entry;
            const std::uint64_t c = le32(e), d = le32(e + 4);
            if (d > 0) list.push_back({at, c, payload, d});
            at += c;
            payload += d;
        }
        // The frames fill the file up to the table, or the table is not this file's.
        if (at != size_ - table) return false;
        index_.frames = std::move(list);
        index_.payload_bytes = payload;
        index_.from_seek_table = true;
        return true;
    }

    // Every frame's header, and each of its blocks' headers.
    void walk(const std::string& path) {
        index_.frames.clear();
        index_.payload_bytes = 0;
        std::uint64_t at = 0;
        while (at < size_) {
            unsigned char h[ZSTD_FRAMEHEADERSIZE_MAX];
            const std::size_t got = read(h, sizeof h, at);
            if (got < 4) truncated(path, at, "inside a frame's magic number");
            const std::uint32_t magic = le32(h);
            if ((magic & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START) {
                if (got < skippable_header_bytes) truncated(path, at, "inside a skippable frame's header");
                at += skippable_header_bytes + le32(h + 4);
                if (at > size_) truncated(path, at, "inside a skippable frame");
                continue;
            }
            if (magic != ZSTD_MAGICNUMBER)
                corrupt(path, at, "no zstd or skippable frame starts there (magic 28 b5 2f fd)");
            ZSTD_frameHeader fh{};
            const std::size_t rc = ZSTD_getFrameHeader(&fh, h, got);
            if (ZSTD_isError(rc))
                corrupt(path, at, std::string("invalid frame header: ") + ZSTD_getErrorName(rc));
            if (rc > 0) truncated(path, at, "inside a frame header");
            if (fh.dictID != 0)
                throw sdk::error(FB_E_UNSUPPORTED, "zstd: the frame at byte " + std::to_string(at) + " of '" +
                                                       path + "' needs dictionary " +
                                                       std::to_string(fh.dictID));
            if (fh.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN)
                throw sdk::error(
                    FB_E_UNSUPPORTED,
                    "zstd: read-at on '" + path + "': the frame at byte " + std::to_string(at) +
                        " has no content size in its header (zstd from a pipe, --no-content-size), so "
                        "where its values lie is unknown without decoding it; write the file with this "
                        "plugin and frames: independent (it adds a seek table), or with zstd from a file");
            const std::uint64_t start = at;
            at += fh.headerSize;
            for (bool last = false; !last;) {
                unsigned char bh[3];
                if (read(bh, 3, at) < 3) truncated(path, at, "inside a block header");
                const std::uint32_t v =
                    std::uint32_t(bh[0]) | std::uint32_t(bh[1]) << 8 | std::uint32_t(bh[2]) << 16;
                last = v & 1;
                const unsigned type = (v >> 1) & 3;
                const std::uint64_t block = v >> 3;
                if (type == 3) corrupt(path, at, "a block of the reserved type 3");
                if (block > ZSTD_BLOCKSIZE_MAX)
                    corrupt(path, at,
                            "a block of " + std::to_string(block) + " bytes, more than zstd's 128 KiB");
                at += 3 + (type == 1 ? 1 : block); // an RLE block holds one byte
                if (at > size_) truncated(path, at, "inside a block");
            }
            if (fh.checksumFlag) at += 4;
            if (at > size_) truncated(path, at, "inside a frame's checksum");
            if (fh.frameContentSize > UINT64_MAX - index_.payload_bytes)
                corrupt(path, start, "frame content sizes that add up to more than 2^64 bytes");
            if (fh.frameContentSize > 0)
                index_.frames.push_back({start, at - start, index_.payload_bytes, fh.frameContentSize});
            index_.payload_bytes += fh.frameContentSize;
        }
    }

private:
    [[noreturn]] static void truncated(const std::string& path, std::uint64_t at, const std::string& where) {
        throw sdk::error(FB_E_TRUNCATED, "zstd: '" + path + "' is truncated: it ends " + where + " (byte " +
                                             std::to_string(at) + ")");
    }
    [[noreturn]] static void corrupt(const std::string& path, std::uint64_t at, const std::string& what) {
        throw sdk::error(FB_E_CORRUPT, "zstd: '" + path + "' is not a valid zstd file (" + what +
                                           ", at byte " + std::to_string(at) + ")");
    }

    sdk::file& file_;
    std::uint64_t size_;
    time_total& io_;
    zstd_frame_index& index_;
};

} // namespace

std::size_t zstd_frame_index::frame_of(std::uint64_t at) const noexcept {
    // The last frame whose payload starts at or before `at`.
    auto it = std::upper_bound(frames.begin(), frames.end(), at,
                               [](std::uint64_t v, const zstd_frame& f) { return v < f.payload_offset; });
    return static_cast<std::size_t>(it - frames.begin()) - 1;
}

std::vector<unsigned char>
encode_seek_table(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& frames,
                  const std::string& path) {
    constexpr std::uint64_t most = 0xffffffffu;
    const std::uint64_t body = frames.size() * 8 + footer_bytes;
    if (frames.size() > most || body > most)
        throw sdk::error(FB_E_UNSUPPORTED, "zstd: " + std::to_string(frames.size()) +
                                               " frames do not fit a seek table; write '" + path +
                                               "' with a larger frame_size, or seek_table: false");
    std::vector<unsigned char> out;
    out.reserve(static_cast<std::size_t>(skippable_header_bytes + body));
    put_le32(out, skippable_seek_table_magic);
    put_le32(out, static_cast<std::uint32_t>(body));
    for (const auto& [compressed, decompressed] : frames) {
        if (compressed > most || decompressed > most)
            throw sdk::error(FB_E_INTERNAL,
                             "zstd: a frame of '" + path + "' does not fit a seek table entry");
        put_le32(out, static_cast<std::uint32_t>(compressed));
        put_le32(out, static_cast<std::uint32_t>(decompressed));
    }
    put_le32(out, static_cast<std::uint32_t>(frames.size()));
    out.push_back(0); // no checksums: the frames hold their own (option checksum)
    put_le32(out, seekable_magic);
    return out;
}

zstd_frame_index build_frame_index(sdk::file& file, std::uint64_t file_size, time_total& io) {
    zstd_frame_index index;
    index_reader reader(file, file_size, io, index);
    if (!reader.seek_table()) reader.walk(file.path());
    for (const zstd_frame& f : index.frames)
        index.largest_frame = std::max(index.largest_frame, f.payload);
    return index;
}

} // namespace formatbench::detail

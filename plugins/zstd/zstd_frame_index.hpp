// Where the zstd plugin's random access (formatbench.read-at/1, frames:
// independent) finds an element: a table of the file's frames, each with
// its place in the file and in the payload. Two sources:
//  - the seek table the writer appends (option seek_table), in the layout
//    of zstd's seekable format (contrib/seekable_format in the zstd
//    sources): a skippable frame (magic 0x184D2A5E, which zstd -d and every
//    zstd decoder skip) of one entry per frame (compressed size,
//    decompressed size; 4 bytes each, little-endian), then the footer:
//    number of frames (4 bytes), descriptor (1 byte, bit 7 a per-entry
//    checksum, bits 2..6 reserved, zero), magic 0x8F92EAB1. Reading it is
//    two small preads at open.
//  - for a file without one (zstd or pzstd output, concatenated .zst
//    files, seek_table: false), the frame and block headers, walked from
//    the start with one small pread per frame header and per block header
//    (3 bytes): the compressed data itself is not read. Each frame must
//    then hold its content size in its header (zstd from a pipe and
//    --no-content-size leave it out).
// A seek table whose sizes do not add up to the file is not trusted: the
// headers are walked instead, so the index is right whichever source it
// came from.
#pragma once

#include "common/time_total.hpp"

#include <formatbench/posix_file.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace formatbench::detail {

struct zstd_frame {
    std::uint64_t file_offset = 0;    // its first byte in the file
    std::uint64_t compressed = 0;     // its bytes in the file
    std::uint64_t payload_offset = 0; // content bytes in the frames before it
    std::uint64_t payload = 0;        // its content bytes (> 0: empty frames are left out)
};

struct zstd_frame_index {
    std::vector<zstd_frame> frames; // in file order; skippable and empty frames left out
    std::uint64_t payload_bytes = 0;
    std::uint64_t largest_frame = 0; // payload bytes of the largest frame
    bool from_seek_table = false;
    std::uint64_t header_reads = 0; // preads made to build it
    std::uint64_t bytes_read = 0;   // bytes they read

    // The frame that holds payload byte `at` (< payload_bytes).
    std::size_t frame_of(std::uint64_t at) const noexcept;
};

// The seek table frame for frames of (compressed, decompressed) sizes, as
// described above (no checksums). Throws FB_E_UNSUPPORTED when a size or
// the frame count does not fit its 32 bits, naming `path`.
std::vector<unsigned char>
encode_seek_table(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& frames,
                  const std::string& path);

// The index of `file` (file_size bytes): its seek table when it has a valid
// one, else its headers walked. `io` gets the time inside pread. Throws
// sdk::error naming the path: FB_E_CORRUPT for a header that is not zstd's,
// FB_E_TRUNCATED for a file that ends inside a frame, FB_E_UNSUPPORTED for
// a frame without a content size or with a dictionary.
zstd_frame_index build_frame_index(sdk::file& file, std::uint64_t file_size, time_total& io);

} // namespace formatbench::detail

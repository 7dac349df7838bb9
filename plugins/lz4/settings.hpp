// The lz4 plugin's options, parsed once per stream into plain values, and
// the words of its file messages. The declarations (names, defaults, ranges,
// help) live in lz4.cpp.
#pragma once

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <lz4frame.h>

#include <cstddef>

namespace formatbench::detail {

// "lz4: cannot write '/tmp/a.lz4': No space left on device".
inline constexpr sdk::file_wording lz4_wording{.prefix = "lz4: "};

struct lz4_settings {
    int level = 0; // LZ4F compressionLevel: < 0 accelerated, 0..2 fast, 3..12 HC
    LZ4F_blockSizeID_t block_size_id = LZ4F_max4MB;
    bool block_independent = true;
    bool content_checksum = true;
    bool block_checksum = false;
    bool shuffle = false;
    std::size_t element_size = 0;

    // The frame preferences for these settings; content_size 0 means none
    // in the header (LZ4F's convention: 0 is "unknown").
    LZ4F_preferences_t preferences(unsigned long long content_size) const noexcept;
};

lz4_settings parse_settings(const sdk::open_request& request);

// Bytes of one block for a block-size id: 64 KiB, 256 KiB, 1 MiB, 4 MiB.
std::size_t block_bytes(LZ4F_blockSizeID_t id) noexcept;

} // namespace formatbench::detail

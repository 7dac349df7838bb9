// lz4: compresses the array into one LZ4 frame (the LZ4 frame format,
// lz4frame.h). The plain file (no shuffle) is what the `lz4` command would
// make of the array's native bytes with the same settings: `lz4 -dc FILE`
// gives them back. See lz4_writer.hpp, lz4_reader.hpp and README.md.
#include "lz4_reader.hpp"
#include "lz4_writer.hpp"

#include <formatbench/plugin.hpp>

#include <lz4hc.h>

namespace formatbench::detail {

namespace sdk = formatbench::sdk;

struct lz4_format {
    static constexpr const char* block_sizes[] = {"64KiB", "256KiB", "1MiB", "4MiB", nullptr};

    static constexpr fb_option_decl options[] = {
        // Below 0, lz4frame's acceleration is 1 - level, up to lz4's limit
        // of 65537 (LZ4_ACCELERATION_MAX in lz4.c).
        sdk::option_int("level", "0", -65536, LZ4HC_CLEVEL_MAX,
                        "0..2: LZ4 fast (the lz4 default); 3..12: LZ4 HC (lz4 -3 .. -12, slower, smaller); "
                        "-N: accelerated fast mode, as lz4 --fast=N (faster, larger)"),
        sdk::option_choice("block_size", "4MiB", block_sizes,
                           "LZ4 frame block size (lz4 -B4 .. -B7); with shuffle also the shuffled unit"),
        sdk::option_bool("block_independent", "true",
                         "independent blocks, as the lz4 command writes (false: linked blocks, lz4 -BD, "
                         "which match into the previous 64 KiB: smaller, and only decodable in order)"),
        sdk::option_bool("content_checksum", "true",
                         "XXH32 of the content at the end of the frame, as the lz4 command writes; the "
                         "reader verifies it"),
        sdk::option_bool("block_checksum", "false",
                         "XXH32 of each compressed block (lz4 -BX); the reader verifies it"),
        // With shuffle the file is still a valid LZ4 frame, but it no
        // longer decompresses to the plain array: each block of block_size
        // bytes (the last one shorter) is byte-transposed (byte j of element
        // i at j * n + i, n = elements in the block) before compression.
        // The reader takes the block size from the frame header.
        sdk::option_bool("shuffle", "false",
                         "byte-shuffle each block before compressing, as Blosc does (better ratio on "
                         "floats); lz4 -d then gives the shuffled bytes, no longer the plain array: read "
                         "it back with this plugin and shuffle=true"),
    };

    static sdk::plugin_info info() {
        return {
            "lz4",          "1.0.0", "one LZ4 frame of the array (lz4 -dc reads it), optional byte shuffle",
            "MIT",          "lz4",   FB_DTYPES_ALL,
            FB_CAP_LOSSLESS};
    }

    using writer = lz4_writer;
    using reader = lz4_reader;
};

} // namespace formatbench::detail

FORMATBENCH_PLUGIN(formatbench::detail::lz4_format)

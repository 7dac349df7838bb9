// zlib: compresses the array with zlib's deflate into a zlib (RFC 1950),
// gzip (RFC 1952) or raw deflate (RFC 1951) stream. The plain file (no
// shuffle) is an ordinary stream of the array's native bytes: zlib's
// uncompress, gzip -dc or Python's zlib read it back. Options add Blosc's
// byte shuffle and pigz-style parallel compression; see zlib_writer.hpp,
// zlib_reader.hpp, parallel_deflate.hpp and common/shuffle.hpp.
#include "zlib_reader.hpp"
#include "zlib_writer.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench::detail {

namespace sdk = formatbench::sdk;

struct zlib_format {
    static constexpr const char* containers[] = {"zlib", "gzip", "deflate", nullptr};
    static constexpr const char* strategies[] = {"default", "filtered", "huffman", "rle", "fixed", nullptr};

    static constexpr fb_option_decl options[] = {
        sdk::option_choice("container", "zlib", containers,
                           "zlib (RFC 1950, adler32), gzip (RFC 1952, crc32; gzip -dc reads it) or deflate "
                           "(raw RFC 1951, no header and no checksum)"),
        sdk::option_int("level", "6", 0, 9, "deflate level: 0 stores, 1 fastest, 9 smallest"),
        sdk::option_choice("strategy", "default", strategies,
                           "deflate strategy: default, filtered, huffman (Huffman only), rle or fixed "
                           "(fixed Huffman codes)"),
        sdk::option_int("mem_level", "8", 1, 9, "deflate memLevel: memory for the match state (9 = most)"),
        // With shuffle the file is still a valid zlib/gzip/deflate stream,
        // but it no longer decompresses to the plain array: it holds the
        // array cut into blocks of block_size bytes (rounded down to whole
        // elements; the last block is shorter), each block byte-transposed
        // (byte j of element i at j * n + i, n = elements in the block).
        // Only a reader that knows the element size and block_size, such as
        // this plugin with the writer's options, gets the array back.
        sdk::option_bool("shuffle", "false",
                         "byte-shuffle each block of elements before deflate, as Blosc does (better ratio "
                         "and speed on floats); the stream then no longer holds the plain array: only "
                         "this plugin with the same block_size reads it back"),
        sdk::option_int("threads", "1", 1, 64,
                        "compress blocks of block_size on this many threads and join them into one "
                        "standard stream (the pigz technique); the reader is single-threaded"),
        // 1M (measured, float64, level 6): per-block CPU cost is flat from
        // 128k up; shuffled smooth data compresses 5% better than at 128k
        // (ratio 1.58 vs 1.50); 10^6 doubles still make 8 parallel blocks.
        sdk::option_size("block_size", "1MiB", 64, 64.0 * 1024 * 1024,
                         "bytes per block for shuffle and threads, rounded down to whole elements; "
                         "with shuffle the reader needs the writer's value"),
    };

    static sdk::plugin_info info() {
        return {"zlib",
                "1.0.0",
                "zlib/gzip/deflate stream of the array, optional byte shuffle and parallel compression",
                "MIT",
                "zz",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS};
    }

    using writer = zlib_writer;
    using reader = zlib_reader;
};

} // namespace formatbench::detail

FORMATBENCH_PLUGIN(formatbench::detail::zlib_format)

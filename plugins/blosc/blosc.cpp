// blosc: the array as Blosc chunks (libblosc 1.x, blosc_compress_ctx) in a
// small container of this plugin's own: a header with dtype, count and
// chunk size, then each chunk behind its length, so that python-blosc's
// blosc.decompress() decodes every chunk as it is. See container.hpp,
// blosc_writer.hpp, blosc_reader.hpp and README.md.
#include "blosc_reader.hpp"
#include "blosc_writer.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench::detail {

namespace sdk = formatbench::sdk;

struct blosc_format {
    static constexpr const char* codecs[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd", nullptr};
    static constexpr const char* shuffles[] = {"none", "byte", "bit", nullptr};

    // Not constexpr: the threads' maximum is the number of CPUs this process
    // may run on when the library is loaded (sched_getaffinity).
    static inline const fb_option_decl options[] = {
        sdk::option_choice("codec", "blosclz", codecs,
                           "Blosc's compressor inside each block (blosclz is Blosc's default); the reader "
                           "takes it from each chunk"),
        sdk::option_int("level", "5", 0, 9,
                        "Blosc clevel: 0 stores the chunks uncompressed, 9 compresses most"),
        sdk::option_choice(
            "shuffle", "byte", shuffles,
            "Blosc's filter before the codec: none, byte (byte shuffle, Blosc's default) or bit "
            "(bitshuffle); the reader takes it from each chunk"),
        sdk::option_size(
            "block_size", "0", 0, 64.0 * 1024 * 1024,
            "Blosc's block inside a chunk, the unit its threads share out; 0: Blosc's choice from "
            "codec, level and element size; below 128 bytes Blosc takes 128"),
        sdk::option_int(
            "threads", "1", 0, usable_cpus(),
            "Blosc's threads per chunk (the *_ctx calls' numinternalthreads), writing and reading; "
            "at most the CPUs this process may run on (its sched_getaffinity set, the maximum here); 0: all "
            "of them"),
        sdk::option_size("chunk_size", "4MiB", 64, 1024.0 * 1024 * 1024,
                         "bytes per Blosc chunk, rounded down to whole elements (the last chunk is shorter); "
                         "the reader takes it from the header"),
    };

    static sdk::plugin_info info() {
        return {"blosc",
                "1.0.0",
                "Blosc chunks (blosclz, lz4, lz4hc, zlib, zstd; byte or bit shuffle; threads) in a small "
                "documented container that python-blosc reads",
                "MIT",
                "blosc",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    using writer = blosc_writer;
    using reader = blosc_reader;
};

} // namespace formatbench::detail

FORMATBENCH_PLUGIN(formatbench::detail::blosc_format)

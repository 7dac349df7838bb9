// zstd: compresses the array with Zstandard into one standard zstd frame
// (RFC 8878). The plain file (no shuffle) is exactly what `zstd` would make
// of the array's native bytes: `zstd -dc FILE` gives them back. Options add
// a byte shuffle, libzstd's worker threads (or independent frames on our
// own), long-distance matching and the window size. With independent
// frames the reader offers random access (formatbench.read-at/1) through a
// frame index (a seek table the writer appends, or the frame headers). See
// zstd_writer.hpp, zstd_frames.hpp, zstd_frame_index.hpp, zstd_reader.hpp
// and README.md.
#include "zstd_reader.hpp"
#include "zstd_writer.hpp"

#include <formatbench/plugin.hpp>

#define ZSTD_STATIC_LINKING_ONLY // ZSTD_WINDOWLOG_MAX
#include <zstd.h>

namespace formatbench::detail {

namespace sdk = formatbench::sdk;

struct zstd_format {
    static constexpr const char* frame_modes[] = {"one", "independent", nullptr};
    // Not constexpr: the level's range is the installed libzstd's
    // (ZSTD_minCLevel() is -131072 in 1.5, ZSTD_maxCLevel() 22).
    static inline const fb_option_decl options[] = {
        sdk::option_int("level", "3", ZSTD_minCLevel(), ZSTD_maxCLevel(),
                        "zstd level: 1..19, 20..22 (ultra: more memory), negative for faster modes down to "
                        "ZSTD_minCLevel(); 0 means libzstd's default (3)"),
        sdk::option_int(
            "threads", "0", 0, 64,
            "frames: one: libzstd worker threads (ZSTD_c_nbWorkers, zstd -T): 0 compresses on the "
            "calling thread; N >= 1 on N workers, still one frame. frames: independent: N frames "
            "are compressed at once (0 and 1: one). The reader is single-threaded"),
        sdk::option_choice("frames", "one", frame_modes,
                           "one: the file is one frame. independent: a sequence of independent frames of at "
                           "most frame_size bytes, compressed threads at a time with nothing copied (as "
                           "pzstd does; zstd -dc reads them as one stream); the reader needs it to accept "
                           "more than one frame"),
        sdk::option_size("frame_size", "8MiB", 64.0 * 1024, 1024.0 * 1024 * 1024,
                         "frames: independent: the most bytes per frame, rounded down to whole elements; "
                         "no frame refers to data before it, so a smaller size costs ratio"),
        sdk::option_bool("seek_table", "true",
                         "frames: independent: end the file with a seek table of the frames' sizes (zstd's "
                         "seekable format, in a skippable frame that zstd -d skips), so random reads "
                         "(read-at) find a frame with two small reads at open instead of walking every "
                         "frame's block headers; the reader uses it when present, whatever this says"),
        sdk::option_bool("checksum", "true",
                         "store the XXH64 content checksum in the frame, as the zstd command does; the "
                         "reader verifies it"),
        // With shuffle the file is still a valid zstd frame, but it no
        // longer decompresses to the plain array: it holds the array cut into
        // blocks of shuffle_block bytes (rounded down to whole elements; the
        // last block is shorter), each block byte-transposed (byte j of
        // element i at j * n + i, n = elements in the block).
        sdk::option_bool("shuffle", "false",
                         "byte-shuffle each block of shuffle_block bytes before compressing, as Blosc does "
                         "(better ratio on floats); zstd -d then gives the shuffled bytes, no longer the "
                         "plain array: only this plugin with the same shuffle_block reads it back"),
        sdk::option_size("shuffle_block", "1MiB", 64, 64.0 * 1024 * 1024,
                         "bytes per shuffled block, rounded down to whole elements; the reader needs the "
                         "writer's value"),
        sdk::option_bool("long", "false",
                         "long-distance matching (ZSTD_c_enableLongDistanceMatching, zstd --long): finds "
                         "repeats far back in a 2^27 window unless window_log sets another"),
        sdk::option_int("window_log", "0", 0, ZSTD_WINDOWLOG_MAX,
                        "log2 of the match window, 10 (1 KiB) to 31 (2 GiB); 0 = the level's choice. The "
                        "reader accepts windows up to 2^max(27, window_log): read a file made with zstd "
                        "--long=N, N > 27, with window_log=N"),
    };

    static sdk::plugin_info info() {
        return {"zstd",
                "1.0.0",
                "one Zstandard frame of the array (zstd -dc reads it), optional byte shuffle and threads",
                "MIT",
                "zst",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS};
    }

    // formatbench.check-case/1: a read at offsets needs independent
    // frames; with frames: one it is refused at plan, not at the first read.
    static void check_case(const sdk::options& o, const sdk::case_info& c) {
        if (c.access != FB_READ_WHOLE && o.get_string("frames") != "independent")
            throw sdk::error(FB_E_INVALID_OPTION,
                             "zstd: reading at offsets needs frames: independent: with frames: one the file "
                             "is a single zstd frame, which can only be decoded from its start; give the "
                             "format frames: independent (a frame_size such as 1MiB sets how much one read "
                             "decodes), or read it with access: whole");
    }

    using writer = zstd_writer;
    using reader = zstd_reader;
};

} // namespace formatbench::detail

FORMATBENCH_PLUGIN(formatbench::detail::zstd_format)

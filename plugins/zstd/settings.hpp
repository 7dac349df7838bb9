// The zstd plugin's options, parsed once per stream into plain values. The
// declarations (names, defaults, ranges, help) live in zstd.cpp; this file
// turns the checked option strings into what the writer and reader use.
#pragma once

#include <formatbench/plugin.hpp>

#include <zstd.h>

#include <cstddef>
#include <string>

namespace formatbench::detail {

// The largest window (log2 bytes) the reader accepts without being told:
// libzstd's own default limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT), which is also
// the zstd command's. A larger window_log option raises it.
inline constexpr int default_window_log_max = 27;

struct zstd_settings {
    int level = 3;
    // frames: one: ZSTD_c_nbWorkers. frames: independent: how many frames
    // are compressed at once (0 and 1: one, on the calling thread).
    int threads = 0;
    // frames: independent: the array as a sequence of independent frames,
    // each compressed on its own, so threads share out whole frames (as
    // pzstd does) and libzstd's multithreading copies nothing. The reader
    // then accepts any sequence of frames, skippable ones included.
    bool independent_frames = false;
    // The most content bytes per frame with independent frames, rounded
    // down to whole elements (at least one).
    std::size_t frame_bytes = 0;
    // frames: independent: end the file with a seek table (zstd's seekable
    // format, zstd_frame_index.hpp), which read-at uses to find a frame.
    bool seek_table = true;
    bool checksum = true;
    bool shuffle = false;
    // shuffle_block rounded down to whole elements (at least one): the unit
    // of the shuffle. Writer and reader derive it from the same options,
    // which is what makes the shuffled layout decodable.
    std::size_t shuffle_block_bytes = 0;
    bool long_matching = false;
    int window_log = 0; // 0: the level's choice
    std::size_t element_size = 0;

    // ZSTD_d_windowLogMax for the reader: max(default_window_log_max, window_log).
    int reader_window_log_max() const noexcept {
        return window_log > default_window_log_max ? window_log : default_window_log_max;
    }
};

// Throws sdk::error(FB_E_INVALID_OPTION) for a window_log of 1..9, which the
// declaration's range [0, 31] cannot exclude.
zstd_settings parse_settings(const sdk::open_request& request);

// Sets what every frame of a stream shares on a compression context: level,
// checksum, long-distance matching and window. Throws as check_compress.
void apply_frame_parameters(ZSTD_CCtx* c, const zstd_settings& s, const std::string& path);

} // namespace formatbench::detail

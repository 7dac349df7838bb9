// Option strings to zstd parameters; see settings.hpp.
#include "settings.hpp"

#include "zstd_errors.hpp"

#define ZSTD_STATIC_LINKING_ONLY // ZSTD_WINDOWLOG_MIN
#include <zstd.h>

#include <string>

namespace formatbench::detail {

zstd_settings parse_settings(const sdk::open_request& request) {
    const sdk::options& o = request.options;
    zstd_settings s;
    s.level = static_cast<int>(o.get_int("level"));
    s.threads = static_cast<int>(o.get_int("threads"));
    s.independent_frames = o.get_string("frames") == "independent";
    s.checksum = o.get_bool("checksum");
    s.seek_table = o.get_bool("seek_table");
    s.shuffle = o.get_bool("shuffle");
    s.long_matching = o.get_bool("long");
    s.window_log = static_cast<int>(o.get_int("window_log"));
    if (s.window_log != 0 && s.window_log < ZSTD_WINDOWLOG_MIN)
        throw sdk::error(FB_E_INVALID_OPTION,
                         "zstd: option 'window_log': " + std::to_string(s.window_log) +
                             " is below zstd's smallest window (" + std::to_string(ZSTD_WINDOWLOG_MIN) +
                             "); use 0 for the level's choice or a value in [" +
                             std::to_string(ZSTD_WINDOWLOG_MIN) + ", " + std::to_string(ZSTD_WINDOWLOG_MAX) +
                             "] (opening '" + request.path + "')");
    s.element_size = request.element_size();
    std::size_t block = static_cast<std::size_t>(o.get_size("shuffle_block"));
    block -= block % s.element_size;
    s.shuffle_block_bytes = block ? block : s.element_size;
    std::size_t frame = static_cast<std::size_t>(o.get_size("frame_size"));
    frame -= frame % s.element_size;
    s.frame_bytes = frame ? frame : s.element_size;
    return s;
}

void apply_frame_parameters(ZSTD_CCtx* c, const zstd_settings& s, const std::string& path) {
    check_compress(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, s.level), "setting the level", path);
    check_compress(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, s.checksum ? 1 : 0), "setting the checksum",
                   path);
    if (s.long_matching)
        check_compress(ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1),
                       "enabling long-distance matching", path);
    if (s.window_log != 0)
        check_compress(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, s.window_log), "setting the window log",
                       path);
}

} // namespace formatbench::detail

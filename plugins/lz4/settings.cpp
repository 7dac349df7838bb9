// Option strings to LZ4 frame preferences; see settings.hpp.
#include "settings.hpp"

#include <string>

namespace formatbench::detail {

lz4_settings parse_settings(const sdk::open_request& request) {
    const sdk::options& o = request.options;
    lz4_settings s;
    s.level = static_cast<int>(o.get_int("level"));
    const std::string& block = o.get_string("block_size");
    s.block_size_id = block == "64KiB"    ? LZ4F_max64KB
                      : block == "256KiB" ? LZ4F_max256KB
                      : block == "1MiB"   ? LZ4F_max1MB
                                        : LZ4F_max4MB;
    s.block_independent = o.get_bool("block_independent");
    s.content_checksum = o.get_bool("content_checksum");
    s.block_checksum = o.get_bool("block_checksum");
    s.shuffle = o.get_bool("shuffle");
    s.element_size = request.element_size();
    return s;
}

LZ4F_preferences_t lz4_settings::preferences(unsigned long long content_size) const noexcept {
    LZ4F_preferences_t p = LZ4F_INIT_PREFERENCES;
    p.frameInfo.blockSizeID = block_size_id;
    p.frameInfo.blockMode = block_independent ? LZ4F_blockIndependent : LZ4F_blockLinked;
    p.frameInfo.contentChecksumFlag = content_checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
    p.frameInfo.blockChecksumFlag = block_checksum ? LZ4F_blockChecksumEnabled : LZ4F_noBlockChecksum;
    p.frameInfo.contentSize = content_size;
    p.compressionLevel = level;
    // Every call's input is compressed at once, including a partial block:
    // the writer hands LZ4F whole blocks only, but for the last one, and
    // keeps partial blocks itself (see lz4_writer.hpp). As LZ4F_compressFrame
    // does: a tail left in LZ4F's own buffer would be copied there first.
    p.autoFlush = 1;
    return p;
}

std::size_t block_bytes(LZ4F_blockSizeID_t id) noexcept {
    switch (id) {
    case LZ4F_max64KB: return std::size_t{64} << 10;
    case LZ4F_max256KB: return std::size_t{256} << 10;
    case LZ4F_max1MB: return std::size_t{1} << 20;
    case LZ4F_max4MB: return std::size_t{4} << 20;
    default: return std::size_t{4} << 20; // LZ4F_default
    }
}

} // namespace formatbench::detail

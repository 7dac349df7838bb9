// libFuzzer target: the blosc plugin's writer and reader on arbitrary data
// (writer_driver.hpp): every codec, byte and bit shuffle, levels 0 to 9,
// a forced block size and 1 KiB chunks, so that chunks end anywhere.
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    // Bits 0-2 codec, 3-4 shuffle (the fourth: byte shuffle in forced
    // 256-byte blocks), 5-6 level, 7 chunk size.
    static const char* const codecs[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd", "blosclz", "lz4", "zstd"};
    static const char* const shuffles[] = {"none", "byte", "bit", "byte"};
    static const char* const levels[] = {"0", "1", "5", "9"};
    const unsigned s = c.selector;
    c.options = {{"codec", codecs[s & 7]},
                 {"shuffle", shuffles[(s >> 3) & 3]},
                 {"block_size", ((s >> 3) & 3) == 3 ? "256" : "0"},
                 {"level", levels[(s >> 5) & 3]},
                 {"chunk_size", (s & 0x80) ? "1KiB" : "4MiB"}};
}

const fuzz::writer_hooks hooks{"blosc", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

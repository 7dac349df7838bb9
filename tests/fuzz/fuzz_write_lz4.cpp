// libFuzzer target: the lz4 plugin's writer and reader on arbitrary data
// (writer_driver.hpp): fast, accelerated and HC levels, block sizes,
// dependent blocks, checksums, shuffle.
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const levels[] = {"0", "-8", "3", "9"};
    static const char* const blocks[] = {"64KiB", "256KiB", "1MiB", "4MiB"};
    c.options = {{"level", levels[c.selector & 3]},
                 {"block_size", blocks[(c.selector >> 2) & 3]},
                 {"block_independent", (c.selector & 0x10) ? "false" : "true"},
                 {"block_checksum", (c.selector & 0x20) ? "true" : "false"},
                 {"shuffle", (c.selector & 0x40) ? "true" : "false"}};
}

const fuzz::writer_hooks hooks{"lz4", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

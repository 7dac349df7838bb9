// libFuzzer target: the zlib plugin's writer and reader on arbitrary data
// (writer_driver.hpp): containers, levels, shuffle, threads, block sizes.
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const containers[] = {"zlib", "gzip", "deflate", "zlib"};
    static const char* const levels[] = {"0", "1", "6", "9"};
    static const char* const blocks[] = {"64", "1000", "4KiB", "128KiB"};
    c.options = {{"container", containers[c.selector & 3]},
                 {"level", levels[(c.selector >> 2) & 3]},
                 {"shuffle", (c.selector & 0x10) ? "true" : "false"},
                 {"threads", (c.selector & 0x20) ? "3" : "1"},
                 {"block_size", blocks[(c.selector >> 6) & 3]}};
}

const fuzz::writer_hooks hooks{"zlib", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

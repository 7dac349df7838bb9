// libFuzzer target: the zlib plugin's reader on arbitrary files (the
// plugin's sources are compiled into this executable). Options from the
// selector byte: container, shuffle, block_size (small, so the shuffle's
// block buffers stay small) and threads (valid, unused by the reader).
#include "reader_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    static const char* const containers[] = {"zlib", "gzip", "deflate"};
    static const char* const blocks[] = {"64", "1000", "4KiB", "128KiB"};
    c.options = {{"container", containers[c.selector % 3]},
                 {"shuffle", (c.selector & 0x04) ? "true" : "false"},
                 {"block_size", blocks[(c.selector >> 3) & 3]},
                 {"threads", (c.selector & 0x20) ? "4" : "1"}};
}

const fuzz::hooks zlib_hooks{"zlib", options, nullptr, nullptr, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(zlib_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

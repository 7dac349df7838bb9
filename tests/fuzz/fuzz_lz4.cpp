// libFuzzer target: the lz4 plugin's reader on arbitrary files (the
// plugin's sources are compiled into this executable). The selector byte's
// bit 0 sets shuffle, the only option the reader uses (the frame header
// gives it the rest).
#include "reader_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    c.options = {{"shuffle", (c.selector & 0x01) ? "true" : "false"}};
}

const fuzz::hooks lz4_hooks{"lz4", options, nullptr, nullptr, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(lz4_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

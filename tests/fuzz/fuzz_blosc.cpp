// libFuzzer target: the blosc plugin's reader on arbitrary files (the
// plugin's sources are compiled into this executable). The selector byte's
// bit 0 reads with Blosc threads on every CPU (threads: 0) instead of one, the only option the
// reader uses (the header and each chunk's Blosc header give it the rest).
#include "reader_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    c.options = {{"threads", (c.selector & 0x01) ? "0" : "1"}};
}

const fuzz::hooks blosc_hooks{"blosc", options, nullptr, nullptr, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(blosc_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

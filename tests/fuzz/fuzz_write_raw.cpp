// libFuzzer target: the raw plugin's writer and reader on arbitrary data,
// with every buffer size kind and byte order (writer_driver.hpp).
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const buffers[] = {"0", "1", "7", "4096"};
    static const char* const orders[] = {"native", "little", "big", "big"};
    c.options = {{"buffer_size", buffers[c.selector & 3]}, {"byte_order", orders[(c.selector >> 2) & 3]}};
}

const fuzz::writer_hooks hooks{"raw", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

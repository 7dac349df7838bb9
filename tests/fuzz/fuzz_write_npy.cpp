// libFuzzer target: the npy plugin's writer and reader on arbitrary data,
// with every format version and byte order (writer_driver.hpp).
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const versions[] = {"auto", "1", "2", "3"};
    static const char* const orders[] = {"native", "little", "big", "big"};
    c.options = {{"version", versions[c.selector & 3]}, {"byte_order", orders[(c.selector >> 2) & 3]}};
}

const fuzz::writer_hooks hooks{"npy", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

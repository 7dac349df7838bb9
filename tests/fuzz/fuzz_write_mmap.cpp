// libFuzzer target: the mmap plugin's writer and reader on arbitrary data
// (writer_driver.hpp), with its mapping options.
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const advice[] = {"normal", "sequential", "random", "hugepage"};
    c.options = {{"populate", (c.selector & 1) ? "true" : "false"},
                 {"advice", advice[(c.selector >> 1) & 3]},
                 {"sync_on_close", (c.selector & 8) ? "true" : "false"}};
}

const fuzz::writer_hooks hooks{"mmap", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

// libFuzzer target: the zfp plugin's reader on arbitrary files (the
// plugin's sources are compiled into this executable). The reader takes
// everything from the stream's header, so no options are set; the seeds
// are streams of every mode (corpus/zfp).
#include "reader_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    c.options = {};
}

const fuzz::hooks zfp_hooks{"zfp", options, nullptr, nullptr, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(zfp_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

// libFuzzer target: the zstd plugin's writer and reader on arbitrary data
// (writer_driver.hpp): levels (negative too), checksum, shuffle, threads,
// independent frames (the smallest frame_size, so that chunks collect in
// the batch and several frames are written).
#include "writer_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::writer_case& c) {
    static const char* const levels[] = {"-5", "1", "3", "9"};
    static const char* const blocks[] = {"64", "1000", "4KiB", "128KiB"};
    c.options = {{"level", levels[c.selector & 3]},
                 {"checksum", (c.selector & 0x04) ? "true" : "false"},
                 {"shuffle", (c.selector & 0x08) ? "true" : "false"},
                 {"shuffle_block", blocks[(c.selector >> 4) & 3]},
                 {"threads", (c.selector & 0x40) ? "2" : "0"},
                 {"frames", (c.selector & 0x80) ? "independent" : "one"},
                 {"frame_size", "64KiB"}};
}

const fuzz::writer_hooks hooks{"zstd", options, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_writer(hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

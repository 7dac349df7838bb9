// libFuzzer target: the zstd plugin's reader on arbitrary files (the
// plugin's sources are compiled into this executable). Options from the
// selector byte: shuffle, shuffle_block (small, so the shuffle's block
// buffers stay small), window_log (0 or 20: the reader's window limit
// stays 2^27, within the fuzzer's allocation limit) and frames (one or
// independent: a sequence of frames, skippable ones too).
#include "reader_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    static const char* const blocks[] = {"64", "1000", "4KiB", "128KiB"};
    c.options = {{"shuffle", (c.selector & 0x01) ? "true" : "false"},
                 {"shuffle_block", blocks[(c.selector >> 1) & 3]},
                 {"window_log", (c.selector & 0x08) ? "20" : "0"},
                 {"frames", (c.selector & 0x10) ? "independent" : "one"}};
}

const fuzz::hooks zstd_hooks{"zstd", options, nullptr, nullptr, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(zstd_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

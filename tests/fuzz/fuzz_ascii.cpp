// libFuzzer target: the ascii plugin's reader on arbitrary text (the
// plugin's sources are compiled into this executable). The write options
// (notation, leading_zero) do not change reading but are passed valid. A
// selector with its top three bits set repeats the text past 1 MiB and reads
// 65536 values, so the two-thread parser (and its helper thread) runs too.
#include "reader_driver.hpp"

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

bool big(const fuzz::reader_case& c) {
    return (c.selector & 0xe0) == 0xe0;
}

void shape_file(fuzz::reader_case& c) {
    if (!big(c) || c.file.empty()) return;
    std::string unit = c.file + "\n";
    std::string text;
    text.reserve((std::size_t{5} << 18) + unit.size());
    while (text.size() < (std::size_t{5} << 18)) // 1.25 MiB
        text += unit;
    c.file = std::move(text);
}

void options(fuzz::reader_case& c) {
    static const char* const notations[] = {"shortest", "fixed", "scientific", "general"};
    c.options = {{"notation", notations[c.selector & 3]},
                 {"leading_zero", (c.selector & 0x04) ? "false" : "true"}};
    if (big(c)) c.open_count = c.read_count = fuzz::max_elements;
}

const fuzz::hooks ascii_hooks{"ascii", options, shape_file, nullptr, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(ascii_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

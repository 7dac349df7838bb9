// libFuzzer target: the raw plugin's reader on arbitrary files (the plugin's
// sources are compiled into this executable). Options: buffer_size and
// byte_order. When every read succeeds, the values must be the file's
// bytes (swapped for byte_order=big on a little-endian machine).
#include "reader_driver.hpp"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    static const char* const buffers[] = {"0", "1", "7", "4k"};
    static const char* const orders[] = {"native", "little", "big"};
    c.options = {{"buffer_size", buffers[c.selector & 3]}, {"byte_order", orders[(c.selector >> 2) % 3]}};
}

void check(const fuzz::reader_case& c, const std::vector<unsigned char>& out) {
    const std::size_t es = fuzz::dtype_bytes(c.dtype);
    if (out.size() != c.read_count * es || out.size() > c.file.size()) {
        std::fprintf(stderr, "raw: read %zu bytes from a %zu-byte file\n", out.size(), c.file.size());
        std::abort();
    }
    const std::string& order = c.options[1].second;
    bool swap = es > 1 && ((order == "big" && std::endian::native == std::endian::little) ||
                           (order == "little" && std::endian::native == std::endian::big));
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::size_t j = swap ? (i / es) * es + (es - 1 - i % es) : i;
        if (out[i] != static_cast<unsigned char>(c.file[j])) {
            std::fprintf(stderr, "raw: byte %zu differs from the file\n", i);
            std::abort();
        }
    }
}

const fuzz::hooks raw_hooks{"raw", options, nullptr, check, nullptr};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(raw_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

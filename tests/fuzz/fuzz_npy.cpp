// libFuzzer target: the npy plugin's reader on arbitrary files (the plugin's
// sources, npy.cpp and header.cpp, are compiled into this executable): the
// preamble, the header dict parser, the shape and size checks, the reads and
// byte swaps. Options: version and byte_order (the reader ignores both).
// Input bit 0x20 of byte [1] also asks for the zero-copy view. When every
// read succeeds, the values are element-wise some bytes of the file.
#include "reader_driver.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    static const char* const versions[] = {"auto", "1", "2", "3"};
    static const char* const orders[] = {"native", "little", "big"};
    c.options = {{"version", versions[c.selector & 3]}, {"byte_order", orders[(c.selector >> 2) % 3]}};
}

void check(const fuzz::reader_case& c, const std::vector<unsigned char>& out) {
    // The data follows a header of at least 10 bytes plus "{}\n"-like text.
    if (out.size() != c.read_count * fuzz::dtype_bytes(c.dtype) || out.size() + 10 > c.file.size()) {
        std::fprintf(stderr, "npy: read %zu bytes from a %zu-byte file\n", out.size(), c.file.size());
        std::abort();
    }
}

void after_open(const fb_plugin_descriptor* d, fb_stream* s, const fuzz::reader_case& c) {
    if (!(c.mode & 0x20) || !d->get_extension) return;
    auto* ext = static_cast<const fb_ext_zero_copy_read_v1*>(d->get_extension(FB_EXT_ZERO_COPY_READ_V1));
    if (!ext) return;
    const void* view = nullptr;
    char err[FB_ERROR_BUFFER_MIN];
    if (ext->view(s, c.read_count, &view, err, sizeof err) == FB_OK) {
        // The view must lie inside the mapped file: touch every byte.
        const auto* p = static_cast<const unsigned char*>(view);
        unsigned sum = 0;
        for (std::size_t i = 0; i < c.read_count * fuzz::dtype_bytes(c.dtype); ++i)
            sum += p[i];
        if (sum == 0xdeadbeef) std::abort(); // keeps the loads
    }
}

const fuzz::hooks npy_hooks{"npy", options, nullptr, check, after_open};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(npy_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

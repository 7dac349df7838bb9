// libFuzzer target: the mmap plugin's reader on arbitrary files (the
// plugin's sources are compiled into this executable). Options: advice and
// populate; input bit 0x20 of byte [1] also asks for the zero-copy view.
// What is read (or viewed) must be the file's bytes.
#include "reader_driver.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t);

namespace {

void options(fuzz::reader_case& c) {
    static const char* const advices[] = {"normal", "sequential", "random", "willneed", "hugepage"};
    c.options = {{"advice", advices[c.selector % 5]}, {"populate", (c.selector & 0x80) ? "true" : "false"}};
}

void same_as_file(const fuzz::reader_case& c, const unsigned char* p, std::size_t n, const char* what) {
    if (n > c.file.size() || (n > 0 && std::memcmp(p, c.file.data(), n) != 0)) {
        std::fprintf(stderr, "mmap: %s of %zu bytes is not the %zu-byte file's\n", what, n, c.file.size());
        std::abort();
    }
}

void check(const fuzz::reader_case& c, const std::vector<unsigned char>& out) {
    if (out.size() != c.read_count * fuzz::dtype_bytes(c.dtype)) std::abort();
    same_as_file(c, out.data(), out.size(), "read");
}

void after_open(const fb_plugin_descriptor* d, fb_stream* s, const fuzz::reader_case& c) {
    if (!(c.mode & 0x20) || !d->get_extension) return;
    auto* ext = static_cast<const fb_ext_zero_copy_read_v1*>(d->get_extension(FB_EXT_ZERO_COPY_READ_V1));
    if (!ext) return;
    const void* view = nullptr;
    char err[FB_ERROR_BUFFER_MIN];
    if (ext->view(s, c.read_count, &view, err, sizeof err) == FB_OK)
        same_as_file(c, static_cast<const unsigned char*>(view), c.read_count * fuzz::dtype_bytes(c.dtype),
                     "view");
}

const fuzz::hooks mmap_hooks{"mmap", options, nullptr, check, after_open};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_reader(mmap_hooks, fb_plugin_entry(FB_ABI_MAJOR, FB_ABI_MINOR), data, size);
}

// Compile test: plugin.h and plugin.hpp build as C++20 on their own, with
// every warning as an error, and the C++ helper produces a valid descriptor.
#include <formatbench/plugin.h>
#include <formatbench/plugin.hpp>

namespace {
struct tiny {
    static formatbench::sdk::plugin_info info() {
        return {"tiny", "1", "d", "MIT", "", FB_DTYPES_ALL, FB_CAP_LOSSLESS};
    }
    struct writer {
        explicit writer(const formatbench::sdk::open_request&) {}
        void write(const void*, std::uint64_t) {}
        void close() {}
    };
    struct reader {
        explicit reader(const formatbench::sdk::open_request&) {}
        void read(void*, std::uint64_t) {}
        void close() {}
    };
};
} // namespace

int main() {
    const fb_plugin_descriptor* d = formatbench::sdk::detail::adapter<tiny>::descriptor();
    return d->magic == FB_PLUGIN_MAGIC && d->option_count == 0 && d->get_extension("x") == nullptr ? 0 : 1;
}

// Compile test: plugin.h, plugin.hpp and posix_file.hpp build as C++20 on
// their own, with every warning as an error; the C++ helper produces a valid
// descriptor and a file round-trips a few bytes.
#include <formatbench/plugin.h>
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstdlib>
#include <string>

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

// Writes "abc" to a new file, reads it back (asking for more), removes it.
bool file_round_trip() {
    namespace sdk = formatbench::sdk;
    const char* tmp = std::getenv("TMPDIR");
    std::string path =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/fb_sdk_header_cpp." + std::to_string(::getpid());
    {
        sdk::file out = sdk::file::create(path, {.prefix = "tiny: "});
        sdk::remove_on_failure guard(out);
        out.write_all("abc", 3);
        out.close();
        guard.commit();
        if (!out.created()) return false;
    }
    sdk::file in = sdk::file::open_read(path);
    char buf[8] = {};
    bool ok = in.status().st_size == 3 && in.read_full(buf, sizeof buf) == 3 && std::string(buf) == "abc";
    in.reset();
    ::unlink(path.c_str());
    return ok;
}
} // namespace

int main() {
    const fb_plugin_descriptor* d = formatbench::sdk::detail::adapter<tiny>::descriptor();
    bool descriptor_ok =
        d->magic == FB_PLUGIN_MAGIC && d->option_count == 0 && d->get_extension("x") == nullptr;
    return descriptor_ok && file_round_trip() ? 0 : 1;
}

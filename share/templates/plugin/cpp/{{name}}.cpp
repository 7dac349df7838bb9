// {{name}}: a formatbench format plugin in C++20, made by
// `formatbench new-plugin`. <formatbench/plugin.hpp> turns the class below
// into the C ABI of <formatbench/plugin.h> (one macro line at the end) and
// turns every exception into a status and message; <formatbench/posix_file.hpp>
// does the file plumbing (EINTR, short transfers, messages naming the path).
//
// The file format, {{name}}'s own: a 24-byte header, then the elements as
// they are in memory (the machine's byte order):
//   bytes  0-7   the magic "{{magic}}"
//   bytes  8-11  the format version, 1 (uint32)
//   bytes 12-15  the dtype, an fb_dtype value: 1 f64, 2 f32, 3 i64, 4 i32, 5 u8 (uint32)
//   bytes 16-23  the element count (uint64), written when the stream closes
// Replace it with your format and keep the error handling: every failure
// throws sdk::error with the status that says what happened and a message
// that names the path, and a reader checks everything it reads before it
// trusts it.
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <sys/stat.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;
using sdk::error;

constexpr std::string_view magic = "{{magic}}"; // 8 bytes
constexpr std::size_t header_size = 24;
constexpr std::size_t count_offset = 16;
constexpr std::uint32_t format_version = 1;

// Messages of the file helper: "{{name}}: cannot write '/dev/full': No space left on device".
constexpr sdk::file_wording wording{.prefix = "{{name}}: "};

std::array<unsigned char, header_size> make_header(fb_dtype dtype, std::uint64_t count) {
    std::array<unsigned char, header_size> h{};
    const auto type = static_cast<std::uint32_t>(dtype);
    std::memcpy(h.data(), magic.data(), magic.size());
    std::memcpy(h.data() + 8, &format_version, 4);
    std::memcpy(h.data() + 12, &type, 4);
    std::memcpy(h.data() + count_offset, &count, 8);
    return h;
}

// A dtype as the file stores it: any number, so not cast to fb_dtype unchecked.
const char* dtype_name(std::uint32_t type) {
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8})
        if (type == static_cast<std::uint32_t>(d)) return sdk::dtype_name(d);
    return "an unknown dtype";
}

// "{{name}}: cannot read '<path>': <why>" with the given status.
error read_error(fb_status status, const std::string& path, const std::string& why) {
    return error(status, "{{name}}: cannot read '" + path + "': " + why);
}

} // namespace

struct {{ident}}_format {
    // The one option. plugin.hpp checks what a study gives against it in
    // every open (FB_E_INVALID_OPTION before the file is touched);
    // formatbench checks it before a study runs, and
    // `formatbench describe {{name}}` shows it.
    static constexpr fb_option_decl options[] = {
        sdk::option_size(
            "buffer_size", "1MiB", 4096, 1073741824,
            "bytes the writer collects before each write(2); larger writes go straight to the file"),
    };

    static sdk::plugin_info info() {
        return {"{{name}}", "0.1.0",       "{{name}}: a 24-byte header, then the array as it is in memory",
                "MIT", // your plugin's license, as an SPDX expression
                "{{name}}", FB_DTYPES_ALL, FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    // open_write is the constructor, write and close the members. The SDK
    // calls close once for every writer it made, also after an error.
    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : dtype_(r.dtype), element_size_(r.element_size()), capacity_(r.options.get_size("buffer_size")) {
            buffer_.reserve(capacity_); // before the file exists: no memory, no file
            file_ = sdk::file::create(r.path, wording);
            // A failed open leaves nothing behind, and removes only what it created.
            sdk::remove_on_failure guard(file_);
            const auto header = make_header(dtype_, 0); // the true count is written at close
            file_.write_all(header.data(), header.size());
            guard.commit();
        }

        void write(const void* data, std::uint64_t count) {
            const auto* p = static_cast<const unsigned char*>(data);
            const std::size_t bytes = count * element_size_; // the data is in memory: it fits
            if (buffer_.size() + bytes > capacity_) flush();
            if (bytes >= capacity_)
                file_.write_all(p, bytes);
            else
                buffer_.insert(buffer_.end(), p, p + bytes);
            count_ += count;
        }

        void close() {
            flush();
            const auto header = make_header(dtype_, count_);
            file_.write_all_at(header.data() + count_offset, 8, count_offset);
            file_.close(); // reports a delayed write error (NFS, quotas)
        }

    private:
        void flush() {
            file_.write_all(buffer_.data(), buffer_.size());
            buffer_.clear();
        }

        fb_dtype dtype_;
        std::size_t element_size_;
        std::size_t capacity_;
        std::vector<unsigned char> buffer_;
        sdk::file file_;
        std::uint64_t count_ = 0;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : file_(sdk::file::open_read(r.path, wording)), element_size_(r.element_size()), count_(r.count) {
            std::array<unsigned char, header_size> h{};
            const std::size_t got = file_.read_full(h.data(), h.size());
            if (got == 0) throw read_error(FB_E_TRUNCATED, r.path, "the file is empty");
            if (got < header_size)
                throw read_error(FB_E_TRUNCATED, r.path, "the file ends inside its header");
            if (std::memcmp(h.data(), magic.data(), magic.size()) != 0)
                throw read_error(FB_E_CORRUPT, r.path, "not a {{name}} file (no {{magic}} magic)");
            std::uint32_t version = 0, type = 0;
            std::uint64_t stored = 0;
            std::memcpy(&version, h.data() + 8, 4);
            std::memcpy(&type, h.data() + 12, 4);
            std::memcpy(&stored, h.data() + count_offset, 8);
            if (version != format_version)
                throw read_error(FB_E_UNSUPPORTED, r.path,
                                 "format version " + std::to_string(version) +
                                     "; this plugin reads version " + std::to_string(format_version));
            if (type != static_cast<std::uint32_t>(r.dtype))
                throw read_error(FB_E_CORRUPT, r.path,
                                 std::string("the file holds ") + dtype_name(type) + ", not " +
                                     sdk::dtype_name(r.dtype));
            if (stored != r.count)
                throw read_error(stored < r.count ? FB_E_TRUNCATED : FB_E_CORRUPT, r.path,
                                 "the file holds " + std::to_string(stored) + " elements, " +
                                     std::to_string(r.count) + " were asked for");
            const struct stat st = file_.status();
            if (!S_ISREG(st.st_mode)) return; // a pipe or device has no size to check
            if (stored > (UINT64_MAX - header_size) / element_size_)
                throw read_error(FB_E_CORRUPT, r.path, "the header's count is impossibly large");
            const std::uint64_t want = header_size + stored * element_size_;
            const auto size = static_cast<std::uint64_t>(st.st_size);
            if (size != want)
                throw read_error(size < want ? FB_E_TRUNCATED : FB_E_CORRUPT, r.path,
                                 "the file has " + std::to_string(size) + " bytes, its header says " +
                                     std::to_string(want));
        }

        // Fills data with exactly count elements, or throws: never a partial read.
        void read(void* data, std::uint64_t count) {
            if (count > count_ - done_)
                throw read_error(FB_E_TRUNCATED, file_.path(),
                                 "more elements were asked for than the file holds");
            const std::size_t bytes = count * element_size_;
            if (file_.read_full(data, bytes) < bytes)
                throw read_error(FB_E_TRUNCATED, file_.path(), "the file ends before its data");
            done_ += count;
        }

        void close() { file_.reset(); }

    private:
        sdk::file file_;
        std::size_t element_size_;
        std::uint64_t count_; // elements in the file
        std::uint64_t done_ = 0;
    };
};

// The one exported symbol, fb_plugin_entry.
FORMATBENCH_PLUGIN({{ident}}_format)

// npy_example: NumPy's .npy format as a formatbench plugin, built out of
// tree against the installed SDK (formatbench/plugin.hpp and posix_file.hpp)
// only. Its id is npy_example, not npy: formatbench's own plugins/npy has the
// id npy, and both can be installed and loaded side by side.
//
// File layout (numpy's format spec, numpy/lib/format.py):
//   "\x93NUMPY", major, minor version bytes;
//   header length: uint16 little-endian (version 1.0) or uint32 (2.0, 3.0);
//   header: a Python dict literal, e.g.
//     {'descr': '<f8', 'fortran_order': False, 'shape': (1000,), }
//   padded with spaces and ended by '\n' so that the data starts at a
//   multiple of 64 bytes; then the elements, C order, in descr's byte order.
//
// Writing: version 1.0 by default (option header_version), descr '<f8',
// '<f4', '<i8', '<i4' or '|u1' (or '>' with byte_order=big), shape (n,).
// The header leaves room for a 20-digit count, as numpy >= 1.23 leaves room
// to grow an axis, so a stream written with an unknown count gets its true
// shape rewritten in place at close.
//
// Reading: versions 1.0, 2.0 and 3.0; '<', '>', '=' and '|' byte orders
// (swapped on the fly); fortran_order True only where it means the same
// order (at most one axis longer than 1); any shape whose element count is
// the count asked for (a C-order N-d array reads as its flat data). A damaged
// file is an error naming the path, never a crash: every length is checked
// against the file's size before it is used, and the header is capped at
// 1 MiB.
//
// Options:
//   byte_order      native | little | big: the byte order written (reading
//                   follows the file's descr whatever this says).
//   header_version  1.0 | 2.0 | 3.0: the format version written.
//
// Extension: formatbench.zero-copy-read/1 maps the file and exposes the
// data in place when the file's byte order is the machine's.
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;
using sdk::error;

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_size = 6;
constexpr std::size_t max_header_bytes = 1u << 20;
constexpr std::size_t small_write_buffer = 1u << 16;

// npy's messages: "npy: write to '/dev/full': No space left on device (free ...)".
constexpr sdk::file_wording wording{
    .prefix = "npy: ", .write = "write to", .read = "read from", .space_hint = true};

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
    throw error(FB_E_CORRUPT, "npy: '" + path + "' is not a readable .npy file: " + why);
}

void swap_in_place(unsigned char* p, std::size_t count, std::size_t size) {
    for (std::size_t i = 0; i < count; ++i, p += size)
        std::reverse(p, p + size);
}

// ---- dtype <-> descr ---------------------------------------------------------

// The type code numpy uses for each dtype: kind letter and item size.
const char* type_code(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f8";
    case FB_DTYPE_F32: return "f4";
    case FB_DTYPE_I64: return "i8";
    case FB_DTYPE_I32: return "i4";
    case FB_DTYPE_U8: return "u1";
    }
    return "?";
}

bool big_endian_file(const sdk::options& o) {
    const std::string& order = o.get_string("byte_order");
    if (order == "native") return std::endian::native == std::endian::big;
    return order == "big";
}

std::string descr_for(fb_dtype d, bool big) {
    if (sdk::dtype_size(d) == 1) return std::string("|") + type_code(d);
    return std::string(big ? ">" : "<") + type_code(d);
}

// ---- Header -------------------------------------------------------------------

struct header {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::uint64_t> shape;
};

// The header for version `major` with room for a 20-digit count: the same
// length whatever count is, so it can be rewritten in place.
std::string format_header(int major, const std::string& descr, std::uint64_t count) {
    auto dict = [&](const std::string& n) {
        return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + n + ",), }";
    };
    std::size_t prefix = magic_size + 2 + (major == 1 ? 2 : 4);
    std::size_t longest = dict(std::string(20, '9')).size() + 1; // + '\n'
    std::size_t total = (prefix + longest + 63) / 64 * 64;
    std::string text = dict(std::to_string(count));
    text.resize(total - prefix - 1, ' ');
    text += '\n';
    std::string out(magic, magic_size);
    out += static_cast<char>(major);
    out += '\0';
    std::uint32_t len = static_cast<std::uint32_t>(text.size());
    for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
        out += static_cast<char>((len >> (8 * i)) & 0xff);
    return out + text;
}

// A parser for the one Python literal numpy writes: a dict of string keys to
// a string, a boolean or a tuple of non-negative integers. Anything else is
// corrupt. Never reads past the end of its text.
class dict_parser {
public:
    dict_parser(std::string_view text, const std::string& path) : t_(text), path_(path) {}

    header parse() {
        header h;
        bool seen[3] = {false, false, false};
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') {
                ++i_;
                break;
            }
            std::string key = string_literal();
            expect(':');
            skip_space();
            int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
            if (k < 0)
                fail("unexpected key '" + key + "' (a .npy header has descr, fortran_order and shape)");
            if (seen[k]) fail("key '" + key + "' given twice");
            seen[k] = true;
            if (k == 0) {
                if (peek() != '\'' && peek() != '"')
                    fail("descr is not a simple type string (structured dtypes are not supported)");
                h.descr = string_literal();
            } else if (k == 1) {
                h.fortran_order = boolean();
            } else {
                h.shape = tuple();
            }
            skip_space();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            skip_space();
            if (peek() == '}') {
                ++i_;
                break;
            }
            fail("expected ',' or '}' after the value of '" + key + "'");
        }
        skip_space();
        if (i_ != t_.size()) fail("text after the closing '}'");
        if (!seen[0] || !seen[1] || !seen[2]) fail("the header lacks one of descr, fortran_order, shape");
        return h;
    }

private:
    [[noreturn]] void fail(const std::string& why) { corrupt(path_, "header dict: " + why); }
    char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
    void skip_space() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\t' || t_[i_] == '\r'))
            ++i_;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++i_;
    }
    std::string string_literal() {
        skip_space();
        char q = peek();
        if (q != '\'' && q != '"') fail("expected a quoted string");
        std::size_t end = t_.find(q, i_ + 1);
        if (end == std::string_view::npos) fail("unterminated string");
        std::string s(t_.substr(i_ + 1, end - i_ - 1));
        i_ = end + 1;
        return s;
    }
    bool boolean() {
        if (t_.substr(i_, 4) == "True") {
            i_ += 4;
            return true;
        }
        if (t_.substr(i_, 5) == "False") {
            i_ += 5;
            return false;
        }
        fail("fortran_order is neither True nor False");
    }
    std::vector<std::uint64_t> tuple() {
        std::vector<std::uint64_t> out;
        if (peek() != '(') fail("shape is not a tuple");
        ++i_;
        for (;;) {
            skip_space();
            if (peek() == ')') {
                ++i_;
                return out;
            }
            if (peek() < '0' || peek() > '9') fail("shape holds something other than non-negative integers");
            std::uint64_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                unsigned digit = static_cast<unsigned>(peek() - '0');
                if (v > (UINT64_MAX - digit) / 10) fail("a shape value overflows 64 bits");
                v = v * 10 + digit;
                ++i_;
            }
            if (peek() == 'L') ++i_; // Python 2 long literals in old files
            out.push_back(v);
            if (out.size() > 64) fail("shape has more than 64 dimensions");
            skip_space();
            if (peek() == ',') {
                ++i_;
            } else if (peek() != ')') {
                fail("expected ',' or ')' in shape");
            }
        }
    }

    std::string_view t_;
    const std::string& path_;
    std::size_t i_ = 0;
};

struct npy_format {
    static constexpr const char* byte_orders[] = {"native", "little", "big", nullptr};
    static constexpr const char* versions[] = {"1.0", "2.0", "3.0", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("byte_order", "native", byte_orders,
                           "byte order written: native | little | big (reading follows the file)"),
        sdk::option_choice("header_version", "1.0", versions, ".npy format version written: 1.0 | 2.0 | 3.0"),
    };

    static sdk::plugin_info info() {
        return {"npy_example",
                "1.0.0",
                "NumPy .npy files (numpy.save / numpy.load), versions 1.0-3.0, either byte order",
                "MIT",
                "npy",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), descr_(descr_for(r.dtype, big_endian_file(r.options))),
              swap_(size_ > 1 && big_endian_file(r.options) != (std::endian::native == std::endian::big)),
              major_(r.options.get_string("header_version")[0] - '0'),
              header_count_(r.count == FB_COUNT_UNKNOWN ? 0 : r.count) {
            // Only a file we created is removed if the header cannot be
            // written; a device or FIFO given as the path is never unlinked.
            file_ = sdk::file::create(path_, wording, O_WRONLY, 0644);
            sdk::remove_on_failure guard(file_);
            std::string h = format_header(major_, descr_, header_count_);
            header_size_ = h.size();
            file_.write_all_at(h.data(), h.size(), 0);
            guard.commit();
        }

        void write(const void* data, std::uint64_t count) {
            const auto* p = static_cast<const unsigned char*>(data);
            std::uint64_t bytes = count * size_;
            written_ += count;
            // Small writes gather in a buffer; large ones go straight out.
            if (bytes < small_write_buffer) {
                if (buffer_.size() + bytes > small_write_buffer) flush();
                std::size_t at = buffer_.size();
                buffer_.insert(buffer_.end(), p, p + bytes);
                if (swap_) swap_in_place(buffer_.data() + at, static_cast<std::size_t>(count), size_);
                return;
            }
            flush();
            if (!swap_) {
                put(p, static_cast<std::size_t>(bytes));
                return;
            }
            std::vector<unsigned char> scratch(std::min<std::uint64_t>(bytes, 1u << 20) / size_ * size_);
            for (std::uint64_t off = 0; off < bytes; off += scratch.size()) {
                std::size_t n =
                    static_cast<std::size_t>(std::min<std::uint64_t>(scratch.size(), bytes - off));
                std::memcpy(scratch.data(), p + off, n);
                swap_in_place(scratch.data(), n / size_, size_);
                put(scratch.data(), n);
            }
        }

        void close() {
            flush();
            // The true count, when it is not the one the header was written with.
            if (written_ != header_count_) {
                std::string h = format_header(major_, descr_, written_);
                file_.write_all_at(h.data(), h.size(), 0);
            }
            file_.close();
        }

    private:
        void put(const unsigned char* p, std::size_t n) {
            file_.write_all_at(p, n, header_size_ + offset_);
            offset_ += n;
        }
        void flush() {
            if (buffer_.empty()) return;
            put(buffer_.data(), buffer_.size());
            buffer_.clear();
        }

        std::string path_;
        std::size_t size_;
        std::string descr_;
        bool swap_;
        int major_;
        std::uint64_t header_count_;
        sdk::file file_;
        std::size_t header_size_ = 0;
        std::uint64_t offset_ = 0;  // data bytes written so far
        std::uint64_t written_ = 0; // elements written so far
        std::vector<unsigned char> buffer_;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r) : path_(r.path), size_(r.element_size()) {
            file_ = sdk::file::open_read(path_, wording);
            struct stat st = file_.status();
            if (!S_ISREG(st.st_mode)) throw error(FB_E_IO, "npy: '" + path_ + "' is not a regular file");
            file_size_ = static_cast<std::uint64_t>(st.st_size);
            parse_header(r);
        }

        void read(void* data, std::uint64_t count) {
            if (count > count_ - done_)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "': reading past the " +
                                                std::to_string(count_) + " elements of its shape");
            auto* p = static_cast<unsigned char*>(data);
            std::size_t bytes = static_cast<std::size_t>(count * size_);
            std::size_t got = file_.read_full_at(p, bytes, data_offset_ + done_ * size_);
            if (got != bytes)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' ends before its data (the file shrank?)");
            if (swap_) swap_in_place(p, static_cast<std::size_t>(count), size_);
            done_ += count;
        }

        // Zero-copy: the data in place, when no byte swap is needed.
        const void* view(std::uint64_t count) {
            if (swap_)
                throw error(FB_E_UNSUPPORTED,
                            "npy: '" + path_ +
                                "' is in the other byte order; no zero-copy view (read() swaps)");
            if (count > count_) throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' holds fewer elements");
            if (!map_) {
                void* m = ::mmap(nullptr, static_cast<std::size_t>(file_size_), PROT_READ, MAP_PRIVATE,
                                 file_.fd(), 0);
                if (m == MAP_FAILED) file_.fail("cannot map", errno);
                map_ = m;
            }
            return static_cast<const unsigned char*>(map_) + data_offset_;
        }

        void close() { unmap(); }

        reader(reader&& o) noexcept
            : path_(std::move(o.path_)), size_(o.size_), file_(std::move(o.file_)), file_size_(o.file_size_),
              data_offset_(o.data_offset_), count_(o.count_), done_(o.done_), swap_(o.swap_),
              map_(std::exchange(o.map_, nullptr)) {}
        reader& operator=(reader&&) = delete;
        ~reader() { unmap(); }

    private:
        void unmap() noexcept {
            if (map_) ::munmap(map_, static_cast<std::size_t>(file_size_));
            map_ = nullptr;
        }

        void parse_header(const sdk::open_request& r) {
            unsigned char pre[12] = {};
            std::size_t got = file_.read_full_at(pre, sizeof pre, 0);
            if (got == 0) corrupt(path_, "the file is empty");
            if (got < magic_size || std::memcmp(pre, magic, magic_size) != 0)
                corrupt(path_, "bad magic (a .npy file starts with \\x93NUMPY)");
            if (got < 10) corrupt(path_, "the file ends inside the version and header length");
            int major = pre[6], minor = pre[7];
            if (major < 1 || major > 3 || minor != 0)
                corrupt(path_, "format version " + std::to_string(major) + "." + std::to_string(minor) +
                                   " (this plugin reads 1.0, 2.0 and 3.0)");
            std::size_t prefix = major == 1 ? 10 : 12;
            if (got < prefix) corrupt(path_, "the file ends inside the header length");
            std::uint64_t header_len = major == 1
                                           ? (pre[8] | (pre[9] << 8))
                                           : (std::uint64_t(pre[8]) | std::uint64_t(pre[9]) << 8 |
                                              std::uint64_t(pre[10]) << 16 | std::uint64_t(pre[11]) << 24);
            if (header_len > file_size_ - prefix)
                corrupt(path_, "header length " + std::to_string(header_len) +
                                   " goes beyond the end of the file (" + std::to_string(file_size_) +
                                   " bytes)");
            if (header_len > max_header_bytes)
                corrupt(path_, "header length " + std::to_string(header_len) +
                                   " is over the 1 MiB this reader allows");
            std::string text(static_cast<std::size_t>(header_len), '\0');
            if (file_.read_full_at(text.data(), text.size(), prefix) != text.size())
                corrupt(path_, "the file ends inside the header");
            if (text.find('\0') != std::string::npos) corrupt(path_, "the header holds a NUL byte");
            header h = dict_parser(text, path_).parse();
            data_offset_ = prefix + header_len;

            // descr: byte order character, then the type code of the dtype asked for.
            const char* want = type_code(r.dtype);
            std::string_view d = h.descr;
            char order = d.empty() ? '?' : d[0];
            std::string_view code =
                (order == '<' || order == '>' || order == '=' || order == '|') ? d.substr(1) : d;
            if (code != want) {
                corrupt(path_, "it holds dtype '" + h.descr + "', not '" + want + "' (" +
                                   sdk::dtype_name(r.dtype) + ") as requested");
            }
            // '<' little, '>' big; '=', '|' (one-byte types) and none: this machine's.
            bool file_big = order == '>'   ? true
                            : order == '<' ? false
                                           : std::endian::native == std::endian::big;
            swap_ = size_ > 1 && file_big != (std::endian::native == std::endian::big);

            std::uint64_t n = 1;
            int long_axes = 0;
            for (std::uint64_t s : h.shape) {
                if (s > 1) ++long_axes;
                if (s != 0 && n > UINT64_MAX / s)
                    corrupt(path_, "the shape's element count overflows 64 bits");
                n *= s;
            }
            if (h.fortran_order && long_axes > 1)
                corrupt(path_,
                        "fortran_order True with more than one axis longer than 1 (element order differs; "
                        "save it C-ordered)");
            std::uint64_t available = (file_size_ - data_offset_) / size_;
            if (n > available)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' is truncated: its shape holds " +
                                                std::to_string(n) + " elements, the file has data for " +
                                                std::to_string(available));
            if (n != r.count) {
                throw error(n < r.count ? FB_E_TRUNCATED : FB_E_CORRUPT,
                            "npy: '" + path_ + "' holds " + std::to_string(n) +
                                " elements (shape in its header), " + std::to_string(r.count) +
                                " were requested");
            }
            count_ = n;
        }

        std::string path_;
        std::size_t size_;
        sdk::file file_;
        std::uint64_t file_size_ = 0;
        std::uint64_t data_offset_ = 0;
        std::uint64_t count_ = 0; // elements in the file
        std::uint64_t done_ = 0;  // elements read so far
        bool swap_ = false;
        void* map_ = nullptr;
    };
};

} // namespace

FORMATBENCH_PLUGIN(npy_format)

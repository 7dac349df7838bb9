// npy: NumPy's .npy format (numpy.save / numpy.load), in tree. The writer
// makes the bytes numpy.save makes for a 1-D array (header.hpp), then the
// elements; the reader takes versions 1.0, 2.0 and 3.0 in either byte order
// and checks the header strictly before it trusts any of it.
//
// Options:
//   version     auto | 1 | 2 | 3: the format version written. auto is what
//               numpy picks: 1.0 whenever the header fits its 16-bit length,
//               which for a 1-D array of these dtypes is always.
//   byte_order  native | little | big: the byte order written ('<f8' or
//               '>f8'), swapped on the fly; reading follows the file's descr.
//
// Count: with a known count the header holds it from the start; with
// FB_COUNT_UNKNOWN the header is written for 0 elements and rewritten in
// place at close (its length does not depend on the count, header.hpp).
// Reading: any C-order shape whose element count is the count asked for is
// read as its flat data; fortran_order True only when at most one axis is
// longer than 1 (then the order of the elements is the same).
//
// Extension: formatbench.zero-copy-read/1 maps the file and exposes the data
// in place when it is in this machine's byte order and aligned to its size.
#include "header.hpp"

#include "common/byte_order.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

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
namespace npy = formatbench::npy;
using formatbench::detail::swap_in_place;
using sdk::error;

// Scratch size for byte-swapping the caller's (const) data.
constexpr std::size_t swap_scratch_bytes = 1u << 20;

// npy's messages: "npy: write to '/dev/full': No space left on device (free ...)".
constexpr sdk::file_wording wording{
    .prefix = "npy: ", .write = "write to", .read = "read from", .close = "close", .space_hint = true};

constexpr bool native_big = std::endian::native == std::endian::big;

bool big_endian_file(const sdk::options& o) {
    const std::string& order = o.get_string("byte_order");
    return order == "native" ? native_big : order == "big";
}

struct npy_format {
    static constexpr const char* versions[] = {"auto", "1", "2", "3", nullptr};
    static constexpr const char* byte_orders[] = {"native", "little", "big", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("version", "auto", versions,
                           "format version written: auto (numpy's choice: 1.0 when the header fits, always "
                           "here) | 1 | 2 | 3"),
        sdk::option_choice("byte_order", "native", byte_orders,
                           "byte order written: native | little ('<f8') | big ('>f8'); reading follows the "
                           "file's descr"),
    };

    static sdk::plugin_info info() {
        return {
            "npy",
            "1.0.0",
            "NumPy .npy (numpy.save/numpy.load): versions 1.0-3.0, either byte order, numpy's exact header",
            "MIT",
            "npy",
            FB_DTYPES_ALL,
            FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()),
              descr_(npy::descr_of(r.dtype, big_endian_file(r.options))),
              swap_(size_ > 1 && big_endian_file(r.options) != native_big),
              header_count_(r.count == FB_COUNT_UNKNOWN ? 0 : r.count) {
            const std::string& v = r.options.get_string("version");
            major_ = v == "auto" ? npy::auto_version(descr_) : v[0] - '0';
            // Allocate before creating the file, so that a failure here leaves nothing.
            if (swap_) scratch_.resize(swap_scratch_bytes);
            std::string header = npy::make_header(major_, descr_, header_count_);
            file_ = sdk::file::create(path_, wording);
            // A file we created is removed if the header cannot be written; a
            // device or FIFO given as the path is never unlinked.
            sdk::remove_on_failure guard(file_);
            file_.write_all(header.data(), header.size());
            guard.commit();
        }

        void write(const void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "npy: write to '" + path_ + "' after close");
            if (count > SIZE_MAX / size_)
                throw error(FB_E_INVALID_OPTION, "npy: a write of " + std::to_string(count) +
                                                     " elements to '" + path_ +
                                                     "' overflows a 64-bit byte count");
            const auto* p = static_cast<const unsigned char*>(data);
            std::size_t bytes = static_cast<std::size_t>(count) * size_;
            if (!swap_) {
                file_.write_all(p, bytes);
            } else {
                // The caller's data is const: swap a piece at a time in scratch.
                const std::size_t piece = scratch_.size() / size_ * size_;
                for (std::size_t off = 0; off < bytes; off += piece) {
                    std::size_t n = std::min(piece, bytes - off);
                    std::memcpy(scratch_.data(), p + off, n);
                    swap_in_place(scratch_.data(), n / size_, size_);
                    file_.write_all(scratch_.data(), n);
                }
            }
            written_ += count;
        }

        void close() {
            if (!file_.is_open()) return;
            // The true count, when the header was written with another (an
            // unknown count, or a hint the stream did not keep to).
            if (written_ != header_count_) {
                std::string header = npy::make_header(major_, descr_, written_);
                file_.write_all_at(header.data(), header.size(), 0);
            }
            file_.close();
        }

    private:
        std::string path_;
        std::size_t size_;
        std::string descr_;
        bool swap_;
        std::uint64_t header_count_;
        int major_ = 1;
        sdk::file file_;
        std::vector<unsigned char> scratch_;
        std::uint64_t written_ = 0;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : path_(r.path), dtype_(r.dtype), size_(r.element_size()) {
            file_ = sdk::file::open_read(path_, wording);
            struct stat st = file_.status();
            if (S_ISDIR(st.st_mode))
                throw error(FB_E_IO, "npy: '" + path_ + "' is a directory, not a .npy file");
            regular_ = S_ISREG(st.st_mode);
            file_size_ = static_cast<std::uint64_t>(st.st_size);
            try {
                read_header(r.count);
            } catch (const npy::bad_header& e) {
                throw error(e.status(), "npy: '" + path_ + "' " +
                                            (e.status() == FB_E_UNSUPPORTED ? "cannot be read: "
                                                                            : "is not a valid .npy file: ") +
                                            e.what());
            }
        }

        void read(void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "npy: read from '" + path_ + "' after close");
            if (count > count_ - done_)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' holds " + std::to_string(count_) +
                                                " elements; a read of " + std::to_string(count) + " after " +
                                                std::to_string(done_) + " goes past them");
            auto* p = static_cast<unsigned char*>(data);
            std::size_t bytes = static_cast<std::size_t>(count) * size_;
            std::size_t got = file_.read_full(p, bytes);
            if (got != bytes)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' ends after " +
                                                std::to_string(data_offset_ + done_ * size_ + got) +
                                                " bytes, inside the data its header announces");
            if (swap_) swap_in_place(p, static_cast<std::size_t>(count), size_);
            done_ += count;
        }

        // Zero-copy: the data in place, when no byte swap is needed and the
        // data is aligned to its element size (numpy aligns it to 64).
        const void* view(std::uint64_t count) {
            if (swap_)
                throw error(FB_E_UNSUPPORTED,
                            "npy: '" + path_ +
                                "' is in the other byte order; no zero-copy view (read swaps)");
            if (!regular_ || data_offset_ % size_ != 0)
                throw error(FB_E_UNSUPPORTED,
                            "npy: '" + path_ + "' cannot be mapped with its data aligned; no zero-copy view");
            if (count > count_)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' holds " + std::to_string(count_) +
                                                " elements, fewer than " + std::to_string(count));
            if (!map_) {
                void* m = ::mmap(nullptr, static_cast<std::size_t>(file_size_), PROT_READ, MAP_PRIVATE,
                                 file_.fd(), 0);
                if (m == MAP_FAILED) file_.fail("cannot map", errno);
                map_ = m;
            }
            return static_cast<const unsigned char*>(map_) + data_offset_;
        }

        void close() {
            unmap();
            file_.reset(); // nothing to flush; an error here changes nothing
        }

        reader(reader&& o) noexcept
            : path_(std::move(o.path_)), dtype_(o.dtype_), size_(o.size_), file_(std::move(o.file_)),
              regular_(o.regular_), file_size_(o.file_size_), data_offset_(o.data_offset_), count_(o.count_),
              done_(o.done_), swap_(o.swap_), map_(std::exchange(o.map_, nullptr)) {}
        reader& operator=(reader&&) = delete;
        ~reader() { unmap(); }

    private:
        void unmap() noexcept {
            if (map_) ::munmap(map_, static_cast<std::size_t>(file_size_));
            map_ = nullptr;
        }

        // Reads and checks the preamble and header, leaving the file offset
        // at the first element. Throws bad_header for the header's faults.
        void read_header(std::uint64_t asked) {
            unsigned char pre[npy::max_prefix_size] = {};
            // Magic and version, then the 2- or 4-byte length the version
            // implies (read one by one: the file may be a pipe).
            std::size_t got = file_.read_full(pre, npy::magic_size + 2);
            if (got == npy::magic_size + 2) got += file_.read_full(pre + got, pre[6] >= 2 ? 4 : 2);
            npy::preamble p = npy::parse_preamble(pre, got);
            if (regular_ && p.header_length > file_size_ - p.size)
                throw npy::bad_header("its header length " + std::to_string(p.header_length) +
                                          " goes beyond the end of the file (" + std::to_string(file_size_) +
                                          " bytes)",
                                      FB_E_TRUNCATED);
            std::string text(static_cast<std::size_t>(p.header_length), '\0');
            if (file_.read_full(text.data(), text.size()) != text.size())
                throw npy::bad_header("the file ends inside the header", FB_E_TRUNCATED);
            npy::header_fields h = npy::parse_header(text);
            data_offset_ = p.size + p.header_length;

            bool big = false;
            if (!npy::descr_matches(h.descr, dtype_, big))
                throw error(FB_E_CORRUPT, "npy: '" + path_ + "' holds dtype '" + h.descr + "', not " +
                                              npy::descr_of(dtype_, false).substr(1) + " (" +
                                              sdk::dtype_name(dtype_) +
                                              ") as asked; read it with the dtype it holds");
            swap_ = size_ > 1 && big != native_big;

            std::uint64_t n = npy::element_count(h.shape);
            int long_axes = 0;
            for (std::uint64_t s : h.shape)
                long_axes += s > 1;
            if (h.fortran_order && long_axes > 1)
                throw error(FB_E_UNSUPPORTED,
                            "npy: '" + path_ + "' holds a Fortran-ordered array of shape " +
                                shape_text(h.shape) +
                                "; its elements are not in C order (save it with numpy.ascontiguousarray, or "
                                "read the flat data another way)");
            if (regular_) {
                std::uint64_t available = (file_size_ - data_offset_) / size_;
                if (n > available)
                    throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' is truncated: its shape " +
                                                    shape_text(h.shape) + " holds " + std::to_string(n) +
                                                    " elements, the file has data for " +
                                                    std::to_string(available));
            }
            if (asked != FB_COUNT_UNKNOWN && n != asked)
                throw error(n < asked ? FB_E_TRUNCATED : FB_E_CORRUPT,
                            "npy: '" + path_ + "' holds " + std::to_string(n) + " elements (shape " +
                                shape_text(h.shape) + "), " + std::to_string(asked) +
                                " were asked for; set the count to " + std::to_string(n));
            count_ = n;
        }

        static std::string shape_text(const std::vector<std::uint64_t>& shape) {
            std::string s = "(";
            for (std::size_t i = 0; i < shape.size(); ++i)
                s += (i ? ", " : "") + std::to_string(shape[i]);
            return s + (shape.size() == 1 ? ",)" : ")");
        }

        std::string path_;
        fb_dtype dtype_;
        std::size_t size_;
        sdk::file file_;
        bool regular_ = false;
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

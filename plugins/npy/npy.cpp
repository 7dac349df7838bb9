// npy: NumPy's .npy format (numpy.save / numpy.load), in tree. The writer
// makes the bytes numpy.save makes for a C-order array of the data set's
// shape (1-D for a flat data set; header.hpp), then the elements; the
// reader takes versions 1.0, 2.0 and 3.0 in either byte order and checks
// the header strictly before it trusts any of it.
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
// A shaped stream's count must be its shape's product; when the count
// written differs, close fails (the shaped header cannot be rewritten as
// a flat one in place).
//
// Reading: any C-order shape whose element count is the count asked for is
// read as its flat data when the open has no shape (a user's file as a
// from_file data set); an open with a shape needs exactly that shape in the
// file (FB_E_CORRUPT naming both). fortran_order True only when at most one
// axis is longer than 1 (then the order of the elements is the same): a
// Fortran-ordered N-d array is refused at open, so read, read_at and
// read_box never see one.
//
// Extensions: formatbench.zero-copy-read/1 maps the file and exposes the
// data in place when it is in this machine's byte order and aligned to its
// size. formatbench.read-at/1 is one pread(2) at the header's length plus
// offset x size; formatbench.read-box/1 reads the contiguous runs of the
// box (sdk::for_each_run) through raw's run_sieve (runs less than 4 KiB
// apart as one pread of up to 1 MiB); both swap a big-endian file's values into
// this machine's order in the caller's buffer.
//
// Direct I/O (FB_CAP_DIRECT_IO): with FB_OPEN_DIRECT the header, read,
// read_at and read_box read with O_DIRECT (common/range_reader.hpp). The data
// starts after the header (byte 128 for the files numpy and this plugin
// write), never on a block boundary, so every read goes as whole aligned
// blocks through the reader's aligned bounce buffer and is copied out: one
// extra copy, and a block more than the range at either end. No zero-copy
// view then (a mapping is the page cache).
#include "header.hpp"

#include "common/byte_order.hpp"
#include "common/range_reader.hpp"

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
namespace direct_io = formatbench::direct_io;
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

// The product of a shape the host gives (its extents fit: it is a count).
std::uint64_t shape_product(const std::vector<std::uint64_t>& shape) {
    std::uint64_t product = 1;
    for (std::uint64_t extent : shape)
        product = extent != 0 && product > UINT64_MAX / extent ? UINT64_MAX : product * extent;
    return product;
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
            "1.1.0",
            "NumPy .npy (numpy.save/numpy.load): versions 1.0-3.0, either byte order, numpy's exact header",
            "MIT",
            "npy",
            FB_DTYPES_ALL,
            FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING | FB_CAP_DIRECT_IO};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()),
              descr_(npy::descr_of(r.dtype, big_endian_file(r.options))),
              swap_(size_ > 1 && big_endian_file(r.options) != native_big),
              header_count_(r.count == FB_COUNT_UNKNOWN ? 0 : r.count), shape_(r.shape) {
            if (!shape_.empty()) {
                const std::uint64_t product = shape_product(shape_);
                if (r.count != FB_COUNT_UNKNOWN && product != r.count)
                    throw error(FB_E_STATE, "npy: the shape " + npy::shape_text(shape_) + " given for '" +
                                                path_ + "' holds " + std::to_string(product) +
                                                " elements, the count is " + std::to_string(r.count));
                header_count_ = product;
            }
            const std::vector<std::uint64_t> header_shape =
                shape_.empty() ? std::vector<std::uint64_t>{header_count_} : shape_;
            const std::string& v = r.options.get_string("version");
            major_ = v == "auto" ? npy::auto_version(descr_, header_shape) : v[0] - '0';
            // Allocate before creating the file, so that a failure here leaves nothing.
            if (swap_) scratch_.resize(swap_scratch_bytes);
            std::string header = npy::make_header(major_, descr_, header_shape);
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
            if (!shape_.empty() && written_ != header_count_) {
                file_.reset(); // the host owns the incomplete file
                throw error(FB_E_STATE, "npy: " + std::to_string(written_) + " elements were written to '" +
                                            path_ + "', whose header announces the shape " +
                                            npy::shape_text(shape_) + " of " + std::to_string(header_count_));
            }
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
        std::vector<std::uint64_t> shape_; // the data set's; empty: a 1-D header
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
            direct_io::alignment align;
            if (r.direct) {
                // Before the header, which is then read with O_DIRECT too.
                direct_io::enable_direct(file_, "npy: ");
                align = direct_io::query_alignment(file_.fd());
            }
            range_ = direct_io::range_reader(r.direct, align, 0, "npy: ");
            try {
                read_header(r.count, r.shape);
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
            // Direct: pread at the stream's position; otherwise read(2),
            // which also reads a pipe.
            std::size_t got = range_.direct() ? range_.read(file_, p, bytes, data_offset_ + done_ * size_)
                                              : file_.read_full(p, bytes);
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
            if (range_.direct())
                throw error(FB_E_UNSUPPORTED,
                            "npy: no zero-copy view of '" + path_ +
                                "' with direct I/O: a mapping reads through the page cache");
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

        // formatbench.read-at/1: one pread at data_offset_ + offset x size.
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "npy: read_at on '" + path_ + "' after close");
            if (offset > count_ || count > count_ - offset)
                throw error(FB_E_TRUNCATED, "npy: elements [" + std::to_string(offset) + ", " +
                                                std::to_string(offset + count) + ") lie outside the " +
                                                std::to_string(count_) + " of '" + path_ + "'");
            read_range(static_cast<unsigned char*>(data), offset, count);
        }

        // formatbench.read-box/1: one pread per contiguous run of the box,
        // in the file's shape (the open's, which read_header checked).
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            if (!file_.is_open()) throw error(FB_E_STATE, "npy: read_box on '" + path_ + "' after close");
            auto* out = static_cast<unsigned char*>(data);
            auto fetch = [&](unsigned char* p, std::size_t n, std::uint64_t at) { read_bytes(p, n, at); };
            std::uint64_t elements = 0;
            sdk::for_each_run(shape_, start, count,
                              [&](std::uint64_t offset, std::uint64_t length, std::uint64_t position) {
                                  sieve_.add(data_offset_ + offset * size_,
                                             static_cast<std::size_t>(length) * size_, out + position * size_,
                                             fetch);
                                  elements += length;
                              });
            sieve_.flush(fetch);
            if (swap_) swap_in_place(out, static_cast<std::size_t>(elements), size_);
        }

        void close() {
            unmap();
            file_.reset(); // nothing to flush; an error here changes nothing
        }

        reader(reader&& o) noexcept
            : path_(std::move(o.path_)), dtype_(o.dtype_), size_(o.size_), file_(std::move(o.file_)),
              regular_(o.regular_), file_size_(o.file_size_), data_offset_(o.data_offset_), count_(o.count_),
              done_(o.done_), swap_(o.swap_), map_(std::exchange(o.map_, nullptr)),
              shape_(std::move(o.shape_)), range_(std::move(o.range_)), sieve_(std::move(o.sieve_)),
              header_pos_(o.header_pos_) {}
        reader& operator=(reader&&) = delete;
        ~reader() { unmap(); }

    private:
        void unmap() noexcept {
            if (map_) ::munmap(map_, static_cast<std::size_t>(file_size_));
            map_ = nullptr;
        }

        // count elements from element `offset` into p, in this machine's order.
        void read_range(unsigned char* p, std::uint64_t offset, std::uint64_t count) {
            read_bytes(p, static_cast<std::size_t>(count) * size_, data_offset_ + offset * size_);
            if (swap_) swap_in_place(p, static_cast<std::size_t>(count), size_);
        }

        // n bytes at byte `at` of the file, all of them.
        void read_bytes(unsigned char* p, std::size_t n, std::uint64_t at) {
            const std::size_t got = range_.read(file_, p, n, at);
            if (got != n)
                throw error(FB_E_TRUNCATED, "npy: '" + path_ + "' ends after " + std::to_string(at + got) +
                                                " bytes, inside the data its header announces");
        }

        // The next n bytes of the header: read(2) (the file may be a pipe),
        // or with direct I/O pread through the bounce buffer.
        std::size_t header_bytes(void* p, std::size_t n) {
            if (!range_.direct()) return file_.read_full(p, n);
            const std::size_t got = range_.read(file_, static_cast<unsigned char*>(p), n, header_pos_);
            header_pos_ += got;
            return got;
        }

        // Reads and checks the preamble and header, leaving the file offset
        // at the first element. Throws bad_header for the header's faults.
        void read_header(std::uint64_t asked, const std::vector<std::uint64_t>& wanted_shape) {
            unsigned char pre[npy::max_prefix_size] = {};
            // Magic and version, then the 2- or 4-byte length the version
            // implies (read one by one: the file may be a pipe).
            std::size_t got = header_bytes(pre, npy::magic_size + 2);
            if (got == npy::magic_size + 2) got += header_bytes(pre + got, pre[6] >= 2 ? 4 : 2);
            npy::preamble p = npy::parse_preamble(pre, got);
            if (regular_ && p.header_length > file_size_ - p.size)
                throw npy::bad_header("its header length " + std::to_string(p.header_length) +
                                          " goes beyond the end of the file (" + std::to_string(file_size_) +
                                          " bytes)",
                                      FB_E_TRUNCATED);
            std::string text(static_cast<std::size_t>(p.header_length), '\0');
            if (header_bytes(text.data(), text.size()) != text.size())
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
            // A data set with a shape reads the file of that shape only
            // (its boxes are of that shape); without one any shape of the
            // count will do.
            if (!wanted_shape.empty() && wanted_shape != h.shape)
                throw error(FB_E_CORRUPT, "npy: '" + path_ + "' holds an array of shape " +
                                              shape_text(h.shape) + ", the data set's shape is " +
                                              shape_text(wanted_shape) +
                                              "; write the file with that shape (numpy: a.reshape" +
                                              shape_text(wanted_shape) + ") or read it as a flat data set");
            count_ = n;
            shape_ = h.shape;
        }

        static std::string shape_text(const std::vector<std::uint64_t>& shape) {
            return npy::shape_text(shape);
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
        std::vector<std::uint64_t> shape_; // the file's (equal to the open's when it had one)
        direct_io::range_reader range_;    // read_at, read_box, and everything when direct
        direct_io::run_sieve sieve_;       // read_box's runs
        std::uint64_t header_pos_ = 0;     // the next header byte, when direct
    };
};

} // namespace

FORMATBENCH_PLUGIN(npy_format)

// raw: unformatted stream I/O, the exact bytes of the array and nothing else
// (what Fortran access="stream" or numpy's tofile write). Plain POSIX
// open/write/read/close, so its times are the floor every real format is
// compared against. Not self-describing: the reader takes dtype and count
// from the host and checks the file size against them at open.
//
// Options:
//   buffer_size  bytes per system call. 0 (default, the fastest measured:
//                the host hands large page-aligned chunks) passes each chunk
//                straight to one write(2)/read(2). N > 0 moves the data
//                through an N-byte buffer and every system call transfers N
//                bytes (the last one fewer), to measure what a small stdio or
//                Fortran runtime buffer costs.
//   byte_order   native | little | big: the byte order in the file; values
//                are swapped on the fly when it is not the machine's own.
//
// Shared files (formatbench.part/1, MPI `layout: shared_file`): the part
// [offset, offset + count) of a file of `total` values is the bytes at
// offset x size; each part opens the file without truncating it, seeks
// there and writes or reads its bytes as a whole file would.
//
// Random access (ABI 1.2): element i is at byte i x size (plus the part's
// first byte), so read_at is one pread(2) at that byte and read_box reads
// the contiguous runs of the box (sdk::for_each_run) through a sieve
// (common/range_reader.hpp run_sieve: runs less than 4 KiB apart as one pread of
// up to 1 MiB), the values swapped in the caller's buffer when the byte
// order asks for it. A part's read_at
// offsets count from the part's first element; read_box is refused on a
// part (its box is in the whole data set's coordinates). With buffer_size
// N > 0 each pread is of N bytes into the buffer, and a request that
// starts inside the bytes the buffer holds is served from it, as stdio
// serves a read after an fseek within its buffer.
//
// Direct I/O (FB_CAP_DIRECT_IO, FB_OPEN_DIRECT): read, read_at and read_box
// read with O_DIRECT (common/range_reader.hpp): straight into the caller's buffer
// when its address, the byte offset and the length are aligned to what
// statx STATX_DIOALIGN reports (4096 where it reports nothing), through an
// aligned bounce buffer otherwise (a part or range that starts mid-block, a
// tail shorter than a block). With buffer_size N > 0 the buffer is aligned
// and N must be a multiple of the alignment (else FB_E_INVALID_OPTION at
// open): direct reads of N bytes each. Only regular files on a file system
// with direct I/O: anything else is FB_E_UNSUPPORTED at open. Writing never
// uses O_DIRECT (the flag is a read flag in the ABI).
#include "common/range_reader.hpp"

#include "common/byte_order.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;
namespace direct_io = formatbench::direct_io;
using formatbench::detail::swap_in_place;
using sdk::error;

// Scratch size for byte-swapping the caller's (const) data when unbuffered.
constexpr std::size_t swap_scratch_bytes = 1u << 20;

// raw's messages: "raw: write to '/dev/full': No space left on device (free ...)".
constexpr sdk::file_wording wording{
    .prefix = "raw: ", .write = "write to", .read = "read from", .close = "close", .space_hint = true};

// count x size in bytes, or an error when that does not fit in 64 bits.
std::uint64_t byte_count(std::uint64_t count, std::size_t size, const std::string& path) {
    if (size != 0 && count > UINT64_MAX / size)
        throw error(FB_E_INVALID_OPTION, "raw: element count " + std::to_string(count) + " for '" + path +
                                             "' overflows a 64-bit byte size");
    return count * size;
}

// Whether the file's byte order (option byte_order) differs from this machine's.
bool needs_swap(const sdk::options& o) {
    const std::string& order = o.get_string("byte_order");
    if (order == "little") return std::endian::native != std::endian::little;
    if (order == "big") return std::endian::native != std::endian::big;
    return false;
}

struct raw_format {
    static constexpr const char* byte_orders[] = {"native", "little", "big", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_size("buffer_size", "0", 0, 1024.0 * 1024 * 1024,
                         "bytes per system call through a buffer; 0 = one write(2)/read(2) per chunk"),
        sdk::option_choice("byte_order", "native", byte_orders,
                           "byte order in the file: native | little | big (swapped on the fly)"),
    };

    static constexpr bool parts = true;

    static sdk::plugin_info info() {
        return {"raw",
                "1.1.0",
                "unformatted stream: the array's bytes and nothing else (POSIX write/read)",
                "MIT",
                "raw",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_DIRECT_IO};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), swap_(size_ > 1 && needs_swap(r.options)) {
            // Allocate before creating the file: once the file exists nothing
            // here can fail, so a failed open leaves nothing at the path.
            buffer_.resize(r.options.get_size("buffer_size"));
            if (swap_) scratch_.resize(std::max<std::size_t>(swap_scratch_bytes / size_, 1) * size_);
            if (r.part) {
                const std::uint64_t at = byte_count(r.part->offset, size_, path_);
                file_ = sdk::file::open_shared(path_, wording);
                file_.seek(at);
            } else {
                file_ = sdk::file::create(path_, wording);
            }
        }

        void write(const void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "raw: write to '" + path_ + "' after close");
            const auto* p = static_cast<const unsigned char*>(data);
            std::uint64_t bytes = byte_count(count, size_, path_);
            if (!swap_) {
                put(p, bytes);
                return;
            }
            // The caller's data is const: swap a piece at a time in scratch.
            while (bytes > 0) {
                std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, scratch_.size()));
                std::memcpy(scratch_.data(), p, n);
                swap_in_place(scratch_.data(), n / size_, size_);
                put(scratch_.data(), n);
                p += n;
                bytes -= n;
            }
        }

        void close() {
            if (!file_.is_open()) return;
            if (used_ > 0) {
                std::size_t n = std::exchange(used_, 0);
                file_.write_all(buffer_.data(), n);
            }
            // close(2) can report a delayed write error (NFS, quota): checked.
            file_.close();
        }

    private:
        // Unbuffered: straight to write(2). Buffered: through buffer_, one
        // full buffer per system call.
        void put(const unsigned char* p, std::uint64_t bytes) {
            if (buffer_.empty()) {
                file_.write_all(p, static_cast<std::size_t>(bytes));
                return;
            }
            while (bytes > 0) {
                std::size_t n =
                    static_cast<std::size_t>(std::min<std::uint64_t>(bytes, buffer_.size() - used_));
                std::memcpy(buffer_.data() + used_, p, n);
                used_ += n;
                p += n;
                bytes -= n;
                if (used_ == buffer_.size()) {
                    used_ = 0;
                    file_.write_all(buffer_.data(), buffer_.size());
                }
            }
        }

        std::string path_;
        std::size_t size_;
        bool swap_;
        sdk::file file_;
        std::vector<unsigned char> buffer_;
        std::size_t used_ = 0;
        std::vector<unsigned char> scratch_;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : path_(r.path), dtype_(r.dtype), size_(r.element_size()),
              swap_(size_ > 1 && needs_swap(r.options)), shape_(r.shape), part_(r.part.has_value()) {
            const std::uint64_t buffer_size = r.options.get_size("buffer_size");
            // The sequential buffer; a direct read() goes through range_'s own aligned one.
            if (!r.direct) buffer_.resize(buffer_size);
            file_ = sdk::file::open_read(path_, wording);
            struct stat st = file_.status();
            if (S_ISDIR(st.st_mode))
                throw error(FB_E_IO, "raw: '" + path_ + "' is a directory, not a raw file");
            // Only a regular file has a size to check; a FIFO or a device is
            // read as a stream and a short one ends in FB_E_TRUNCATED.
            if (S_ISREG(st.st_mode)) check_size(static_cast<std::uint64_t>(st.st_size), r);
            const std::uint64_t whole = r.part ? r.part->total : r.count;
            // What read_at may read: the count asked for (the file's, or the
            // part's), or with an unknown count what the file holds.
            count_ = r.count != FB_COUNT_UNKNOWN || !S_ISREG(st.st_mode)
                         ? r.count
                         : static_cast<std::uint64_t>(st.st_size) / size_;
            if (!shape_.empty()) check_shape(whole);
            if (r.part) {
                first_ = byte_count(r.part->offset, size_, path_);
                file_.seek(first_);
            }
            direct_io::alignment align;
            if (r.direct) {
                direct_io::enable_direct(file_, "raw: ");
                align = direct_io::query_alignment(file_.fd());
                if (buffer_size % align.offset != 0)
                    throw error(FB_E_INVALID_OPTION,
                                "raw: buffer_size " + std::to_string(buffer_size) + " with direct I/O on '" +
                                    path_ + "': O_DIRECT reads whole blocks of " +
                                    std::to_string(align.offset) +
                                    " bytes there; set buffer_size to 0 or a multiple of " +
                                    std::to_string(align.offset));
            }
            range_ = direct_io::range_reader(r.direct, align, static_cast<std::size_t>(buffer_size), "raw: ");
        }

        void read(void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "raw: read from '" + path_ + "' after close");
            auto* p = static_cast<unsigned char*>(data);
            std::uint64_t bytes = byte_count(count, size_, path_);
            // Direct: pread at the stream's position (the file offset is not
            // used); otherwise read(2), which also reads a FIFO or a device.
            std::uint64_t got = range_.direct()
                                    ? range_.read(file_, p, static_cast<std::size_t>(bytes), first_ + offset_)
                                : buffer_.empty() ? file_.read_full(p, static_cast<std::size_t>(bytes))
                                                  : take(p, bytes);
            if (got < bytes)
                throw error(FB_E_TRUNCATED,
                            "raw: '" + path_ + "' ends after " + std::to_string(offset_ + got) +
                                " bytes, in the middle of a read of " + std::to_string(count) + " " +
                                sdk::dtype_name(dtype_) + " values");
            offset_ += bytes;
            // The output buffer is ours to scribble on: swap in place.
            if (swap_) swap_in_place(p, static_cast<std::size_t>(count), size_);
        }

        // formatbench.read-at/1: element `offset` is at byte offset x size
        // (from the part's first byte): one pread (or the buffer's preads).
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "raw: read_at on '" + path_ + "' after close");
            if (offset > count_ || count > count_ - offset)
                throw error(FB_E_TRUNCATED, "raw: elements [" + std::to_string(offset) + ", " +
                                                std::to_string(offset + count) + ") lie outside the " +
                                                std::to_string(count_) + " of '" + path_ + "'");
            read_range(static_cast<unsigned char*>(data), offset, count);
        }

        // formatbench.read-box/1: the box's runs through the sieve.
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            if (!file_.is_open()) throw error(FB_E_STATE, "raw: read_box on '" + path_ + "' after close");
            if (part_)
                throw error(FB_E_UNSUPPORTED,
                            "raw: read_box on a part of '" + path_ +
                                "': a box is in the whole data set's coordinates; open the whole file "
                                "or use read_at on the part");
            auto* out = static_cast<unsigned char*>(data);
            auto fetch = [&](unsigned char* p, std::size_t n, std::uint64_t at) { read_bytes(p, n, at); };
            std::uint64_t elements = 0;
            sdk::for_each_run(shape_, start, count,
                              [&](std::uint64_t offset, std::uint64_t length, std::uint64_t position) {
                                  sieve_.add(first_ + offset * size_,
                                             static_cast<std::size_t>(length * size_), out + position * size_,
                                             fetch);
                                  elements += length;
                              });
            sieve_.flush(fetch);
            if (swap_) swap_in_place(out, static_cast<std::size_t>(elements), size_);
        }

        void close() {
            file_.reset(); // nothing to flush; an error here changes nothing
        }

    private:
        void check_size(std::uint64_t actual, const sdk::open_request& r) {
            std::string what = sdk::dtype_name(r.dtype);
            // A part checks the whole file's size: `total` values.
            const std::uint64_t count = r.part ? r.part->total : r.count;
            if (count == FB_COUNT_UNKNOWN) {
                if (actual % size_ != 0)
                    throw error(FB_E_CORRUPT, "raw: '" + path_ + "' holds " + std::to_string(actual) +
                                                  " bytes, not a whole number of " + what + " values");
                return;
            }
            std::uint64_t expected = byte_count(count, size_, path_);
            std::string sizes = "expected " + std::to_string(expected) + " bytes (" + std::to_string(count) +
                                " " + what + " values), found " + std::to_string(actual);
            if (actual < expected)
                throw error(FB_E_TRUNCATED,
                            "raw: '" + path_ + "' is too small: " + sizes +
                                "; the file is truncated or was written with a smaller count");
            if (actual > expected)
                throw error(FB_E_CORRUPT, "raw: '" + path_ + "' is too large: " + sizes +
                                              "; a raw file holds nothing but the values, so the count or "
                                              "dtype does not match the file");
        }

        // The ABI's shape has the product of the whole file's count (the
        // host's to get right; checked so that a box cannot read past it).
        void check_shape(std::uint64_t whole) const {
            std::uint64_t product = 1;
            std::string text;
            for (std::uint64_t extent : shape_) {
                text += (text.empty() ? "" : ", ") + std::to_string(extent);
                product = extent != 0 && product > UINT64_MAX / extent ? UINT64_MAX : product * extent;
            }
            if (product != whole)
                throw error(FB_E_STATE, "raw: the shape (" + text + ") given for '" + path_ + "' holds " +
                                            std::to_string(product) + " elements, the file " +
                                            std::to_string(whole));
        }

        // count elements from element `offset` into p, in the machine's byte order.
        void read_range(unsigned char* p, std::uint64_t offset, std::uint64_t count) {
            const std::uint64_t bytes = byte_count(count, size_, path_);
            const std::uint64_t at = first_ + byte_count(offset, size_, path_);
            read_bytes(p, static_cast<std::size_t>(bytes), at);
            if (swap_) swap_in_place(p, static_cast<std::size_t>(count), size_);
        }

        // n bytes at byte `at` of the file, all of them.
        void read_bytes(unsigned char* p, std::size_t n, std::uint64_t at) {
            const std::size_t got = range_.read(file_, p, n, at);
            if (got < n)
                throw error(FB_E_TRUNCATED, "raw: '" + path_ + "' ends after " + std::to_string(at + got) +
                                                " bytes, inside a read of bytes [" + std::to_string(at) +
                                                ", " + std::to_string(at + n) +
                                                ") (was it truncated while open?)");
        }

        // Buffered read: refill buffer_ with one read(2) of its size at a time.
        std::uint64_t take(unsigned char* p, std::uint64_t bytes) {
            std::uint64_t done = 0;
            while (done < bytes) {
                if (pos_ == filled_) {
                    pos_ = 0;
                    filled_ = file_.read_full(buffer_.data(), buffer_.size());
                    if (filled_ == 0) break;
                }
                std::size_t n =
                    static_cast<std::size_t>(std::min<std::uint64_t>(bytes - done, filled_ - pos_));
                std::memcpy(p + done, buffer_.data() + pos_, n);
                pos_ += n;
                done += n;
            }
            return done;
        }

        std::string path_;
        fb_dtype dtype_;
        std::size_t size_;
        bool swap_;
        sdk::file file_;
        std::vector<unsigned char> buffer_;
        std::size_t pos_ = 0, filled_ = 0;
        std::uint64_t offset_ = 0;         // bytes read() has returned
        std::vector<std::uint64_t> shape_; // the data set's (read_box)
        bool part_ = false;                // a part of a shared file
        std::uint64_t count_ = 0;          // elements read_at may read
        std::uint64_t first_ = 0;          // byte of the stream's first element
        direct_io::range_reader range_;    // read_at, read_box, and read() when direct
        direct_io::run_sieve sieve_;       // read_box's runs
    };
};

} // namespace

FORMATBENCH_PLUGIN(raw_format)

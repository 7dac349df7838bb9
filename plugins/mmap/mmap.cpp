// mmap: the raw format (the array's bytes, nothing else; files are
// interchangeable with the raw plugin's native byte order) written and read
// through memory mappings. Writing sizes the file to count x dtype size,
// maps it MAP_SHARED and copies each chunk in; reading maps the file and
// copies out, or lends the mapping itself (zero-copy read extension).
//
// Writing needs the total count (FB_CAP_NEEDS_COUNT); FB_COUNT_UNKNOWN is
// refused at open with FB_E_UNSUPPORTED rather than grown by remapping, so
// what is timed is always one mapping of the final size.
//
// SIGBUS: a store into a mapped page the file system cannot back raises
// SIGBUS, not an error code. open_write therefore reserves every block with
// posix_fallocate first, so a full file system is an FB_E_IO error at open.
// Only regular files can be sized and mapped: a device such as /dev/full is
// refused at open. A reader still gets SIGBUS if another process truncates
// the file while it is mapped; that is outside what a plugin can prevent.
//
// Options:
//   advice         madvise hint: normal | sequential | random | willneed |
//                  hugepage (default). hugepage lets the page cache use large
//                  folios for the mapping (Linux 6.x, e.g. ext4 since 6.16):
//                  measured here it made mmap writes 4x faster (88-92% of one
//                  write(2)) and reads of mmap-written files 3x faster.
//                  sequential on a writable mapping measured 10x slower.
//   populate       fault the whole mapping in (MADV_POPULATE_*) instead of
//                  page by page; default false (slower here). A writer does
//                  it at open, a reader at its first read() or view() (see
//                  random access below).
//   sync_on_close  msync(MS_SYNC) the written mapping before unmapping.
//   read_threads   threads that copy a read of 16 MiB or more out of the
//                  mapping, each its own slice (default 2). A copy out of
//                  page-cache pages is a plain memcpy here, not one read(2)
//                  in one thread, so it can use both cores: measured for
//                  80 MB (medians of 11), raw's read(2) 5.85 ms, mmap with
//                  1 thread 6.67 ms, with 2 threads 5.49 ms. For 8 MB one
//                  thread was faster (406 us against 584 us: starting a
//                  thread costs more than it saves), hence the threshold.
//                  Writes copy in one thread: two threads faulting new
//                  pages into one shared file mapping made 80 MB writes 4x
//                  slower here (contention in the kernel).
//
// Random access (ABI 1.2): read_at copies `count` elements from the mapping
// at element `offset`, read_box each contiguous run of the box
// (sdk::for_each_run); every page they touch is faulted in then, by that
// call. A reader therefore maps at open without reading anything ahead of
// what the kernel's read-around does on a fault: populate and advice
// willneed (which read the whole file) wait for the first read() or
// view(), which a read_at/read_box stream never gets (the host uses one or
// the other). advice random turns the kernel's fault read-around off, for
// random access that reads the pages asked for only; hugepage (the
// default) may fault in a large folio around each page. No direct I/O: a
// mapping is the page cache. A part's read_at offsets count from the
// part's first element; read_box on a part is refused (a box is in the
// whole data set's coordinates).
//
// Shared files (formatbench.part/1, MPI `layout: shared_file`): a part
// [offset, offset + count) reserves and maps only its own bytes (the
// mapping starts at the page boundary below them; the bytes of the page
// before the part are other parts' and are never stored to), so the parts
// of one file are written by several processes at once.
#include "copy_bytes.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;
using sdk::error;

// mmap's messages: "mmap: close '/tmp/x': Input/output error".
constexpr sdk::file_wording wording{.prefix = "mmap: ", .close = "close", .space_hint = true};

// Owns one mapping; empty (no mapping) for a zero-byte file, which mmap
// cannot map. data() is the first byte asked for, `skip` bytes past the
// page boundary where the mapping starts.
class mapping {
public:
    mapping() = default;
    mapping(void* base, std::size_t size, std::size_t skip = 0) : base_(base), size_(size), skip_(skip) {}
    mapping(mapping&& o) noexcept
        : base_(std::exchange(o.base_, nullptr)), size_(std::exchange(o.size_, 0)),
          skip_(std::exchange(o.skip_, 0)) {}
    mapping& operator=(mapping&& o) noexcept {
        if (this != &o) {
            reset();
            base_ = std::exchange(o.base_, nullptr);
            size_ = std::exchange(o.size_, 0);
            skip_ = std::exchange(o.skip_, 0);
        }
        return *this;
    }
    ~mapping() { reset(); }
    unsigned char* data() const noexcept { return static_cast<unsigned char*>(base_) + skip_; }
    // The bytes asked for (from data()).
    std::size_t size() const noexcept { return size_ - skip_; }
    bool empty() const noexcept { return base_ == nullptr; }
    // msync(2) of the whole mapping (it wants a page-aligned address).
    int sync() const noexcept { return ::msync(base_, size_, MS_SYNC); }
    // madvise(2) of the whole mapping.
    int advise(int advice) const noexcept { return ::madvise(base_, size_, advice); }
    void reset() noexcept {
        if (base_) ::munmap(base_, size_);
        base_ = nullptr;
        size_ = 0;
        skip_ = 0;
    }

private:
    void* base_ = nullptr;
    std::size_t size_ = 0; // of the whole mapping
    std::size_t skip_ = 0;
};

std::uint64_t byte_count(std::uint64_t count, std::size_t size, const std::string& path) {
    if (size != 0 && count > UINT64_MAX / size)
        throw error(FB_E_INVALID_OPTION, "mmap: element count " + std::to_string(count) + " for '" + path +
                                             "' overflows a 64-bit byte size");
    return count * size;
}

// What reads the whole mapping ahead of its use: MADV_POPULATE_READ/WRITE
// (option populate) and MADV_WILLNEED (advice willneed). Applied after the
// other advice, as map_file explains.
void prefetch(const sdk::file& f, const mapping& m, bool writable, bool populate, bool willneed) {
    if (m.empty()) return;
    if (willneed && m.advise(MADV_WILLNEED) != 0) f.fail("madvise(willneed) on", errno);
    if (populate && m.advise(writable ? MADV_POPULATE_WRITE : MADV_POPULATE_READ) != 0)
        f.fail("cannot populate (needs Linux 5.14 or later) the mapping of", errno);
}

// Maps [0, bytes) of fd, then applies advice and populate in that order:
// the advice decides how the page cache is filled (hugepage: large folios),
// so pages must not be faulted in before it. That is why populate uses
// MADV_POPULATE_READ/WRITE (Linux 5.14) after madvise and not MAP_POPULATE,
// which faults everything in at mmap time in 4 KiB pages. With ahead false
// (a reader at open) populate and willneed are left to prefetch().
mapping map_file(const sdk::file& f, std::uint64_t offset, std::size_t bytes, bool writable,
                 const sdk::options& o, bool ahead) {
    if (bytes == 0) return {};
    // mmap(2) maps from a page boundary: start at the one below offset.
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t start = offset / page * page;
    const auto skip = static_cast<std::size_t>(offset - start);
    bytes += skip;
    void* base = ::mmap(nullptr, bytes, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, f.fd(),
                        static_cast<off_t>(start));
    if (base == MAP_FAILED) f.fail("cannot map", errno);
    mapping m(base, bytes, skip);
    const std::string& advice = o.get_string("advice");
    int a = advice == "sequential" ? MADV_SEQUENTIAL
            : advice == "random"   ? MADV_RANDOM
            : advice == "hugepage" ? MADV_HUGEPAGE
                                   : MADV_NORMAL; // normal, and willneed (prefetch's)
    // A kernel without transparent huge pages refuses MADV_HUGEPAGE with
    // EINVAL; it is the default and only a hint, so it then goes unused.
    if (a != MADV_NORMAL && ::madvise(base, bytes, a) != 0 && !(a == MADV_HUGEPAGE && errno == EINVAL))
        f.fail("madvise(" + advice + ") on", errno);
    if (ahead) prefetch(f, m, writable, o.get_bool("populate"), advice == "willneed");
    return m;
}

// Copies n bytes out of a mapping with up to `threads` threads, each a
// contiguous slice (page-aligned cuts). Below 16 MiB, or if the system
// refuses a thread, the rest is copied by the calling thread: slower, same
// result.
void copy_with_threads(unsigned char* to, const unsigned char* from, std::size_t n, unsigned threads) {
    constexpr std::size_t parallel_min = std::size_t{16} << 20;
    if (n == 0) return; // an empty file has no mapping: no pointer to pass on
    if (threads <= 1 || n < parallel_min) {
        formatbench::detail::copy_bytes(to, from, n);
        return;
    }
    std::size_t slice = (n / threads + 4095) / 4096 * 4096;
    std::vector<std::thread> helpers;
    std::size_t at = slice; // the first slice is this thread's
    for (unsigned t = 1; t < threads && at < n; ++t, at += slice) {
        std::size_t len = std::min(slice, n - at);
        try {
            helpers.emplace_back([=] { formatbench::detail::copy_bytes(to + at, from + at, len); });
        } catch (const std::system_error&) {
            break;
        }
    }
    formatbench::detail::copy_bytes(to, from, std::min(slice, n));
    if (at < n) formatbench::detail::copy_bytes(to + at, from + at, n - at); // slices no thread took
    for (auto& h : helpers)
        h.join();
}

// A zero-byte payload has no mapping; views of it point here.
const unsigned char empty_payload[1] = {0};

struct mmap_format {
    static constexpr const char* advices[] = {"normal",   "sequential", "random",
                                              "willneed", "hugepage",   nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_bool(
            "populate", "false",
            "fault the whole mapping in at open (MADV_POPULATE_READ/WRITE) instead of page by page"),
        sdk::option_choice(
            "advice", "hugepage", advices,
            "madvise hint: normal | sequential | random | willneed | hugepage (large page-cache "
            "folios where the kernel and file system support them)"),
        sdk::option_bool("sync_on_close", "false", "msync(MS_SYNC) the written mapping before closing"),
        sdk::option_int("read_threads", "2", 1, 64,
                        "threads that copy a read of 16 MiB or more out of the mapping, each a slice"),
    };

    static constexpr bool parts = true;

    static sdk::plugin_info info() {
        return {"mmap",
                "1.1.0",
                "raw bytes through memory mappings: ftruncate + MAP_SHARED copy in, map + copy out "
                "(zero-copy view)",
                "MIT",
                "raw",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_NEEDS_COUNT};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r) : path_(r.path), size_(r.element_size()) {
            if (r.count == FB_COUNT_UNKNOWN)
                throw error(FB_E_UNSUPPORTED,
                            "mmap: writing '" + path_ +
                                "' needs the total element count at open (the file is sized "
                                "before it is mapped); this plugin declares needs-count");
            total_ = byte_count(r.count, size_, path_);
            const std::uint64_t first = r.part ? byte_count(r.part->offset, size_, path_) : 0;
            if (r.part) byte_count(r.part->total, size_, path_); // the whole file's size fits too
            sync_ = r.options.get_bool("sync_on_close");
            // O_RDWR: a shared writable mapping needs read access too. What
            // is at the path already (a user's file, /dev/full) is opened as
            // it is and never removed; a file we created is, if open fails.
            // A part opens the shared file as it is (not truncated).
            file_ = r.part ? sdk::file::open_shared(path_, wording, O_RDWR)
                           : sdk::file::create(path_, wording, O_RDWR);
            sdk::remove_on_failure guard(file_);
            if (!S_ISREG(file_.status().st_mode))
                throw error(FB_E_IO, "mmap: '" + path_ +
                                         "' is not a regular file (a device, FIFO or directory); mmap can "
                                         "only size and map a regular file: write to a file path instead");
            if (total_ > 0) {
                // Reserve every block now: see SIGBUS in the header comment.
                // (It also extends the file to the part's end.)
                int e = ::posix_fallocate(file_.fd(), static_cast<off_t>(first), static_cast<off_t>(total_));
                if (e != 0) file_.fail("cannot reserve " + std::to_string(total_) + " bytes for", e);
            }
            map_ = map_file(file_, first, static_cast<std::size_t>(total_), true, r.options, true);
            guard.commit();
        }

        void write(const void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "mmap: write to '" + path_ + "' after close");
            std::uint64_t bytes = byte_count(count, size_, path_);
            if (bytes > total_ - offset_)
                throw error(FB_E_STATE, "mmap: write to '" + path_ + "' goes past the " +
                                            std::to_string(total_ / size_) +
                                            " elements announced at open; the file was sized for that count");
            if (bytes > 0)
                formatbench::detail::copy_bytes(map_.data() + offset_,
                                                static_cast<const unsigned char*>(data),
                                                static_cast<std::size_t>(bytes));
            offset_ += bytes;
        }

        void close() {
            if (!file_.is_open()) return;
            if (sync_ && !map_.empty() && map_.sync() != 0) file_.fail("msync of", errno);
            map_.reset();
            file_.close();
            if (offset_ != total_)
                throw error(FB_E_STATE, "mmap: '" + path_ + "' was sized for " +
                                            std::to_string(total_ / size_) + " elements but only " +
                                            std::to_string(offset_ / size_) +
                                            " were written; the rest of the file is zeros");
        }

    private:
        std::string path_;
        std::size_t size_;
        std::uint64_t total_ = 0;
        std::uint64_t offset_ = 0;
        bool sync_ = false;
        sdk::file file_;
        mapping map_;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r) : path_(r.path), size_(r.element_size()) {
            file_ = sdk::file::open_read(path_, wording);
            struct stat st = file_.status();
            if (!S_ISREG(st.st_mode))
                throw error(FB_E_IO,
                            "mmap: '" + path_ + "' is not a regular file; only regular files can be mapped");
            total_ = static_cast<std::uint64_t>(st.st_size);
            threads_ = static_cast<unsigned>(r.options.get_int("read_threads"));
            check_size(r);
            std::uint64_t first = 0;
            if (r.part) {
                // The part's bytes only; total_ is from now on what this
                // stream may read.
                first = byte_count(r.part->offset, size_, path_);
                total_ = byte_count(r.count, size_, path_);
            }
            populate_ = r.options.get_bool("populate");
            willneed_ = r.options.get_string("advice") == "willneed";
            shape_ = r.shape;
            part_ = r.part.has_value();
            if (!shape_.empty()) check_shape(r.part ? r.part->total : total_ / size_);
            map_ = map_file(file_, first, static_cast<std::size_t>(total_), false, r.options, false);
        }

        void read(void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "mmap: read from '" + path_ + "' after close");
            prefetch_once();
            std::uint64_t bytes = byte_count(count, size_, path_);
            if (bytes > total_ - offset_)
                throw error(FB_E_TRUNCATED, "mmap: '" + path_ + "' ends after " + std::to_string(total_) +
                                                " bytes, in the middle of a read of " +
                                                std::to_string(count) + " values");
            copy_with_threads(static_cast<unsigned char*>(data), map_.data() + offset_,
                              static_cast<std::size_t>(bytes), threads_);
            offset_ += bytes;
        }

        // The zero-copy read extension: the mapping itself, valid until close.
        const void* view(std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "mmap: view of '" + path_ + "' after close");
            if (byte_count(count, size_, path_) > total_)
                throw error(FB_E_TRUNCATED,
                            "mmap: '" + path_ + "' holds fewer than " + std::to_string(count) + " values");
            prefetch_once();
            return map_.empty() ? empty_payload : map_.data();
        }

        // formatbench.read-at/1: a copy out of the mapping at element offset.
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "mmap: read_at on '" + path_ + "' after close");
            const std::uint64_t held = total_ / size_;
            if (offset > held || count > held - offset)
                throw error(FB_E_TRUNCATED, "mmap: elements [" + std::to_string(offset) + ", " +
                                                std::to_string(offset + count) + ") lie outside the " +
                                                std::to_string(held) + " of '" + path_ + "'");
            copy_out(static_cast<unsigned char*>(data), offset, count);
        }

        // formatbench.read-box/1: a copy of each contiguous run of the box.
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            if (!file_.is_open()) throw error(FB_E_STATE, "mmap: read_box on '" + path_ + "' after close");
            if (part_)
                throw error(FB_E_UNSUPPORTED,
                            "mmap: read_box on a part of '" + path_ +
                                "': a box is in the whole data set's coordinates; open the whole file "
                                "or use read_at on the part");
            auto* out = static_cast<unsigned char*>(data);
            sdk::for_each_run(shape_, start, count,
                              [&](std::uint64_t offset, std::uint64_t length, std::uint64_t position) {
                                  copy_out(out + position * size_, offset, length);
                              });
        }

        void close() {
            map_.reset();
            file_.reset();
        }

    private:
        // populate and willneed, once, at the first sequential read or view.
        void prefetch_once() {
            if (prefetched_) return;
            prefetched_ = true;
            prefetch(file_, map_, false, populate_, willneed_);
        }

        void copy_out(unsigned char* to, std::uint64_t offset, std::uint64_t count) const {
            if (count == 0) return; // an empty file has no mapping
            formatbench::detail::copy_bytes(to, map_.data() + offset * size_,
                                            static_cast<std::size_t>(count * size_));
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
                throw error(FB_E_STATE, "mmap: the shape (" + text + ") given for '" + path_ + "' holds " +
                                            std::to_string(product) + " elements, the file " +
                                            std::to_string(whole));
        }

        void check_size(const sdk::open_request& r) {
            std::string what = sdk::dtype_name(r.dtype);
            // A part checks the whole file's size: `total` values.
            const std::uint64_t count = r.part ? r.part->total : r.count;
            if (count == FB_COUNT_UNKNOWN) {
                if (total_ % size_ != 0)
                    throw error(FB_E_CORRUPT, "mmap: '" + path_ + "' holds " + std::to_string(total_) +
                                                  " bytes, not a whole number of " + what + " values");
                return;
            }
            std::uint64_t expected = byte_count(count, size_, path_);
            std::string sizes = "expected " + std::to_string(expected) + " bytes (" + std::to_string(count) +
                                " " + what + " values), found " + std::to_string(total_);
            if (total_ < expected)
                throw error(FB_E_TRUNCATED,
                            "mmap: '" + path_ + "' is too small: " + sizes +
                                "; the file is truncated or was written with a smaller count");
            if (total_ > expected)
                throw error(FB_E_CORRUPT, "mmap: '" + path_ + "' is too large: " + sizes +
                                              "; a raw file holds nothing but the values, so the count or "
                                              "dtype does not match the file");
        }

        std::string path_;
        std::size_t size_;
        std::uint64_t total_ = 0;
        std::uint64_t offset_ = 0;
        unsigned threads_ = 2;
        bool populate_ = false, willneed_ = false, prefetched_ = false;
        std::vector<std::uint64_t> shape_; // the data set's (read_box)
        bool part_ = false;
        sdk::file file_;
        mapping map_;
    };
};

} // namespace

FORMATBENCH_PLUGIN(mmap_format)

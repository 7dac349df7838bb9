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
//   populate       fault the whole mapping in at open (MADV_POPULATE_*)
//                  instead of page by page; default false (slower here).
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

// Maps [0, bytes) of fd, then applies advice and populate in that order:
// the advice decides how the page cache is filled (hugepage: large folios),
// so pages must not be faulted in before it. That is why populate uses
// MADV_POPULATE_READ/WRITE (Linux 5.14) after madvise and not MAP_POPULATE,
// which faults everything in at mmap time in 4 KiB pages.
mapping map_file(const sdk::file& f, std::uint64_t offset, std::size_t bytes, bool writable,
                 const sdk::options& o) {
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
            : advice == "willneed" ? MADV_WILLNEED
            : advice == "hugepage" ? MADV_HUGEPAGE
                                   : MADV_NORMAL;
    // A kernel without transparent huge pages refuses MADV_HUGEPAGE with
    // EINVAL; it is the default and only a hint, so it then goes unused.
    if (a != MADV_NORMAL && ::madvise(base, bytes, a) != 0 && !(a == MADV_HUGEPAGE && errno == EINVAL))
        f.fail("madvise(" + advice + ") on", errno);
    if (o.get_bool("populate") &&
        ::madvise(base, bytes, writable ? MADV_POPULATE_WRITE : MADV_POPULATE_READ) != 0)
        f.fail("cannot populate (needs Linux 5.14 or later) the mapping of", errno);
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
                "1.0.0",
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
            map_ = map_file(file_, first, static_cast<std::size_t>(total_), true, r.options);
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
            map_ = map_file(file_, first, static_cast<std::size_t>(total_), false, r.options);
        }

        void read(void* data, std::uint64_t count) {
            if (!file_.is_open()) throw error(FB_E_STATE, "mmap: read from '" + path_ + "' after close");
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
            return map_.empty() ? empty_payload : map_.data();
        }

        void close() {
            map_.reset();
            file_.reset();
        }

    private:
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
        sdk::file file_;
        mapping map_;
    };
};

} // namespace

FORMATBENCH_PLUGIN(mmap_format)

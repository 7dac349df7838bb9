// Random-access reading of byte ranges of a regular file by pread(2), with
// or without O_DIRECT, and the sieve that gathers a box's runs: the
// read-at, read-box and direct paths of the raw and npy plugins. Header-only,
// so that each plugin and its fuzz target compile their own copy.
//
// Contract: range_reader::read(file, dest, n, at) puts the n bytes at byte
// `at` of the file into dest and returns how many it got (fewer only where
// the file ends). Every byte comes from a pread(2) made in that call, or,
// with a window (raw's buffer_size), from the window that an earlier call
// filled by pread: never from a copy of the file made at open.
//
// O_DIRECT wants the file offset, the length and the buffer's address
// aligned (statx STATX_DIOALIGN says to what). A range that is aligned goes
// straight from the file into dest; anything else (a header before the
// payload, an unaligned tail, a caller's unaligned buffer) is read as whole
// aligned blocks into an aligned bounce buffer of this reader's and copied.
#pragma once

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench::direct_io {

// What O_DIRECT asks of a transfer on one file, in bytes.
struct alignment {
    std::size_t memory = 4096; // of the buffer's address
    std::size_t offset = 4096; // of the file offset and the length
    bool reported = false;     // statx said so (else the fallback below)
};

// The alignment when the kernel does not report one (statx STATX_DIOALIGN
// needs Linux 6.1 and a file system that fills it in; tmpfs does not). The
// logical block size of the device cannot be asked for a file (BLKSSZGET is
// an ioctl on the block device, which a reader of a file need not be able
// to open). 4096 rather than 512: it is the largest logical block size in
// common use (4Kn disks) and a multiple of 512, so a transfer aligned to it
// is accepted by 512-byte devices too, where 512 would fail with EINVAL on a
// 4Kn disk. The only cost is that a range aligned to 512 but not to 4096 is
// bounced.
inline constexpr std::size_t fallback_alignment = 4096;

// The host's buffers for direct reads are aligned to this (plugin.h,
// FB_OPEN_DIRECT); this reader's own buffers are aligned to at least this.
inline constexpr std::size_t buffer_alignment = 4096;

inline bool power_of_two(std::uint64_t x) noexcept {
    return x != 0 && (x & (x - 1)) == 0;
}

// The O_DIRECT alignment of an open file: statx's when it reports one (and
// it is a power of two up to 1 MiB), else fallback_alignment for both.
inline alignment query_alignment(int fd) noexcept {
#ifdef STATX_DIOALIGN
    struct statx sx {};
    if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        power_of_two(sx.stx_dio_mem_align) && power_of_two(sx.stx_dio_offset_align) &&
        sx.stx_dio_offset_align <= (1u << 20) && sx.stx_dio_mem_align <= (1u << 20))
        return {sx.stx_dio_mem_align, sx.stx_dio_offset_align, true};
#else
    (void)fd;
#endif
    return {fallback_alignment, fallback_alignment, false};
}

// Turns O_DIRECT on for a file opened read-only by sdk::file (which takes no
// open flags). On Linux fcntl(F_SETFL) may set O_DIRECT and refuses it with
// EINVAL exactly where open(O_DIRECT) does (the file system has no direct
// I/O: tmpfs before Linux 6.6, /proc, some FUSE file systems). `plugin` is
// the message prefix ("raw: "). Throws sdk::error: FB_E_UNSUPPORTED for a
// file that is not regular or a file system that refuses, FB_E_IO otherwise.
inline void enable_direct(const sdk::file& f, std::string_view plugin) {
    struct stat st = f.status();
    if (!S_ISREG(st.st_mode))
        throw sdk::error(FB_E_UNSUPPORTED, std::string(plugin) +
                                               "direct I/O (O_DIRECT) needs a regular file; '" + f.path() +
                                               "' is a FIFO, device or directory: read it without direct");
    const int flags = ::fcntl(f.fd(), F_GETFL);
    if (flags < 0) f.fail("cannot get the file status flags of", errno);
    if (::fcntl(f.fd(), F_SETFL, flags | O_DIRECT) != 0) {
        if (errno == EINVAL)
            throw sdk::error(FB_E_UNSUPPORTED,
                             std::string(plugin) + "the file system of '" + f.path() +
                                 "' refuses O_DIRECT (Invalid argument; tmpfs, /proc and some FUSE file "
                                 "systems have no direct I/O): put the file on a disk file system such as "
                                 "ext4 or xfs (e.g. under /var/tmp), or read without direct");
        f.fail("cannot set O_DIRECT on", errno);
    }
}

// Memory aligned to `align` (a power of two), freed with std::free.
struct free_deleter {
    void operator()(unsigned char* p) const noexcept { std::free(p); }
};
using aligned_bytes = std::unique_ptr<unsigned char[], free_deleter>;

inline aligned_bytes allocate_aligned(std::size_t align, std::size_t bytes) {
    align = std::max(align, alignof(std::max_align_t));
    const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded);
    if (!p) throw std::bad_alloc();
    return aligned_bytes(static_cast<unsigned char*>(p));
}

class range_reader {
public:
    // The largest bounce buffer (rounded up to the alignment): a range of
    // more than this is bounced in pieces of it.
    static constexpr std::size_t bounce_max = std::size_t{1} << 20;

    range_reader() = default;
    // direct: `f` has O_DIRECT on (enable_direct), and `align` is its
    // alignment. window > 0: every pread(2) is of exactly `window` bytes
    // into a buffer of that size (from the requested position, rounded down
    // to the alignment when direct), and a request starting inside the
    // window's bytes is served from it (what stdio does after fseek within
    // its buffer). With direct, window must be a multiple of align.offset.
    range_reader(bool direct, alignment align, std::size_t window, std::string_view plugin)
        : direct_(direct), align_(align), window_(window), plugin_(plugin) {}

    bool direct() const noexcept { return direct_; }
    const alignment& align() const noexcept { return align_; }

    // Reads n bytes at byte `at` of f into dest; returns the bytes read
    // (fewer than n only where the file ends). Throws sdk::error (FB_E_IO).
    std::size_t read(const sdk::file& f, unsigned char* dest, std::size_t n, std::uint64_t at) {
        if (n == 0) return 0;
        if (window_ > 0) return windowed(f, dest, n, at);
        if (!direct_) return pread_full(f, dest, n, at);
        std::size_t done = 0;
        // Aligned address and offset: the whole blocks straight into dest.
        if (reinterpret_cast<std::uintptr_t>(dest) % align_.memory == 0 && at % align_.offset == 0) {
            const std::size_t whole = n / align_.offset * align_.offset;
            if (whole > 0) {
                done = pread_full(f, dest, whole, at);
                if (done < whole) return done;
            }
        }
        // The rest as whole blocks through the bounce buffer.
        while (done < n) {
            const std::uint64_t pos = at + done;
            const std::uint64_t start = pos / align_.offset * align_.offset;
            const auto skip = static_cast<std::size_t>(pos - start);
            if (!bounce_) {
                bounce_size_ = std::max(round_up(bounce_max), 2 * align_.offset);
                bounce_ = allocate_aligned(std::max(align_.memory, buffer_alignment), bounce_size_);
            }
            const std::size_t want = std::min(bounce_size_, round_up(skip + (n - done)));
            const std::size_t got = pread_full(f, bounce_.get(), want, start);
            if (got <= skip) break; // the file ends before pos
            const std::size_t k = std::min(got - skip, n - done);
            std::memcpy(dest + done, bounce_.get() + skip, k);
            done += k;
            if (got < want) break; // the file ends here
        }
        return done;
    }

private:
    std::size_t round_up(std::size_t n) const noexcept {
        return (n + align_.offset - 1) / align_.offset * align_.offset;
    }

    std::size_t windowed(const sdk::file& f, unsigned char* dest, std::size_t n, std::uint64_t at) {
        if (!buffer_) buffer_ = allocate_aligned(std::max(align_.memory, buffer_alignment), window_);
        std::size_t done = 0;
        while (done < n) {
            const std::uint64_t pos = at + done;
            if (pos >= window_start_ && pos - window_start_ < window_filled_) {
                const auto from = static_cast<std::size_t>(pos - window_start_);
                const std::size_t k = std::min(window_filled_ - from, n - done);
                std::memcpy(dest + done, buffer_.get() + from, k);
                done += k;
                continue;
            }
            const std::uint64_t start = direct_ ? pos / align_.offset * align_.offset : pos;
            window_start_ = start;
            window_filled_ = 0; // stays empty if the pread throws
            window_filled_ = pread_full(f, buffer_.get(), window_, start);
            if (window_filled_ <= pos - start) break; // the file ends before pos
        }
        return done;
    }

    // pread(2) until n bytes are in or the file ends, one call per
    // sdk::file::max_transfer bytes (rounded down to the alignment when
    // direct), retrying EINTR. With O_DIRECT a short read means the end of
    // the file: it stops there rather than ask again at an unaligned offset.
    std::size_t pread_full(const sdk::file& f, unsigned char* dest, std::size_t n, std::uint64_t at) const {
        const std::size_t most =
            direct_ ? sdk::file::max_transfer / align_.offset * align_.offset : sdk::file::max_transfer;
        std::size_t done = 0;
        while (done < n) {
            const std::size_t ask = std::min(n - done, most);
            const ssize_t k = ::pread(f.fd(), dest + done, ask, static_cast<off_t>(at + done));
            if (k < 0) {
                if (errno == EINTR) continue;
                if (errno == EINVAL && direct_)
                    throw sdk::error(FB_E_IO, std::string(plugin_) + "an O_DIRECT read of " +
                                                  std::to_string(ask) + " bytes at byte " +
                                                  std::to_string(at + done) + " of '" + f.path() +
                                                  "' was refused (Invalid argument): the file system wants "
                                                  "another alignment than the " +
                                                  std::to_string(align_.offset) + " bytes " +
                                                  (align_.reported ? "statx reported" : "assumed") +
                                                  "; read without direct");
                f.fail("read from", errno);
            }
            if (k == 0) break;
            done += static_cast<std::size_t>(k);
            if (direct_ && static_cast<std::size_t>(k) < ask) break;
        }
        return done;
    }

    bool direct_ = false;
    alignment align_{};
    std::size_t window_ = 0;
    std::string_view plugin_;
    aligned_bytes bounce_;
    std::size_t bounce_size_ = 0;
    aligned_bytes buffer_; // the window
    std::uint64_t window_start_ = 0;
    std::size_t window_filled_ = 0;
};

// The runs of one read_box (sdk::for_each_run), gathered: runs that follow
// each other in the file with gaps of at most gap_max bytes are read as one
// span of at most span_max bytes into this sieve's buffer and copied out,
// one read instead of one per run (HDF5 reads contiguous datasets through
// a sieve buffer likewise). A plane orthogonal to the last axis is one
// element every row, so without this it costs a pread per element; with
// it, a pread per MiB of the file. A span of one run is read straight into
// its destination. Runs must come in increasing file order, as
// for_each_run gives them. fetch(dest, n, at) is the plugin's read of n
// bytes at byte `at`, which throws when it gets fewer.
class run_sieve {
public:
    // A gap is worth reading through when copying it costs about what a
    // system call does.
    static constexpr std::size_t gap_max = 4096;
    static constexpr std::size_t span_max = std::size_t{1} << 20;

    template <class Fetch>
    void add(std::uint64_t at, std::size_t n, unsigned char* dest, Fetch& fetch) {
        if (!runs_.empty() && at >= end_ && at - end_ <= gap_max && at + n - start_ <= span_max) {
            runs_.push_back({at, n, dest});
            end_ = at + n;
            return;
        }
        flush(fetch);
        runs_.push_back({at, n, dest});
        start_ = at;
        end_ = at + n;
    }

    template <class Fetch>
    void flush(Fetch& fetch) {
        if (runs_.size() == 1) {
            fetch(runs_.front().dest, runs_.front().n, runs_.front().at);
        } else if (!runs_.empty()) {
            const auto span = static_cast<std::size_t>(end_ - start_);
            if (buffer_.size() < span) buffer_.resize(span);
            fetch(buffer_.data(), span, start_);
            for (const run& r : runs_)
                std::memcpy(r.dest, buffer_.data() + (r.at - start_), r.n);
        }
        runs_.clear();
    }

private:
    struct run {
        std::uint64_t at;
        std::size_t n;
        unsigned char* dest;
    };
    std::vector<run> runs_;             // of the current span
    std::uint64_t start_ = 0, end_ = 0; // the span's bytes [start_, end_)
    std::vector<unsigned char> buffer_; // at most span_max bytes
};

} // namespace formatbench::direct_io

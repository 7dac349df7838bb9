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
#include <formatbench/plugin.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

// Linux moves at most this many bytes per read(2)/write(2) call anyway.
constexpr std::size_t max_io_bytes = 0x7ffff000;
// Scratch size for byte-swapping the caller's (const) data when unbuffered.
constexpr std::size_t swap_scratch_bytes = 1u << 20;

// Owns a file descriptor; movable so the SDK may move the stream objects.
class unique_fd {
public:
    unique_fd() = default;
    explicit unique_fd(int fd) : fd_(fd) {}
    unique_fd(unique_fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    unique_fd& operator=(unique_fd&& o) noexcept {
        if (this != &o) {
            reset();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    ~unique_fd() { reset(); }
    int get() const noexcept { return fd_; }
    int release() noexcept { return std::exchange(fd_, -1); }
    void reset() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

std::string errno_text(int errnum) {
    std::string text = std::strerror(errnum);
    if (errnum == ENOSPC || errnum == EDQUOT) text += " (free space there or choose another directory)";
    return text;
}

[[noreturn]] void throw_io(const char* what, const std::string& path, int errnum) {
    throw error(FB_E_IO, std::string("raw: ") + what + " '" + path + "': " + errno_text(errnum));
}

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

// Reverses the bytes of each element in place; size is 1, 4 or 8.
void swap_in_place(unsigned char* p, std::size_t count, std::size_t size) {
    if (size == 8) {
        for (std::size_t i = 0; i < count; ++i, p += 8) {
            std::uint64_t v;
            std::memcpy(&v, p, 8);
            v = __builtin_bswap64(v);
            std::memcpy(p, &v, 8);
        }
    } else if (size == 4) {
        for (std::size_t i = 0; i < count; ++i, p += 4) {
            std::uint32_t v;
            std::memcpy(&v, p, 4);
            v = __builtin_bswap32(v);
            std::memcpy(p, &v, 4);
        }
    }
}

// write(2) of all n bytes, retrying after EINTR and short writes.
void write_all(int fd, const unsigned char* p, std::size_t n, const std::string& path) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, std::min(n, max_io_bytes));
        if (w < 0) {
            if (errno == EINTR) continue;
            throw_io("write to", path, errno);
        }
        if (w == 0) throw error(FB_E_IO, "raw: write to '" + path + "' made no progress");
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

// read(2) until n bytes or end of file; returns the bytes read.
std::size_t read_full(int fd, unsigned char* p, std::size_t n, const std::string& path) {
    std::size_t done = 0;
    while (done < n) {
        ssize_t r = ::read(fd, p + done, std::min(n - done, max_io_bytes));
        if (r < 0) {
            if (errno == EINTR) continue;
            throw_io("read from", path, errno);
        }
        if (r == 0) break;
        done += static_cast<std::size_t>(r);
    }
    return done;
}

struct raw_format {
    static constexpr const char* byte_orders[] = {"native", "little", "big", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_size("buffer_size", "0", 0, 1024.0 * 1024 * 1024,
                         "bytes per system call through a buffer; 0 = one write(2)/read(2) per chunk"),
        sdk::option_choice("byte_order", "native", byte_orders,
                           "byte order in the file: native | little | big (swapped on the fly)"),
    };

    static sdk::plugin_info info() {
        return {"raw",
                "1.0.0",
                "unformatted stream: the array's bytes and nothing else (POSIX write/read)",
                "MIT",
                "raw",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), swap_(size_ > 1 && needs_swap(r.options)) {
            // Allocate before creating the file: once the file exists nothing
            // here can fail, so a failed open leaves nothing at the path.
            buffer_.resize(r.options.get_size("buffer_size"));
            if (swap_) scratch_.resize(std::max<std::size_t>(swap_scratch_bytes / size_, 1) * size_);
            int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
            if (fd < 0) throw_io("cannot create", path_, errno);
            fd_ = unique_fd(fd);
        }

        void write(const void* data, std::uint64_t count) {
            if (fd_.get() < 0) throw error(FB_E_STATE, "raw: write to '" + path_ + "' after close");
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
            if (fd_.get() < 0) return;
            if (used_ > 0) {
                std::size_t n = std::exchange(used_, 0);
                write_all(fd_.get(), buffer_.data(), n, path_);
            }
            // close(2) can report a delayed write error (NFS, quota): check it.
            if (::close(fd_.release()) != 0 && errno != EINTR) throw_io("close", path_, errno);
        }

    private:
        // Unbuffered: straight to write(2). Buffered: through buffer_, one
        // full buffer per system call.
        void put(const unsigned char* p, std::uint64_t bytes) {
            if (buffer_.empty()) {
                write_all(fd_.get(), p, static_cast<std::size_t>(bytes), path_);
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
                    write_all(fd_.get(), buffer_.data(), buffer_.size(), path_);
                }
            }
        }

        std::string path_;
        std::size_t size_;
        bool swap_;
        unique_fd fd_;
        std::vector<unsigned char> buffer_;
        std::size_t used_ = 0;
        std::vector<unsigned char> scratch_;
    };

    class reader {
    public:
        explicit reader(const sdk::open_request& r)
            : path_(r.path), dtype_(r.dtype), size_(r.element_size()),
              swap_(size_ > 1 && needs_swap(r.options)) {
            buffer_.resize(r.options.get_size("buffer_size"));
            int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) throw_io("cannot open", path_, errno);
            fd_ = unique_fd(fd);
            struct stat st {};
            if (::fstat(fd, &st) != 0) throw_io("cannot stat", path_, errno);
            if (S_ISDIR(st.st_mode))
                throw error(FB_E_IO, "raw: '" + path_ + "' is a directory, not a raw file");
            // Only a regular file has a size to check; a FIFO or a device is
            // read as a stream and a short one ends in FB_E_TRUNCATED.
            if (S_ISREG(st.st_mode)) check_size(static_cast<std::uint64_t>(st.st_size), r);
        }

        void read(void* data, std::uint64_t count) {
            if (fd_.get() < 0) throw error(FB_E_STATE, "raw: read from '" + path_ + "' after close");
            auto* p = static_cast<unsigned char*>(data);
            std::uint64_t bytes = byte_count(count, size_, path_);
            std::uint64_t got = buffer_.empty()
                                    ? read_full(fd_.get(), p, static_cast<std::size_t>(bytes), path_)
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

        void close() {
            if (fd_.get() >= 0) ::close(fd_.release()); // nothing to flush; an error here changes nothing
        }

    private:
        void check_size(std::uint64_t actual, const sdk::open_request& r) {
            std::string what = sdk::dtype_name(r.dtype);
            if (r.count == FB_COUNT_UNKNOWN) {
                if (actual % size_ != 0)
                    throw error(FB_E_CORRUPT, "raw: '" + path_ + "' holds " + std::to_string(actual) +
                                                  " bytes, not a whole number of " + what + " values");
                return;
            }
            std::uint64_t expected = byte_count(r.count, size_, path_);
            std::string sizes = "expected " + std::to_string(expected) + " bytes (" +
                                std::to_string(r.count) + " " + what + " values), found " +
                                std::to_string(actual);
            if (actual < expected)
                throw error(FB_E_TRUNCATED,
                            "raw: '" + path_ + "' is too small: " + sizes +
                                "; the file is truncated or was written with a smaller count");
            if (actual > expected)
                throw error(FB_E_CORRUPT, "raw: '" + path_ + "' is too large: " + sizes +
                                              "; a raw file holds nothing but the values, so the count or "
                                              "dtype does not match the file");
        }

        // Buffered read: refill buffer_ with one read(2) of its size at a time.
        std::uint64_t take(unsigned char* p, std::uint64_t bytes) {
            std::uint64_t done = 0;
            while (done < bytes) {
                if (pos_ == filled_) {
                    pos_ = 0;
                    filled_ = read_full(fd_.get(), buffer_.data(), buffer_.size(), path_);
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
        unique_fd fd_;
        std::vector<unsigned char> buffer_;
        std::size_t pos_ = 0, filled_ = 0;
        std::uint64_t offset_ = 0;
    };
};

} // namespace

FORMATBENCH_PLUGIN(raw_format)

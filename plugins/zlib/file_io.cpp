// POSIX file access with EINTR and short-transfer handling; see file_io.hpp.
#include "file_io.hpp"

#include <formatbench/plugin.hpp>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace formatbench::detail {

using sdk::io_error;

// Linux transfers at most 0x7ffff000 bytes per call; ask for no more.
constexpr std::size_t max_transfer = std::size_t{1} << 30;

output_file::output_file(std::string path, std::size_t buffer_size) : path_(std::move(path)) {
    buffer_.resize(buffer_size);
}

output_file::~output_file() {
    if (fd_ >= 0) ::close(fd_);
}

void output_file::open() {
    // O_EXCL first, to know whether we created the file: discard() must
    // never remove something that was there before (a device such as
    // /dev/full, or a file the host chose to keep).
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
        created_ = true;
        return;
    }
    if (errno == EEXIST) fd_ = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd_ < 0) throw io_error("zlib: cannot create", path_, errno);
}

void output_file::discard() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (created_) ::unlink(path_.c_str());
    created_ = false;
}

void output_file::abandon() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    used_ = 0;
}

std::span<unsigned char> output_file::space() {
    if (used_ == buffer_.size()) flush();
    return {buffer_.data() + used_, buffer_.size() - used_};
}

void output_file::append(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    if (used_ == 0 && n >= buffer_.size()) return write_all(p, n);
    while (n > 0) {
        auto room = space();
        std::size_t k = n < room.size() ? n : room.size();
        std::memcpy(room.data(), p, k);
        used_ += k;
        p += k;
        n -= k;
    }
}

void output_file::flush() {
    if (used_ == 0) return;
    std::size_t n = used_;
    used_ = 0; // after a failure the bytes are dropped, not written twice
    write_all(buffer_.data(), n);
}

void output_file::write_all(const unsigned char* data, std::size_t n) {
    if (fd_ < 0) throw sdk::error(FB_E_STATE, "zlib: write to '" + path_ + "' after it was closed");
    while (n > 0) {
        ssize_t k = ::write(fd_, data, n < max_transfer ? n : max_transfer);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw io_error("zlib: cannot write", path_, errno);
        }
        // write(2) returning 0 for a non-zero count means no progress is
        // possible; report it rather than spin.
        if (k == 0) throw io_error("zlib: cannot write", path_, ENOSPC);
        data += k;
        n -= static_cast<std::size_t>(k);
        written_ += static_cast<std::uint64_t>(k);
    }
}

void output_file::close() {
    flush();
    int fd = fd_;
    fd_ = -1;
    // close(2) is not retried on EINTR: on Linux the descriptor is gone.
    if (fd >= 0 && ::close(fd) != 0 && errno != EINTR) throw io_error("zlib: cannot close", path_, errno);
}

input_file::input_file(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw io_error("zlib: cannot open", path_, errno);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        int e = errno;
        close();
        throw io_error("zlib: cannot stat", path_, e);
    }
    if (S_ISDIR(st.st_mode)) {
        close();
        throw io_error("zlib: cannot read", path_, EISDIR);
    }
    size_ = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
}

input_file::~input_file() {
    close();
}

void input_file::close() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

std::size_t input_file::read_some(void* data, std::size_t n) {
    if (fd_ < 0) throw sdk::error(FB_E_STATE, "zlib: read from '" + path_ + "' after it was closed");
    auto* p = static_cast<unsigned char*>(data);
    std::size_t got = 0;
    while (got < n) {
        std::size_t want = n - got < max_transfer ? n - got : max_transfer;
        ssize_t k = ::read(fd_, p + got, want);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw io_error("zlib: cannot read", path_, errno);
        }
        if (k == 0) break;
        got += static_cast<std::size_t>(k);
    }
    return got;
}

} // namespace formatbench::detail

// POSIX file helpers of the ascii plugin (see file_io.hpp).
#include "file_io.hpp"

#include <formatbench/plugin.hpp>

#include <cerrno>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

namespace formatbench::detail {

namespace {

constexpr std::size_t page_size = 4096;
constexpr std::size_t huge_page_size = std::size_t{2} << 20;

} // namespace

// Buffers of a megabyte or more are 2 MiB-aligned and marked for transparent
// huge pages: here first touching 8 MB of fresh 4 KiB pages cost 3.4 ms of
// CPU, with huge pages 0.2 ms, and a stream's buffers are fresh each time.
// madvise is a hint: where THP is off the buffer simply stays in small pages.
aligned_buffer make_aligned_buffer(std::size_t bytes) {
    bool huge = bytes >= (std::size_t{1} << 20);
    std::size_t align = huge ? huge_page_size : page_size;
    std::size_t rounded = bytes == 0 ? align : (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded);
    if (!p) throw std::bad_alloc();
    if (huge) ::madvise(p, rounded, MADV_HUGEPAGE);
    return aligned_buffer(static_cast<char*>(p));
}

file::~file() {
    if (fd_ >= 0) ::close(fd_);
}

void file::create(const std::string& path) {
    path_ = path;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) throw sdk::io_error("cannot create", path, errno);
}

void file::open_read(const std::string& path) {
    path_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw sdk::io_error("cannot open", path, errno);
}

void file::write_all(const char* data, std::size_t size) {
    while (size > 0) {
        ssize_t n = ::write(fd_, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw sdk::io_error("cannot write", path_, errno);
        }
        if (n == 0) throw sdk::io_error("cannot write", path_, EIO); // no progress: never loop forever
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

std::size_t file::read_full(char* data, std::size_t size) {
    std::size_t got = 0;
    while (got < size) {
        ssize_t n = ::read(fd_, data + got, size - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw sdk::io_error("cannot read", path_, errno);
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    return got;
}

void file::close() {
    if (fd_ < 0) return;
    int fd = fd_;
    fd_ = -1;
    // No retry on EINTR: on Linux the descriptor is gone either way.
    if (::close(fd) != 0 && errno != EINTR) throw sdk::io_error("cannot close", path_, errno);
}

} // namespace formatbench::detail

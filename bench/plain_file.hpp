// Whole-file POSIX I/O for the bench programs' references: open, write(2)
// or read(2) until done, close; no library between the data and the
// kernel. Any failure throws. Not a test.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

namespace formatbench::bench {

// Creates or truncates path and writes bytes from data.
inline void write_file(const std::string& path, const void* data, std::size_t bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
    const char* p = static_cast<const char*>(data);
    while (bytes) {
        const ssize_t w = ::write(fd, p, bytes);
        if (w <= 0) {
            ::close(fd);
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        }
        p += w;
        bytes -= static_cast<std::size_t>(w);
    }
    if (::close(fd) != 0) throw std::runtime_error("cannot close " + path + ": " + std::strerror(errno));
}

// Reads exactly bytes from the start of path into data.
inline void read_exact(const std::string& path, void* data, std::size_t bytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    char* p = static_cast<char*>(data);
    while (bytes) {
        const ssize_t r = ::read(fd, p, bytes);
        if (r <= 0) {
            ::close(fd);
            throw std::runtime_error("cannot read " + path + (r == 0 ? ": it is shorter than asked" : ""));
        }
        p += r;
        bytes -= static_cast<std::size_t>(r);
    }
    ::close(fd);
}

} // namespace formatbench::bench

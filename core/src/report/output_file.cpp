// Output files and standard output (output_file.hpp).
#include "report/output_file.hpp"

#include "base/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace formatbench {
namespace {

bool is_stdout(const std::string& path) {
    return path.empty() || path == "-";
}

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
    throw std::runtime_error(fmt::format("cannot {} '{}': {}", what, path, std::strerror(err)));
}

void write_fd(int fd, const std::string& text, const std::string& path) {
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("write", path, errno);
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

void write_atomically(const std::string& path, const std::string& text) {
    const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) fail("create", tmp, errno);
    try {
        write_fd(fd, text, path);
        if (::fsync(fd) != 0) fail("write", path, errno);
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        fail("write", path, err);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(
            fmt::format("cannot rename '{}' to '{}': {}", tmp, path, std::strerror(err)));
    }
}

} // namespace

void write_output_file(const std::string& path, const std::string& text) {
    if (is_stdout(path)) {
        std::cout << text;
        flush_standard_output();
        return;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            throw std::runtime_error(fmt::format("cannot write '{}': it is a folder", path));
        // A device, FIFO or symbolic link: written through, never replaced.
        int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0) fail("open", path, errno);
        try {
            write_fd(fd, text, path);
        } catch (...) {
            ::close(fd);
            throw;
        }
        if (::close(fd) != 0) fail("write", path, errno);
        return;
    }
    write_atomically(path, text);
}

void check_output_path(const std::string& path, const std::string& what) {
    if (is_stdout(path)) return;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw usage_error(fmt::format("{} '{}': is a folder; name a file to write", what, path));
        if (!S_ISREG(st.st_mode)) {
            // A link, device or FIFO is written through: it must take writes.
            if (::access(path.c_str(), W_OK) != 0)
                throw usage_error(
                    fmt::format("{} '{}': cannot be written: {}", what, path, std::strerror(errno)));
            return;
        }
        // A regular file is replaced atomically: its folder must take a new file.
    }
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (parent.empty()) parent = ".";
    struct stat dir {};
    if (::stat(parent.c_str(), &dir) != 0)
        throw usage_error(fmt::format("{} '{}': folder '{}' does not exist ({}); create it first", what, path,
                                      parent.string(), std::strerror(errno)));
    if (!S_ISDIR(dir.st_mode))
        throw usage_error(fmt::format("{} '{}': '{}' is not a folder", what, path, parent.string()));
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
        throw usage_error(fmt::format("{} '{}': cannot write in folder '{}': {}", what, path, parent.string(),
                                      std::strerror(errno)));
    // access() says yes to root in folders that take no file (/proc, /sys)
    // or refuse one for other reasons: the file the output is written to
    // first (write_atomically's) is made and removed now, so such a
    // path fails here, before the run, not after it.
    const std::string probe = fmt::format("{}.tmp-{}", path, ::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        throw usage_error(fmt::format("{} '{}': cannot create a file in folder '{}': {}", what, path,
                                      parent.string(), std::strerror(errno)));
    ::close(fd);
    ::unlink(probe.c_str());
}

void flush_standard_output() {
    std::cout.flush();
    const bool lost = !std::cout.good() || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (lost) {
        const int err = errno;
        std::cout.clear();
        std::clearerr(stdout);
        throw std::runtime_error(
            fmt::format("cannot write to standard output: {}", err ? std::strerror(err) : "write error"));
    }
}

} // namespace formatbench

// Bounded whole-file reads (text_file.hpp).
#include "base/text_file.hpp"

#include "base/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace formatbench {

std::string read_text_file(const std::string& path, std::uint64_t max_bytes, const std::string& what) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw usage_error(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        throw usage_error(fmt::format("cannot read {} '{}': Is a directory", what, path));
    }
    std::string text;
    char buf[1 << 16];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw usage_error(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(err)));
        }
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
            ::close(fd);
            throw usage_error(
                fmt::format("{} '{}' is larger than {} bytes (is it a device or an endless file?)", what,
                            path, max_bytes));
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

} // namespace formatbench

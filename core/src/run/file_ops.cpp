// Sync, cache-drop and residency measurement with POSIX calls.
#include "run/file_ops.hpp"

#include "base/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace formatbench {
namespace {

[[noreturn]] void throw_errno(const std::string& what, const std::string& path) {
    throw std::system_error(errno, std::generic_category(), what + " '" + path + "'");
}

// Calls fn(path) for the file, or for every regular file below a directory.
template <class Fn>
void for_each_file(const std::string& path, Fn&& fn) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(path, ec))
            if (e.is_regular_file(ec)) fn(e.path().string());
    } else if (fs::exists(path, ec)) {
        fn(path);
    }
}

struct fd_guard {
    int fd;
    ~fd_guard() {
        if (fd >= 0) ::close(fd);
    }
};

} // namespace

void remove_output(const std::string& path) {
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) throw std::system_error(ec, "cannot remove '" + path + "'");
}

std::uint64_t output_size(const std::string& path) {
    std::uint64_t total = 0;
    for_each_file(path, [&](const std::string& f) {
        struct stat st {};
        if (::stat(f.c_str(), &st) == 0) total += static_cast<std::uint64_t>(st.st_size);
    });
    return total;
}

void sync_output(const std::string& path, bool data_only) {
    for_each_file(path, [&](const std::string& f) {
        fd_guard g{::open(f.c_str(), O_RDONLY | O_CLOEXEC)};
        if (g.fd < 0) throw_errno("cannot open for sync", f);
        if ((data_only ? ::fdatasync(g.fd) : ::fsync(g.fd)) != 0) throw_errno("cannot sync", f);
    });
}

void drop_cache(const std::string& path) {
    for_each_file(path, [&](const std::string& f) {
        fd_guard g{::open(f.c_str(), O_RDONLY | O_CLOEXEC)};
        if (g.fd < 0) throw_errno("cannot open to drop its cache", f);
        // Dirty pages cannot be dropped: write them out first.
        if (::fdatasync(g.fd) != 0) throw_errno("cannot sync", f);
        int rc = ::posix_fadvise(g.fd, 0, 0, POSIX_FADV_DONTNEED);
        if (rc != 0) {
            errno = rc;
            throw_errno("posix_fadvise(DONTNEED) failed on", f);
        }
    });
}

double resident_fraction(const std::string& path) {
    std::uint64_t pages = 0, resident = 0;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    for_each_file(path, [&](const std::string& f) {
        fd_guard g{::open(f.c_str(), O_RDONLY | O_CLOEXEC)};
        if (g.fd < 0) return;
        struct stat st {};
        if (::fstat(g.fd, &st) != 0 || st.st_size == 0) return;
        auto size = static_cast<std::size_t>(st.st_size);
        // Mapping does not fault pages in; mincore only reports them.
        void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, g.fd, 0);
        if (map == MAP_FAILED) return;
        std::size_t n = (size + page - 1) / page;
        std::vector<unsigned char> vec(n);
        if (::mincore(map, size, vec.data()) == 0) {
            pages += n;
            for (unsigned char v : vec)
                resident += v & 1u;
        }
        ::munmap(map, size);
    });
    return pages ? static_cast<double>(resident) / static_cast<double>(pages) : -1.0;
}

std::string make_temp_directory() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/formatbench-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw_errno("cannot create a temporary directory like", pattern);
    const std::string dir = buf.data();
    fd_guard marker{
        ::open((dir + "/" + running_marker).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)};
    if (marker.fd < 0) throw_errno("cannot create the run's marker in", dir);
    return dir;
}

std::vector<std::string> remove_abandoned_temp_directories(double min_age_seconds) {
    namespace fs = std::filesystem;
    const char* tmp = std::getenv("TMPDIR");
    const std::string parent = tmp && *tmp ? tmp : "/tmp";
    std::vector<std::string> notes;
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() != 18 || name.rfind("formatbench-", 0) != 0) continue;
        const std::string dir = it->path().string();
        fd_guard g{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
        if (g.fd < 0) continue;
        struct stat st {};
        if (::fstat(g.fd, &st) != 0 || st.st_uid != ::geteuid()) continue;
        if (::faccessat(g.fd, running_marker, F_OK, AT_SYMLINK_NOFOLLOW) != 0) continue; // kept, or not ours
        if (::flock(g.fd, LOCK_EX | LOCK_NB) != 0) continue;                             // its run is alive
        const double age = static_cast<double>(::time(nullptr) - st.st_mtime);
        if (age < min_age_seconds) continue;
        std::uint64_t bytes = 0;
        for (fs::recursive_directory_iterator f(dir, ec), fend; !ec && f != fend; f.increment(ec))
            if (f->is_regular_file(ec)) bytes += f->file_size(ec);
        ec.clear();
        fs::remove_all(dir, ec);
        if (ec)
            notes.push_back(fmt::format("'{}' was left by a formatbench run that was killed, and cannot be "
                                        "removed ({}); remove it by hand",
                                        dir, ec.message()));
        else
            notes.push_back(
                fmt::format("removed '{}' ({} bytes of case files), left by a formatbench run that "
                            "was killed before it could remove it",
                            dir, bytes));
        ec.clear();
    }
    return notes;
}

directory_lock::directory_lock(const std::string& dir) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return; // a folder that cannot be opened is reported where it is used
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK)
        throw usage_error(fmt::format("directory '{}' is in use by another formatbench run, whose case files "
                                      "would collide with this run's; wait for it, or give this run another "
                                      "folder (--directory)",
                                      dir));
}

directory_lock::~directory_lock() {
    if (fd_ >= 0) ::close(fd_);
}

} // namespace formatbench

// formatbench POSIX file helper: the file plumbing a plugin that reads and
// writes plain files needs, done once and right.
//
//   sdk::file out = sdk::file::create(path);           // "cannot create '<path>': ..."
//   sdk::remove_on_failure guard(out);                 // nothing left at path if we throw
//   out.write_all(header.data(), header.size());       // EINTR and short writes retried
//   guard.commit();
//   ...
//   out.close();                                       // reports a delayed write error
//
//   sdk::file in = sdk::file::open_read(path);
//   if (in.read_full(buf, n) < n) throw sdk::error(FB_E_TRUNCATED, "...");
//
// Every failure of the operating system throws sdk::error(FB_E_IO) whose
// message names the operation, the path and the system's reason, e.g.
// "cannot write '/dev/full': No space left on device" (the form of
// sdk::io_error); file_wording adapts the words to a plugin's own messages.
// Ending early is not an error here: read_full returns the count it got and
// the plugin reports FB_E_TRUNCATED or FB_E_CORRUPT in its own words.
//
// Header-only; needs C++20, POSIX and the standard library. Linux moves at
// most 0x7ffff000 bytes per read(2)/write(2); larger transfers take several
// calls, smaller ones exactly one (unless interrupted or short).
#ifndef FORMATBENCH_POSIX_FILE_HPP
#define FORMATBENCH_POSIX_FILE_HPP

#include <formatbench/plugin.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace formatbench::sdk {

// The words of a file's error messages:
//   <prefix><verb> '<path>': <strerror(errno)>[<space hint>]
// The defaults give sdk::io_error's form ("cannot write '/tmp/x': ...").
// create, open and stat always read "cannot create", "cannot open" and
// "cannot stat". The views must outlive the file: use string literals.
struct file_wording {
    std::string_view prefix = {};            // e.g. "zlib: ", the plugin's id
    std::string_view write = "cannot write"; // write_all, write_all_at
    std::string_view read = "cannot read";   // read_full, read_full_at
    std::string_view close = "cannot close"; // close
    // Append " (free space there or choose another directory)" to ENOSPC
    // and EDQUOT, the one failure the user fixes outside formatbench.
    bool space_hint = false;
};

// An open file descriptor with its path and wording. Movable, not copyable;
// the destructor closes without reporting (call close() to check). A file
// that is not open (default-constructed, moved from, closed) has fd() -1.
class file {
public:
    // Bytes per read(2)/write(2) call: Linux's own limit (MAX_RW_COUNT).
    static constexpr std::size_t max_transfer = 0x7ffff000;

    file() noexcept = default;
    file(file&& o) noexcept
        : path_(std::move(o.path_)), wording_(o.wording_), fd_(std::exchange(o.fd_, -1)),
          created_(std::exchange(o.created_, false)) {}
    file& operator=(file&& o) noexcept {
        if (this != &o) {
            reset();
            path_ = std::move(o.path_);
            wording_ = o.wording_;
            fd_ = std::exchange(o.fd_, -1);
            created_ = std::exchange(o.created_, false);
        }
        return *this;
    }
    file(const file&) = delete;
    file& operator=(const file&) = delete;
    ~file() { reset(); }

    // Creates path (mode, less the umask) for writing, `access` being
    // O_WRONLY or O_RDWR. Exclusively first, so that created() says whether
    // the path is ours to remove; when something is there already (a file
    // the host kept, a device such as /dev/full, a FIFO) it is opened as it
    // is, truncated if it is a regular file, and never removed by discard().
    static file create(std::string path, const file_wording& wording = {}, int access = O_WRONLY,
                       mode_t mode = 0666) {
        file f(std::move(path), wording);
        f.fd_ = ::open(f.path_.c_str(), access | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (f.fd_ >= 0) {
            f.created_ = true;
        } else if (errno == EEXIST) {
            f.fd_ = ::open(f.path_.c_str(), access | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
        }
        if (f.fd_ < 0) f.fail("cannot create", errno);
        return f;
    }

    // Opens path for writing one part of a file that other processes write
    // at the same time (formatbench.part/1): created when missing, never
    // truncated, and never removed by discard() (the file is not this
    // stream's alone). The host removed any old file before the parts open.
    static file open_shared(std::string path, const file_wording& wording = {}, int access = O_WRONLY,
                            mode_t mode = 0666) {
        file f(std::move(path), wording);
        f.fd_ = ::open(f.path_.c_str(), access | O_CREAT | O_CLOEXEC, mode);
        if (f.fd_ < 0) f.fail("cannot open", errno);
        return f;
    }

    // Moves the file offset to `offset` bytes from the start (lseek(2)).
    void seek(std::uint64_t offset) {
        if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) fail("cannot seek in", errno);
    }

    // Opens an existing path read-only (a directory opens too: check
    // status() when that matters).
    static file open_read(std::string path, const file_wording& wording = {}) {
        file f(std::move(path), wording);
        f.fd_ = ::open(f.path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (f.fd_ < 0) f.fail("cannot open", errno);
        return f;
    }

    int fd() const noexcept { return fd_; }
    bool is_open() const noexcept { return fd_ >= 0; }
    // The path as given; kept after close, for messages.
    const std::string& path() const noexcept { return path_; }
    // Whether create() made a new file at the path (see discard()).
    bool created() const noexcept { return created_; }

    // fstat(2) of the open file: its type (S_ISREG, S_ISDIR) and size.
    struct stat status() const {
        struct stat st {};
        if (::fstat(fd_, &st) != 0) fail("cannot stat", errno);
        return st;
    }

    // Writes all n bytes at the file offset: one write(2) per max_transfer
    // bytes, retried after EINTR and short writes.
    void write_all(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        std::size_t done = transfer(n, wording_.write,
                                    [&](std::size_t at, std::size_t k) { return ::write(fd_, p + at, k); });
        if (done < n) fail_no_progress();
    }

    // write_all at an absolute offset with pwrite(2); the file offset stays.
    void write_all_at(const void* data, std::size_t n, std::uint64_t offset) {
        const auto* p = static_cast<const unsigned char*>(data);
        std::size_t done = transfer(n, wording_.write, [&](std::size_t at, std::size_t k) {
            return ::pwrite(fd_, p + at, k, static_cast<off_t>(offset + at));
        });
        if (done < n) fail_no_progress();
    }

    // Reads until n bytes are in or the file ends; returns the count, less
    // than n only at end of file (0 there). Retries EINTR and short reads.
    std::size_t read_full(void* data, std::size_t n) {
        auto* p = static_cast<unsigned char*>(data);
        return transfer(n, wording_.read,
                        [&](std::size_t at, std::size_t k) { return ::read(fd_, p + at, k); });
    }

    // read_full at an absolute offset with pread(2); the file offset stays.
    std::size_t read_full_at(void* data, std::size_t n, std::uint64_t offset) {
        auto* p = static_cast<unsigned char*>(data);
        return transfer(n, wording_.read, [&](std::size_t at, std::size_t k) {
            return ::pread(fd_, p + at, k, static_cast<off_t>(offset + at));
        });
    }

    // Closes and reports a failing close(2): a delayed write error (NFS,
    // quotas). Not retried on EINTR: on Linux the descriptor is gone then,
    // and EINTR is not reported. Does nothing when not open.
    void close() {
        if (fd_ < 0) return;
        if (::close(std::exchange(fd_, -1)) != 0 && errno != EINTR) fail(wording_.close, errno);
    }

    // Closes without reporting: for readers, and after an earlier error.
    void reset() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

    // Closes without reporting and removes the path if create() made it;
    // what was there before is never removed. For a failed open_write.
    void discard() noexcept {
        reset();
        if (created_) ::unlink(path_.c_str());
        created_ = false;
    }

    // Throws sdk::error(FB_E_IO) in this file's wording: for the system
    // calls a plugin makes on fd() itself ("cannot map", errno).
    [[noreturn]] void fail(std::string_view what, int errnum) const {
        std::string message(wording_.prefix);
        message += what;
        message += " '";
        message += path_;
        message += "': ";
        message += std::strerror(errnum);
        if (wording_.space_hint && (errnum == ENOSPC || errnum == EDQUOT))
            message += " (free space there or choose another directory)";
        throw error(FB_E_IO, message);
    }

private:
    file(std::string path, const file_wording& wording) : path_(std::move(path)), wording_(wording) {}

    // Calls call(at, k), a read(2) or write(2) of k bytes at byte `at` of
    // the request, until n bytes are moved or it returns 0 (end of file, or
    // no progress); retries EINTR, throws on any other error. Returns the
    // bytes moved.
    template <class Call>
    std::size_t transfer(std::size_t n, std::string_view verb, Call call) const {
        std::size_t done = 0;
        while (done < n) {
            ssize_t k = call(done, std::min(n - done, max_transfer));
            if (k < 0) {
                if (errno == EINTR) continue;
                fail(verb, errno);
            }
            if (k == 0) break;
            done += static_cast<std::size_t>(k);
        }
        return done;
    }

    // write(2) returned 0 for a non-zero count: reported, not retried forever.
    [[noreturn]] void fail_no_progress() const {
        throw error(FB_E_IO, std::string(wording_.prefix) + std::string(wording_.write) + " '" + path_ +
                                 "' made no progress");
    }

    std::string path_;
    file_wording wording_;
    int fd_ = -1;
    bool created_ = false;
};

// Removes a file that create() made unless commit() is called first: put one
// on the stack in an open_write that creates its file and may still fail.
//
//   file_ = sdk::file::create(path_);
//   sdk::remove_on_failure guard(file_);
//   write_header();   // throws: the file is closed and removed
//   guard.commit();
class remove_on_failure {
public:
    explicit remove_on_failure(file& f) noexcept : file_(&f) {}
    remove_on_failure(const remove_on_failure&) = delete;
    remove_on_failure& operator=(const remove_on_failure&) = delete;
    ~remove_on_failure() {
        if (file_) file_->discard();
    }
    // The file is complete enough to keep: the guard lets it be.
    void commit() noexcept { file_ = nullptr; }

private:
    file* file_;
};

} // namespace formatbench::sdk

#endif // FORMATBENCH_POSIX_FILE_HPP

// POSIX file helpers for the ascii plugin: open/close with errors that name
// the path, write(2) of a whole buffer (EINTR and short writes handled), read
// until a buffer is full or the file ends, and page-aligned buffers (copies
// to and from the page cache run up to 2x faster from aligned memory).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>

namespace formatbench::detail {

struct free_deleter {
    void operator()(char* p) const noexcept { std::free(p); }
};
using aligned_buffer = std::unique_ptr<char[], free_deleter>;

// A page-aligned buffer of at least `bytes` bytes (huge-page backed from
// 1 MiB up, see file_io.cpp); throws std::bad_alloc.
aligned_buffer make_aligned_buffer(std::size_t bytes);

// A file descriptor that closes itself (without reporting) if not closed.
class file {
public:
    file() = default;
    file(const file&) = delete;
    file& operator=(const file&) = delete;
    ~file();

    // Creates `path` for writing (truncating); throws sdk::io_error naming it.
    void create(const std::string& path);
    // Opens an existing `path` for reading; throws sdk::io_error naming it.
    void open_read(const std::string& path);
    // Writes all `size` bytes; throws sdk::io_error (ENOSPC, EIO, ...).
    void write_all(const char* data, std::size_t size);
    // Reads until `size` bytes are in or the file ends; returns the count
    // (less than size only at end of file). Throws sdk::io_error.
    std::size_t read_full(char* data, std::size_t size);
    // Closes and reports a failure of close(2) (a delayed write error on
    // some file systems). Safe to call twice.
    void close();
    bool is_open() const noexcept { return fd_ >= 0; }

private:
    int fd_ = -1;
    std::string path_;
};

} // namespace formatbench::detail

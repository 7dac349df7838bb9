// Plain POSIX file access for the zlib plugin: a buffered writer that issues
// large write(2) calls and a reader that fills a caller's buffer with
// read(2). Both retry on EINTR and short transfers and throw sdk::error
// (FB_E_IO) naming the path and the system's reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace formatbench::detail {

// Owns a file created for writing. Bytes go through a buffer of
// `buffer_size` bytes so the kernel sees few, large writes.
class output_file {
public:
    output_file(std::string path, std::size_t buffer_size);
    output_file(const output_file&) = delete;
    output_file& operator=(const output_file&) = delete;
    // Closes the descriptor if close() was not called; never throws.
    ~output_file();

    // Creates the file (truncating one that already exists). Throws FB_E_IO.
    void open();
    // Removes the file if open() created it; used when opening the stream
    // fails later, so that nothing is left at the path.
    void discard() noexcept;
    // Closes the descriptor without flushing, leaving the file as it is;
    // used after a failed write, when the host owns the incomplete file.
    void abandon() noexcept;

    // The free part of the buffer, for producers (deflate) that write into it
    // directly; commit() then accounts for what they wrote. Never empty: a
    // full buffer is flushed first.
    std::span<unsigned char> space();
    void commit(std::size_t n) noexcept { used_ += n; }

    // Appends bytes; large appends to an empty buffer bypass it.
    void append(const void* data, std::size_t n);
    void flush();
    // Flushes and closes; reports a failing close(2) (NFS, quotas).
    void close();

    const std::string& path() const noexcept { return path_; }
    std::uint64_t bytes_written() const noexcept { return written_; }

private:
    void write_all(const unsigned char* data, std::size_t n);

    std::string path_;
    int fd_ = -1;
    bool created_ = false;
    std::vector<unsigned char> buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
};

// Owns a file opened for reading.
class input_file {
public:
    explicit input_file(std::string path);
    input_file(const input_file&) = delete;
    input_file& operator=(const input_file&) = delete;
    ~input_file();

    // Reads up to n bytes; returns fewer only at end of file (0 at EOF).
    std::size_t read_some(void* data, std::size_t n);
    std::uint64_t size() const noexcept { return size_; }
    const std::string& path() const noexcept { return path_; }
    void close() noexcept;

private:
    std::string path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

} // namespace formatbench::detail

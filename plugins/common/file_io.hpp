// File access shared by the compressing plugins (zlib, zstd, lz4, blosc), on the
// SDK's sdk::file (EINTR and short transfers retried, errors naming the
// path): a buffered writer that issues large write(2) calls and lends its
// free space to a compressor, and the opening of a file to decompress. Each
// plugin passes its own sdk::file_wording, so messages carry its name
// ("zstd: cannot write '/tmp/a.zst': No space left on device").
#pragma once

#include "byte_buffer.hpp"
#include "time_total.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace formatbench::detail {

// Owns a file created for writing. Bytes go through a buffer of
// `buffer_size` bytes so the kernel sees few, large writes (a byte_buffer:
// not zero-filled, huge pages from 1 MiB up).
class output_file {
public:
    // `wording` must outlive the object (use a constant).
    output_file(std::string path, std::size_t buffer_size, const sdk::file_wording& wording);
    output_file(const output_file&) = delete;
    output_file& operator=(const output_file&) = delete;

    // Creates the file (truncating one that already exists). Throws FB_E_IO.
    void open();
    // Removes the file if open() created it; used when opening the stream
    // fails later, so that nothing is left at the path.
    void discard() noexcept { file_.discard(); }
    // Closes the descriptor without flushing, leaving the file as it is;
    // used after a failed write, when the host owns the incomplete file.
    void abandon() noexcept;

    // The free part of the buffer, for producers (a compressor) that write
    // into it directly; commit() then accounts for what they wrote. At least
    // `at_least` bytes (capped at the buffer's size) and never empty: the
    // buffer is flushed first when less is free. A compressor that needs a
    // whole block's worst case to write straight into the buffer asks for it.
    std::span<unsigned char> space(std::size_t at_least = 1);
    void commit(std::size_t n) noexcept { used_ += n; }

    // Appends bytes; large appends to an empty buffer bypass it.
    void append(const void* data, std::size_t n);
    void flush();
    // Flushes, then writes n bytes at `offset` (pwrite(2)), leaving the
    // append position where it was: a header completed at close (blosc,
    // when the count was unknown at open). Throws FB_E_IO, also on a path
    // that cannot seek (a FIFO).
    void write_at(const void* data, std::size_t n, std::uint64_t offset);
    // Flushes and closes; reports a failing close(2) (NFS, quotas).
    void close();

    const std::string& path() const noexcept { return path_; }
    std::size_t capacity() const noexcept { return buffer_.size(); }
    std::uint64_t bytes_written() const noexcept { return written_; }
    // Seconds inside write(2) so far (the io_s metric).
    double io_seconds() const noexcept { return io_.seconds(); }

private:
    void write_all(const unsigned char* data, std::size_t n);

    std::string path_;
    const sdk::file_wording& wording_;
    sdk::file file_;
    byte_buffer buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
    time_total io_;
};

// Opens `path` to be read sequentially; a directory is refused with FB_E_IO.
sdk::file open_input(const std::string& path, const sdk::file_wording& wording);

} // namespace formatbench::detail

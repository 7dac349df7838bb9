// The blosc plugin's read stream: the container header checked at open
// (container.hpp) against the dtype and count asked for, then each chunk
// read with one read(2) (its bytes and the next chunk's length), checked
// with blosc_cbuffer_validate / blosc_cbuffer_sizes against the size the
// header says it must decode to, and decoded with blosc_decompress_ctx:
// straight into the caller's buffer when the read wants the whole chunk,
// else into a chunk buffer that later reads take up first.
// Bounds on corrupt input: a chunk's compressed length is checked against
// its decoded size plus Blosc's header and the bytes left in the file before
// anything is allocated for it, and a decoded chunk is at most the header's
// chunk size (<= max_chunk_bytes) and the payload asked for. No byte after
// the last chunk is accepted.
#pragma once

#include "container.hpp"
#include "settings.hpp"

#include "common/byte_buffer.hpp"
#include "common/sticky_failure.hpp"
#include "common/time_total.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstdint>
#include <string>

namespace formatbench::detail {

class blosc_reader {
public:
    explicit blosc_reader(const sdk::open_request& request);
    blosc_reader(const blosc_reader&) = delete;
    blosc_reader& operator=(const blosc_reader&) = delete;

    void read(void* data, std::uint64_t count);
    void close();

private:
    void read_header(const sdk::open_request& request);
    void read_unguarded(unsigned char* out, std::uint64_t bytes);
    // Reads the next chunk (nbytes when decoded) into packed_ and checks it.
    void load_chunk(std::size_t nbytes);
    // Decodes the chunk load_chunk read into dest (nbytes) and moves on.
    void decompress_chunk(unsigned char* dest, std::size_t nbytes);
    std::string where() const; // "chunk 2 of 4": the next chunk
    [[noreturn]] void corrupt(const std::string& what) const;
    [[noreturn]] void truncated(const std::string& what) const;

    blosc_settings settings_;
    sdk::metric_reporter metrics_;
    sdk::file file_;
    std::uint64_t file_size_ = UINT64_MAX; // UINT64_MAX: not a regular file
    container_header header_;
    std::uint64_t payload_ = 0;     // bytes in the file's chunks, decoded
    std::uint64_t offset_ = 0;      // file offset of the next chunk's data
    std::uint64_t chunk_index_ = 0; // the next chunk
    std::uint32_t next_cbytes_ = 0; // its compressed length, read ahead
    std::size_t loaded_ = 0;        // compressed bytes of the chunk in packed_
    std::uint64_t decoded_ = 0;     // payload bytes decoded so far
    std::uint64_t delivered_ = 0;   // payload bytes handed to the host
    byte_buffer packed_;            // one compressed chunk and the next length
    byte_buffer plain_;             // a decoded chunk a read took only part of
    std::size_t plain_pos_ = 0, plain_size_ = 0;
    time_total codec_, io_;
    sticky_failure failure_; // the first failure, repeated by every later call
    bool closed_ = false;
};

} // namespace formatbench::detail

// Memory for the ascii plugin: page-aligned buffers (copies to and from the
// page cache run up to 2x faster from aligned memory) and the mapping of a
// whole text file that the reader parses in place. (File access itself is
// the SDK's, formatbench/posix_file.hpp.)
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace formatbench::detail {

// Frees a buffer of make_aligned_buffer: a private mapping of `mapped`
// bytes, or (mapped == 0) memory from the C heap.
struct buffer_deleter {
    std::size_t mapped = 0;
    void operator()(char* p) const noexcept;
};
using aligned_buffer = std::unique_ptr<char[], buffer_deleter>;

// A page-aligned buffer of at least `bytes` bytes (its own huge-page backed
// mapping from 1 MiB up, see file_io.cpp); throws std::bad_alloc.
aligned_buffer make_aligned_buffer(std::size_t bytes);

// A regular file of `size` bytes mapped privately, followed by one writable
// byte (in the copied last page, or in an anonymous page behind the file)
// where the reader puts its end separator; the file is never written.
// Pages before a point can be released as the reader goes (release_below),
// so that resident memory stays bounded for files larger than memory.
class text_mapping {
public:
    text_mapping() = default;
    text_mapping(const text_mapping&) = delete;
    text_mapping& operator=(const text_mapping&) = delete;
    ~text_mapping() { reset(); }

    // Maps fd; false (and nothing mapped) if the system refuses.
    bool map(int fd, std::size_t size) noexcept;
    void reset() noexcept;
    char* data() const noexcept { return base_; }
    bool mapped() const noexcept { return base_ != nullptr; }
    // Unmaps the whole pages below p (a pointer into the mapping), once
    // they come to at least `step` bytes more than are already unmapped.
    void release_below(const char* p, std::size_t step) noexcept;

private:
    char* base_ = nullptr;
    char* kept_ = nullptr; // first byte still mapped
    std::size_t span_ = 0; // bytes reserved from base_
};

} // namespace formatbench::detail

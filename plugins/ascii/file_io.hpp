// Page-aligned buffers for the ascii plugin: copies to and from the page
// cache run up to 2x faster from aligned memory. (File access itself is the
// SDK's, formatbench/posix_file.hpp.)
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

} // namespace formatbench::detail

// Page-aligned buffers for the ascii plugin: copies to and from the page
// cache run up to 2x faster from aligned memory. (File access itself is the
// SDK's, formatbench/posix_file.hpp.)
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace formatbench::detail {

struct free_deleter {
    void operator()(char* p) const noexcept { std::free(p); }
};
using aligned_buffer = std::unique_ptr<char[], free_deleter>;

// A page-aligned buffer of at least `bytes` bytes (huge-page backed from
// 1 MiB up, see file_io.cpp); throws std::bad_alloc.
aligned_buffer make_aligned_buffer(std::size_t bytes);

} // namespace formatbench::detail

// Page-aligned buffers of the ascii plugin (see file_io.hpp).
#include "file_io.hpp"

#include <new>
#include <sys/mman.h>

namespace formatbench::detail {

namespace {

constexpr std::size_t page_size = 4096;
constexpr std::size_t huge_page_size = std::size_t{2} << 20;

} // namespace

// Buffers of a megabyte or more are 2 MiB-aligned and marked for transparent
// huge pages: here first touching 8 MB of fresh 4 KiB pages cost 3.4 ms of
// CPU, with huge pages 0.2 ms, and a stream's buffers are fresh each time.
// madvise is a hint: where THP is off the buffer simply stays in small pages.
aligned_buffer make_aligned_buffer(std::size_t bytes) {
    bool huge = bytes >= (std::size_t{1} << 20);
    std::size_t align = huge ? huge_page_size : page_size;
    std::size_t rounded = bytes == 0 ? align : (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded);
    if (!p) throw std::bad_alloc();
    if (huge) ::madvise(p, rounded, MADV_HUGEPAGE);
    return aligned_buffer(static_cast<char*>(p));
}

} // namespace formatbench::detail

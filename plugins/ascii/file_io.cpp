// Page-aligned buffers of the ascii plugin (see file_io.hpp).
#include "file_io.hpp"

#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace formatbench::detail {

namespace {

constexpr std::size_t page_size = 4096;
constexpr std::size_t huge_page_size = std::size_t{2} << 20;

} // namespace

void buffer_deleter::operator()(char* p) const noexcept {
    if (mapped)
        ::munmap(p, mapped);
    else
        std::free(p);
}

// Buffers of a megabyte or more get a mapping of their own, 2 MiB-aligned
// and marked for transparent huge pages: here first touching 8 MB of fresh
// 4 KiB pages cost 3.4 ms of CPU, with huge pages 0.2 ms, and a stream's
// buffers are fresh each time. They are not taken from malloc because then
// their cost depends on the host's heap history: after the host had freed
// one 8 MB block, glibc served these buffers from its heap, trimmed and
// regrew it at every stream, and a 10^6-value shortest write took 50-70 ms
// instead of 25-30 ms. madvise is a hint: where THP is off the buffer
// simply stays in small pages.
aligned_buffer make_aligned_buffer(std::size_t bytes) {
    if (bytes < (std::size_t{1} << 20)) {
        std::size_t rounded = bytes == 0 ? page_size : (bytes + page_size - 1) / page_size * page_size;
        void* p = std::aligned_alloc(page_size, rounded);
        if (!p) throw std::bad_alloc();
        return aligned_buffer(static_cast<char*>(p));
    }
    std::size_t rounded = (bytes + huge_page_size - 1) / huge_page_size * huge_page_size;
    // Map one huge page more than needed and unmap the slack on both sides
    // of the 2 MiB-aligned part.
    std::size_t span = rounded + huge_page_size;
    void* m = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    auto base = reinterpret_cast<std::uintptr_t>(m);
    std::uintptr_t aligned = (base + huge_page_size - 1) / huge_page_size * huge_page_size;
    if (aligned > base) ::munmap(m, aligned - base);
    std::size_t tail = base + span - (aligned + rounded);
    if (tail) ::munmap(reinterpret_cast<void*>(aligned + rounded), tail);
    ::madvise(reinterpret_cast<void*>(aligned), rounded, MADV_HUGEPAGE);
    return aligned_buffer(reinterpret_cast<char*>(aligned), buffer_deleter{rounded});
}

} // namespace formatbench::detail

// Page-aligned buffers of the ascii plugin (see file_io.hpp).
#include "file_io.hpp"

#include "common/huge_pages.hpp"

#include <new>
#include <sys/mman.h>

namespace formatbench::detail {

namespace {

constexpr std::size_t page_size = small_page_size;

} // namespace

void buffer_deleter::operator()(char* p) const noexcept {
    if (mapped)
        give_mapping(p, mapped);
    else
        std::free(p);
}

// Buffers of a megabyte or more get a mapping of their own, 2 MiB-aligned
// and marked for transparent huge pages: here first touching 8 MB of fresh
// 4 KiB pages cost 3.4 ms of CPU, with huge pages 0.2 ms, and a new mapping
// is fresh memory (the pool of common/huge_pages.hpp reuses them). They are not taken from
// malloc because then their cost depends on the host's heap history: after
// the host had freed one 8 MB block, glibc served these buffers from its
// heap, trimmed and regrew it at every stream, and a 10^6-value shortest
// write took 50-70 ms instead of 25-30 ms. madvise is a hint: where THP is
// off the buffer simply stays in small pages.
aligned_buffer make_aligned_buffer(std::size_t bytes) {
    if (bytes < (std::size_t{1} << 20)) {
        std::size_t rounded = bytes == 0 ? page_size : (bytes + page_size - 1) / page_size * page_size;
        void* p = std::aligned_alloc(page_size, rounded);
        if (!p) throw std::bad_alloc();
        return aligned_buffer(static_cast<char*>(p));
    }
    std::size_t rounded = (bytes + huge_page_size - 1) / huge_page_size * huge_page_size;
    char* m = take_mapping(rounded);
    if (!m) throw std::bad_alloc();
    return aligned_buffer(m, buffer_deleter{rounded});
}

bool text_mapping::map(int fd, std::size_t size) noexcept {
    reset();
    // Reserve the file's pages and one more, 2 MiB-aligned, then map the
    // file over the start: the byte after the file is then always mapped
    // and writable. The alignment lets the kernel map each 2 MiB page-cache
    // folio with one page-table entry: touching a 19 MB file written in one
    // write(2) took 12 faults and 0.08 ms so, 292 faults and 0.54 ms at an
    // address that was only 4 KiB-aligned (for this plugin's own files,
    // written 256 KiB at a time, 75 faults and 0.28 ms against 103 and
    // 0.32 ms: their folios are smaller). MAP_NORESERVE: the private
    // mapping is never written but for the end byte, so it must not be
    // refused for a file larger than the memory the kernel would commit.
    std::size_t span = (size + 1 + page_size - 1) / page_size * page_size;
    char* area = map_huge_aligned(span, MAP_NORESERVE);
    if (!area) return false;
    if (::mmap(area, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE, fd, 0) ==
        MAP_FAILED) {
        ::munmap(area, span);
        return false;
    }
    // Hints only: read-ahead for a file not in the page cache, and large
    // page-cache folios mapped whole (as the mmap plugin's default advice).
    ::madvise(area, size, MADV_SEQUENTIAL);
    ::madvise(area, size, MADV_HUGEPAGE);
    base_ = kept_ = area;
    span_ = span;
    return true;
}

void text_mapping::reset() noexcept {
    if (!base_) return;
    ::munmap(kept_, span_ - static_cast<std::size_t>(kept_ - base_));
    base_ = kept_ = nullptr;
    span_ = 0;
}

void text_mapping::release_below(const char* p, std::size_t step) noexcept {
    auto offset = static_cast<std::size_t>(p - base_) / page_size * page_size;
    char* upto = base_ + offset;
    if (upto <= kept_ || static_cast<std::size_t>(upto - kept_) < step) return;
    ::munmap(kept_, static_cast<std::size_t>(upto - kept_));
    kept_ = upto;
}

} // namespace formatbench::detail

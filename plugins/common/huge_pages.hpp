// Large anonymous memory for the plugins' stream buffers, shared by ascii,
// zlib, zstd and lz4: a mapping at a 2 MiB-aligned address (so transparent
// huge pages can back it), and a pool that keeps the mappings of closed
// streams for the next ones. A stream's buffers are otherwise fresh memory,
// which the kernel zeroes page by page at first touch, inside the timed
// open-to-close of every repetition (bench/compress-notes.md has the perf
// figures). Each plugin library has its own pool (this code is linked into
// each), which keeps at most 1/32 of the physical memory (at least 32 MiB)
// until the library is unloaded.
#pragma once

#include <cstddef>

namespace formatbench::detail {

inline constexpr std::size_t small_page_size = 4096;
inline constexpr std::size_t huge_page_size = std::size_t{2} << 20;

// Reserves `bytes` (a whole number of pages) of anonymous private memory at
// a 2 MiB-aligned address, mmap flags `extra_flags` added: maps one huge page
// more than needed and unmaps the slack on both sides. Not marked for huge
// pages (the caller does, with madvise). nullptr if the system refuses.
char* map_huge_aligned(std::size_t bytes, int extra_flags) noexcept;

// A kept mapping of exactly `bytes`, or a new one from map_huge_aligned
// marked MADV_HUGEPAGE; nullptr if the system refuses.
char* take_mapping(std::size_t bytes) noexcept;
// Gives back a mapping of take_mapping: kept for the next stream while the
// pool stays within its cap (above), unmapped otherwise.
void give_mapping(char* p, std::size_t bytes) noexcept;

} // namespace formatbench::detail

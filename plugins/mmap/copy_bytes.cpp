// copy_bytes: memcpy, except where glibc's memcpy is pathologically slow:
// copies from 2 KiB up to the L2 cache size between addresses that differ
// in alignment modulo 64 go through a loop of 16-byte loads and stores.
//
// Measured on the reference machine (AMD EPYC with ERMS but not FSRM,
// glibc 2.36, 1 MiB of L2 per core): for sizes in that range memcpy uses
// `rep movsb` (glibc's rep_movsb_threshold is 2112 bytes here and its stop
// threshold the L2 size), which runs at 3.4-3.6 GB/s when source and
// destination are not equally aligned and at 45-110 GB/s when they are; the
// loop runs at 37-59 GB/s either way, memcpy at 44-46 GB/s from 1 MiB up
// (hot-cache loops of one size). Unequal alignment is what a study's
// `align_offset: 8` makes: the runner's buffer 8 bytes past a page against
// a page-aligned mapping. In `formatbench run` (10^6 f64, 64 KiB chunks,
// align_offset 8, three alternating runs) an mmap read took 2.40-2.47 ms
// with memcpy and 0.36-0.45 ms with the loop; raw's read(2), whose kernel
// copy is the same `rep movsb`, took 2.6-4.0 ms. Whole 8 MB reads stay with
// memcpy: 0.32-0.35 ms against 0.36-0.42 ms for the loop.
#include "copy_bytes.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace formatbench::detail {

#if defined(__SSE2__)
namespace {

// glibc stops using `rep movsb` at the L2 size (per core), as sysconf
// reports it; 1 MiB where it reports nothing.
std::size_t rep_movsb_end() noexcept {
    static const std::size_t end = [] {
        long l2 = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
        return l2 > 0 ? static_cast<std::size_t>(l2) : std::size_t{1} << 20;
    }();
    return end;
}

} // namespace
#endif

void copy_bytes(unsigned char* to, const unsigned char* from, std::size_t n) noexcept {
#if defined(__SSE2__)
    constexpr std::size_t loop_min = 2048;
    const auto skew = (reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) % 64;
    if (skew != 0 && n >= loop_min && n < rep_movsb_end()) {
        constexpr std::size_t block = 128; // eight 16-byte vectors
        std::size_t blocks = n / block;
        auto* d = reinterpret_cast<__m128i*>(to);
        auto* s = reinterpret_cast<const __m128i*>(from);
        for (std::size_t b = 0; b < blocks; ++b, d += 8, s += 8) {
            // All loads first, then all stores: eight independent moves.
            __m128i v0 = _mm_loadu_si128(s), v1 = _mm_loadu_si128(s + 1);
            __m128i v2 = _mm_loadu_si128(s + 2), v3 = _mm_loadu_si128(s + 3);
            __m128i v4 = _mm_loadu_si128(s + 4), v5 = _mm_loadu_si128(s + 5);
            __m128i v6 = _mm_loadu_si128(s + 6), v7 = _mm_loadu_si128(s + 7);
            _mm_storeu_si128(d, v0);
            _mm_storeu_si128(d + 1, v1);
            _mm_storeu_si128(d + 2, v2);
            _mm_storeu_si128(d + 3, v3);
            _mm_storeu_si128(d + 4, v4);
            _mm_storeu_si128(d + 5, v5);
            _mm_storeu_si128(d + 6, v6);
            _mm_storeu_si128(d + 7, v7);
        }
        std::size_t done = blocks * block;
        std::memcpy(to + done, from + done, n - done);
        return;
    }
#endif
    std::memcpy(to, from, n);
}

} // namespace formatbench::detail

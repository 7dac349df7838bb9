// Byte shuffle and unshuffle; see shuffle.hpp for the layout.
//
// The SSE2 paths treat a group of elements (128 bytes: 16 of 8 bytes or 32
// of 4 bytes) as one byte sequence S in eight registers and apply a perfect
// "unzip" (even-position bytes first, then odd) log2(element size) times.
// After k rounds the sequence is ordered by (position mod 2^k), then by
// position, which for 2^k = element size is exactly the byte planes. The
// inverse applies "zip" (interleave) the same number of times. Elements left
// over after the last full group go through the scalar loop, which writes
// the same layout.
#include "shuffle.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace formatbench::detail {

void shuffle_bytes_scalar(const unsigned char* src, unsigned char* dst, std::size_t n,
                          std::size_t element_size) noexcept {
    for (std::size_t j = 0; j < element_size; ++j) {
        unsigned char* plane = dst + j * n;
        for (std::size_t i = 0; i < n; ++i)
            plane[i] = src[i * element_size + j];
    }
}

void unshuffle_bytes_scalar(const unsigned char* src, unsigned char* dst, std::size_t n,
                            std::size_t element_size) noexcept {
    for (std::size_t j = 0; j < element_size; ++j) {
        const unsigned char* plane = src + j * n;
        for (std::size_t i = 0; i < n; ++i)
            dst[i * element_size + j] = plane[i];
    }
}

namespace {

// Elements [first, n) with the scalar loop, same layout as the full array.
void shuffle_tail(const unsigned char* src, unsigned char* dst, std::size_t first, std::size_t n,
                  std::size_t s) noexcept {
    for (std::size_t i = first; i < n; ++i)
        for (std::size_t j = 0; j < s; ++j)
            dst[j * n + i] = src[i * s + j];
}

void unshuffle_tail(const unsigned char* src, unsigned char* dst, std::size_t first, std::size_t n,
                    std::size_t s) noexcept {
    for (std::size_t i = first; i < n; ++i)
        for (std::size_t j = 0; j < s; ++j)
            dst[i * s + j] = src[j * n + i];
}

#if defined(__SSE2__)

// One unzip round over the 128-byte sequence r[0..7]: even bytes of the
// whole sequence into o[0..3], odd bytes into o[4..7].
inline void unzip(const __m128i* r, __m128i* o) noexcept {
    const __m128i low = _mm_set1_epi16(0x00ff);
    for (int k = 0; k < 4; ++k) {
        __m128i a = r[2 * k], b = r[2 * k + 1];
        o[k] = _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low));
        o[k + 4] = _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
    }
}

// The inverse: interleave r[0..3] (even positions) with r[4..7] (odd).
inline void zip(const __m128i* r, __m128i* o) noexcept {
    for (int k = 0; k < 4; ++k) {
        o[2 * k] = _mm_unpacklo_epi8(r[k], r[k + 4]);
        o[2 * k + 1] = _mm_unpackhi_epi8(r[k], r[k + 4]);
    }
}

void shuffle8_sse2(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a[8], b[8];
        for (int k = 0; k < 8; ++k)
            a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * 8 + 16 * k));
        unzip(a, b);
        unzip(b, a);
        unzip(a, b);
        for (int j = 0; j < 8; ++j)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j * n + i), b[j]);
    }
    shuffle_tail(src, dst, i, n, 8);
}

void unshuffle8_sse2(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a[8], b[8];
        for (int j = 0; j < 8; ++j)
            a[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + j * n + i));
        zip(a, b);
        zip(b, a);
        zip(a, b);
        for (int k = 0; k < 8; ++k)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * 8 + 16 * k), b[k]);
    }
    unshuffle_tail(src, dst, i, n, 8);
}

void shuffle4_sse2(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m128i a[8], b[8];
        for (int k = 0; k < 8; ++k)
            a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * 4 + 16 * k));
        unzip(a, b);
        unzip(b, a);
        // Plane j is now a[2j], a[2j+1]: 32 bytes, one per element.
        for (int j = 0; j < 4; ++j) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j * n + i), a[2 * j]);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j * n + i + 16), a[2 * j + 1]);
        }
    }
    shuffle_tail(src, dst, i, n, 4);
}

void unshuffle4_sse2(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m128i a[8], b[8];
        for (int j = 0; j < 4; ++j) {
            a[2 * j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + j * n + i));
            a[2 * j + 1] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + j * n + i + 16));
        }
        zip(a, b);
        zip(b, a);
        for (int k = 0; k < 8; ++k)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * 4 + 16 * k), a[k]);
    }
    unshuffle_tail(src, dst, i, n, 4);
}

#endif

} // namespace

void shuffle_bytes(const unsigned char* src, unsigned char* dst, std::size_t n,
                   std::size_t element_size) noexcept {
    if (element_size <= 1) {
        if (n) std::memcpy(dst, src, n * element_size);
        return;
    }
#if defined(__SSE2__)
    if (element_size == 8) return shuffle8_sse2(src, dst, n);
    if (element_size == 4) return shuffle4_sse2(src, dst, n);
#endif
    shuffle_bytes_scalar(src, dst, n, element_size);
}

void unshuffle_bytes(const unsigned char* src, unsigned char* dst, std::size_t n,
                     std::size_t element_size) noexcept {
    if (element_size <= 1) {
        if (n) std::memcpy(dst, src, n * element_size);
        return;
    }
#if defined(__SSE2__)
    if (element_size == 8) return unshuffle8_sse2(src, dst, n);
    if (element_size == 4) return unshuffle4_sse2(src, dst, n);
#endif
    unshuffle_bytes_scalar(src, dst, n, element_size);
}

void shuffle_block(const unsigned char* src, unsigned char* dst, std::size_t n,
                   std::size_t element_size) noexcept {
    const std::size_t whole = n / element_size;
    shuffle_bytes(src, dst, whole, element_size);
    if (n % element_size)
        std::memcpy(dst + whole * element_size, src + whole * element_size, n % element_size);
}

void unshuffle_block(const unsigned char* src, unsigned char* dst, std::size_t n,
                     std::size_t element_size) noexcept {
    const std::size_t whole = n / element_size;
    unshuffle_bytes(src, dst, whole, element_size);
    if (n % element_size)
        std::memcpy(dst + whole * element_size, src + whole * element_size, n % element_size);
}

} // namespace formatbench::detail

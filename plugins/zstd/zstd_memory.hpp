// The allocator the zstd plugin gives libzstd's contexts (ZSTD_customMem):
// common/byte_buffer.hpp's large_aware_alloc, so that zstd's large
// buffers (the workers' job buffers with threads, the decoder's window) are
// huge-page mappings: a fresh context's buffers are fresh memory, faulted in
// inside every timed open-to-close: with 2 MiB pages, a few faults instead of
// one per 4 KiB, and kept for the next stream (bench/compress-notes.md).
#pragma once

#include "common/byte_buffer.hpp"

#define ZSTD_STATIC_LINKING_ONLY // ZSTD_customMem, ZSTD_create*_advanced
#include <zstd.h>

namespace formatbench::detail {

inline void* zstd_alloc(void*, std::size_t bytes) {
    return large_aware_alloc(bytes);
}
inline void zstd_free(void*, void* p) {
    large_aware_free(p);
}
inline constexpr ZSTD_customMem zstd_memory{zstd_alloc, zstd_free, nullptr};

} // namespace formatbench::detail

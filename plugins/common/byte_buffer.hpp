// Memory for the compressing plugins' stream buffers (file buffer,
// compressed input, shuffled blocks) and for a library's own buffers
// (zstd's custom allocator): never zero-filled, and from 1 MiB up a
// huge-page-aligned mapping from common/huge_pages.hpp, kept for the next
// stream when this one is done with it (why: huge_pages.hpp). Smaller
// buffers come from the C heap. madvise is a hint: where THP is off a
// mapping simply stays in small pages.
#pragma once

#include <cstddef>

namespace formatbench::detail {

class byte_buffer {
public:
    byte_buffer() noexcept = default;
    // Throws std::bad_alloc.
    explicit byte_buffer(std::size_t bytes);
    byte_buffer(byte_buffer&& o) noexcept;
    byte_buffer& operator=(byte_buffer&& o) noexcept;
    byte_buffer(const byte_buffer&) = delete;
    byte_buffer& operator=(const byte_buffer&) = delete;
    ~byte_buffer() { release(); }

    unsigned char* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    void release() noexcept;

    unsigned char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t mapped_ = 0; // bytes of the mapping, 0 for heap memory
};

// malloc/free with the same policy, for a library that takes an allocator
// (ZSTD_customMem): the block's size is kept in front of it, and the
// pointer returned is 64-byte aligned. nullptr when the system refuses.
void* large_aware_alloc(std::size_t bytes) noexcept;
void large_aware_free(void* p) noexcept;

} // namespace formatbench::detail

// Stream buffers of the compressing plugins; see byte_buffer.hpp.
#include "byte_buffer.hpp"

#include "huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

namespace formatbench::detail {

namespace {

constexpr std::size_t page_size = small_page_size;
constexpr std::size_t mapped_from = std::size_t{1} << 20;

// The size to map for `bytes`: whole 4 KiB pages, or whole 2 MiB pages when
// the part after the last 2 MiB boundary is at least half of one (a 1.9 MiB
// zstd workspace then takes one huge page instead of 490 small ones; a
// 4 MiB + 64 B buffer keeps a small page for its tail instead of a third
// huge page that the kernel would zero whole).
std::size_t mapping_size(std::size_t bytes) noexcept {
    if (bytes % huge_page_size >= huge_page_size / 2)
        return (bytes + huge_page_size - 1) / huge_page_size * huge_page_size;
    return (bytes + page_size - 1) / page_size * page_size;
}

// In front of each block of large_aware_alloc: the mapping's size (0 for
// heap memory) and the heap pointer.
struct block_header {
    std::size_t mapped;
    void* heap;
};
constexpr std::size_t header_bytes = 64;
static_assert(sizeof(block_header) <= header_bytes);

} // namespace

void* large_aware_alloc(std::size_t bytes) noexcept {
    if (bytes > SIZE_MAX - 2 * huge_page_size) return nullptr;
    unsigned char* base = nullptr;
    block_header h{0, nullptr};
    if (bytes + header_bytes < mapped_from) {
        // 64 bytes of slack to align the header to 64.
        h.heap = std::malloc(bytes + 2 * header_bytes);
        if (!h.heap) return nullptr;
        auto at = (reinterpret_cast<std::uintptr_t>(h.heap) + header_bytes - 1) / header_bytes * header_bytes;
        base = reinterpret_cast<unsigned char*>(at);
    } else {
        h.mapped = mapping_size(bytes + header_bytes);
        base = reinterpret_cast<unsigned char*>(take_mapping(h.mapped));
        if (!base) return nullptr;
    }
    *reinterpret_cast<block_header*>(base) = h;
    return base + header_bytes;
}

void large_aware_free(void* p) noexcept {
    if (!p) return;
    unsigned char* base = static_cast<unsigned char*>(p) - header_bytes;
    block_header h = *reinterpret_cast<block_header*>(base);
    if (h.mapped)
        give_mapping(reinterpret_cast<char*>(base), h.mapped);
    else
        std::free(h.heap);
}

byte_buffer::byte_buffer(std::size_t bytes) : size_(bytes) {
    if (bytes < mapped_from) {
        data_ = static_cast<unsigned char*>(std::malloc(bytes ? bytes : 1));
        if (!data_) throw std::bad_alloc();
        return;
    }
    std::size_t rounded = mapping_size(bytes);
    data_ = reinterpret_cast<unsigned char*>(take_mapping(rounded));
    if (!data_) throw std::bad_alloc();
    mapped_ = rounded;
}

byte_buffer::byte_buffer(byte_buffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
      mapped_(std::exchange(o.mapped_, 0)) {}

byte_buffer& byte_buffer::operator=(byte_buffer&& o) noexcept {
    if (this != &o) {
        release();
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
        mapped_ = std::exchange(o.mapped_, 0);
    }
    return *this;
}

void byte_buffer::release() noexcept {
    if (mapped_)
        give_mapping(reinterpret_cast<char*>(data_), mapped_);
    else
        std::free(data_);
    data_ = nullptr;
    size_ = 0;
    mapped_ = 0;
}

} // namespace formatbench::detail

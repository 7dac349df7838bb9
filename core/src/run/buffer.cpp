// Page-aligned allocation with a chosen offset.
#include "run/buffer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace formatbench {
namespace {

// Canary byte i after the data: not one value, so a plugin that writes a
// run of any byte changes it.
unsigned char canary_byte(std::size_t i) noexcept {
    return static_cast<unsigned char>(i * 131 + 7);
}

} // namespace

std::size_t page_size() noexcept {
    static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

void aligned_buffer::free_deleter::operator()(unsigned char* p) const noexcept {
    std::free(p);
}

aligned_buffer::aligned_buffer(std::size_t bytes, std::size_t offset) : offset_(offset), size_(bytes) {
    std::size_t page = page_size();
    const std::size_t total = (bytes + offset + guard_bytes + page - 1) / page * page;
    void* p = std::aligned_alloc(page, total);
    if (!p) throw std::bad_alloc();
    // Touch every page now, so the first timed write does not pay for page faults.
    std::memset(p, 0, total);
    base_.reset(static_cast<unsigned char*>(p));
    canary_ = total - offset - bytes;
    detail::fill_canary(data() + bytes, canary_);
}

std::size_t aligned_buffer::overrun() const noexcept {
    return base_ ? detail::canary_overrun(data() + size_, canary_) : 0;
}

void detail::fill_canary(unsigned char* p, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i)
        p[i] = canary_byte(i);
}

std::size_t detail::canary_overrun(const unsigned char* p, std::size_t n) noexcept {
    // The intact canary, compared with memcmp (a 4 KiB canary: ~0.1 us
    // instead of ~4.6 us byte by byte); a canary longer than it (large
    // pages, a large direct-I/O alignment) is scanned byte by byte.
    static const std::vector<unsigned char> intact = [] {
        std::vector<unsigned char> v(std::max<std::size_t>(page_size(), 4096) +
                                     2 * aligned_buffer::guard_bytes);
        fill_canary(v.data(), v.size());
        return v;
    }();
    if (n <= intact.size() && std::memcmp(p, intact.data(), n) == 0) return 0;
    for (std::size_t i = n; i > 0; --i)
        if (p[i - 1] != canary_byte(i - 1)) return i;
    return 0;
}

std::size_t aligned_buffer::alignment() const noexcept {
    auto address = reinterpret_cast<std::uintptr_t>(data());
    std::size_t a = 1;
    while (a < page_size() && (address & a) == 0)
        a <<= 1;
    return a;
}

} // namespace formatbench

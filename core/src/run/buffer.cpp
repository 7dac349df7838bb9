// Page-aligned allocation with a chosen offset.
#include "run/buffer.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace formatbench {

std::size_t page_size() noexcept {
    static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

void aligned_buffer::free_deleter::operator()(unsigned char* p) const noexcept {
    std::free(p);
}

aligned_buffer::aligned_buffer(std::size_t bytes, std::size_t offset) : offset_(offset), size_(bytes) {
    std::size_t page = page_size();
    std::size_t total = (bytes + offset + page - 1) / page * page;
    if (total == 0) total = page;
    void* p = std::aligned_alloc(page, total);
    if (!p) throw std::bad_alloc();
    // Touch every page now, so the first timed write does not pay for page faults.
    std::memset(p, 0, total);
    base_.reset(static_cast<unsigned char*>(p));
}

std::size_t aligned_buffer::alignment() const noexcept {
    auto address = reinterpret_cast<std::uintptr_t>(data());
    std::size_t a = 1;
    while (a < page_size() && (address & a) == 0)
        a <<= 1;
    return a;
}

} // namespace formatbench

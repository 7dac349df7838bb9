// Page-aligned buffers for the data handed to plugins. Alignment changes
// cached read speed by 2x on the reference machine (DESIGN.md), so the runner
// controls it: the data starts `offset` bytes past a page boundary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace formatbench {

class aligned_buffer {
public:
    aligned_buffer() = default;
    // Throws std::bad_alloc.
    aligned_buffer(std::size_t bytes, std::size_t offset = 0);

    unsigned char* data() noexcept { return base_.get() + offset_; }
    const unsigned char* data() const noexcept { return base_.get() + offset_; }
    std::size_t size() const noexcept { return size_; }
    // The largest power of two (up to the page size) dividing the data address.
    std::size_t alignment() const noexcept;

private:
    struct free_deleter {
        void operator()(unsigned char* p) const noexcept;
    };
    std::unique_ptr<unsigned char, free_deleter> base_;
    std::size_t offset_ = 0;
    std::size_t size_ = 0;
};

std::size_t page_size() noexcept;

} // namespace formatbench

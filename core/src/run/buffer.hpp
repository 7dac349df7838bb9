// Page-aligned buffers for the data handed to plugins. Alignment changes
// cached read speed by 2x on the reference machine (DESIGN.md), so the runner
// controls it: the data starts `offset` bytes past a page boundary. After
// the data, up to the end of its last page and at least guard_bytes long,
// lies a canary the runner checks after the plugin calls that get the
// buffer (outside the timed intervals): a plugin that writes past the
// values it was given fails its case instead of passing (docs/faults.md).
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
    // Bytes past the end up to and including the last canary byte that
    // changed; 0 when the canary is intact.
    std::size_t overrun() const noexcept;

    // The canary is at least this long.
    static constexpr std::size_t guard_bytes = 64;

private:
    struct free_deleter {
        void operator()(unsigned char* p) const noexcept;
    };
    std::unique_ptr<unsigned char, free_deleter> base_;
    std::size_t offset_ = 0;
    std::size_t size_ = 0;
    std::size_t canary_ = 0; // bytes from the end of the data to the end of the allocation
};

std::size_t page_size() noexcept;

namespace detail {
// The canary pattern over [p, p + n), and how far into it a write reached
// (aligned_buffer::overrun): for guards the runner lays out itself.
void fill_canary(unsigned char* p, std::size_t n) noexcept;
std::size_t canary_overrun(const unsigned char* p, std::size_t n) noexcept;
} // namespace detail

} // namespace formatbench

// Huge-page-aligned mappings and their pool; see huge_pages.hpp.
#include "huge_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace formatbench::detail {

namespace {

// Freed mappings kept for the next stream, in bytes at most: 1/32 of the
// physical memory, and never less than 32 MiB (for f64, the ascii writer's
// four large buffers, 14 MiB, and its buffered reader's two, 8 MiB; lz4's
// file buffer and input block, 4 MiB each with 4 MiB blocks). Data sets
// whose buffers pass a fixed cap got fresh memory at every stream, so the
// kernel zeroing it was timed in every repetition (zfp at 10^7 doubles:
// 0.76-0.89x its bare calls, plugins/zfp/README.md); a cap that grows with
// the machine keeps a stream's buffers for the next repetition, as the
// methodology promises (docs/methodology.md, "Memory").
std::size_t kept_max() noexcept {
    static const std::size_t max = [] {
        const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
        const std::size_t floor = std::size_t{32} << 20;
        if (pages <= 0 || page <= 0) return floor;
        return std::max(floor, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 32);
    }();
    return max;
}

class mapping_pool {
public:
    mapping_pool() { kept_.reserve(16); } // give() never allocates
    ~mapping_pool() {
        for (const auto& m : kept_)
            ::munmap(m.first, m.second);
    }
    char* take(std::size_t bytes) noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = kept_.begin(); it != kept_.end(); ++it) {
            if (it->second == bytes) {
                char* p = it->first;
                kept_bytes_ -= bytes;
                kept_.erase(it);
                return p;
            }
        }
        return nullptr;
    }
    // Keeps the mapping or, when that would pass kept_max, unmaps it.
    void give(char* p, std::size_t bytes) noexcept {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (kept_bytes_ + bytes <= kept_max() && kept_.size() < kept_.capacity()) {
                kept_.emplace_back(p, bytes);
                kept_bytes_ += bytes;
                return;
            }
        }
        ::munmap(p, bytes);
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<char*, std::size_t>> kept_;
    std::size_t kept_bytes_ = 0;
};

mapping_pool& pool() {
    static mapping_pool p;
    return p;
}

} // namespace

char* map_huge_aligned(std::size_t bytes, int extra_flags) noexcept {
    std::size_t span = bytes + huge_page_size;
    void* m = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
    if (m == MAP_FAILED) return nullptr;
    auto base = reinterpret_cast<std::uintptr_t>(m);
    std::uintptr_t aligned = (base + huge_page_size - 1) / huge_page_size * huge_page_size;
    if (aligned > base) ::munmap(m, aligned - base);
    std::size_t tail = base + span - (aligned + bytes);
    if (tail) ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
    return reinterpret_cast<char*>(aligned);
}

char* take_mapping(std::size_t bytes) noexcept {
    if (char* kept = pool().take(bytes)) return kept;
    char* m = map_huge_aligned(bytes, 0);
    if (m) ::madvise(m, bytes, MADV_HUGEPAGE);
    return m;
}

void give_mapping(char* p, std::size_t bytes) noexcept {
    pool().give(p, bytes);
}

} // namespace formatbench::detail

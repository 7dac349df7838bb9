// Batches and round orders of the schedules (schedule.hpp).
#include "run/schedule.hpp"

#include <algorithm>
#include <random>

namespace formatbench {

std::uint64_t case_memory_bytes(const case_spec& c, std::uint64_t in_memory_bytes) {
    const std::uint64_t esize = dtype_size(c.dataset.type);
    const std::uint64_t payload = c.dataset.count * esize;
    if (payload <= in_memory_bytes) return payload > UINT64_MAX / 2 ? UINT64_MAX : 2 * payload;
    const std::uint64_t chunk = c.params.chunk_bytes ? c.params.chunk_bytes : payload;
    return 3 * std::min(chunk, payload);
}

std::vector<std::vector<std::size_t>> plan_batches(const std::vector<const case_spec*>& cases,
                                                   schedule_mode mode, std::uint64_t in_memory_bytes,
                                                   std::uint64_t memory_budget, std::size_t max_alive) {
    std::vector<std::vector<std::size_t>> batches;
    std::uint64_t used = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::uint64_t need = case_memory_bytes(*cases[i], in_memory_bytes);
        const bool fits = !batches.empty() && mode != schedule_mode::sequential &&
                          batches.back().size() < max_alive && need <= memory_budget &&
                          used <= memory_budget - need;
        if (!fits) {
            batches.emplace_back();
            used = 0;
        }
        batches.back().push_back(i);
        used += need;
    }
    return batches;
}

std::vector<std::size_t> round_order(schedule_mode mode, const std::vector<std::size_t>& active,
                                     std::uint64_t seed, std::uint64_t round) {
    if (active.empty()) return {};
    switch (mode) {
    case schedule_mode::sequential: return {active.front()};
    case schedule_mode::interleave: return active;
    case schedule_mode::shuffle: {
        std::vector<std::size_t> order = active;
        std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                          static_cast<std::uint32_t>(round), static_cast<std::uint32_t>(round >> 32)};
        std::mt19937_64 rng(seq);
        // Fisher-Yates with mt19937_64 (fully specified by the standard), not
        // std::shuffle (whose algorithm differs between standard libraries),
        // so a seed gives the same order with every compiler.
        for (std::size_t i = order.size() - 1; i > 0; --i)
            std::swap(order[i], order[static_cast<std::size_t>(rng() % (i + 1))]);
        return order;
    }
    }
    return active;
}

} // namespace formatbench

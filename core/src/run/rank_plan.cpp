// Slices and paths of a rank in a case (rank_plan.hpp).
#include "run/rank_plan.hpp"

#include "base/error.hpp"

#include <fmt/format.h>

namespace formatbench {

element_slice rank_slice(scaling_mode scaling, std::uint64_t count, unsigned r, unsigned size) {
    if (scaling == scaling_mode::weak) return {static_cast<std::uint64_t>(r) * count, count};
    const std::uint64_t base = count / size, extra = count % size;
    return {r * base + std::min<std::uint64_t>(r, extra), base + (r < extra ? 1 : 0)};
}

rank_plan plan_rank(const case_spec& c, rank_place where, const std::string& path) {
    const run_params& p = c.params;
    const std::uint64_t count = c.dataset.count;
    if (p.scaling == scaling_mode::weak && where.size > 1 && count > UINT64_MAX / where.size)
        throw usage_error(
            fmt::format("case {}: {} ranks x {} values do not fit in 64 bits", c.key, where.size, count));
    rank_plan plan;
    plan.where = where;
    plan.total = p.scaling == scaling_mode::weak ? count * where.size : count;
    const unsigned source = static_cast<unsigned>((where.rank + p.read_rank_shift % where.size) % where.size);
    plan.write = rank_slice(p.scaling, count, where.rank, where.size);
    plan.read = rank_slice(p.scaling, count, source, where.size);
    plan.widest = rank_slice(p.scaling, count, 0, where.size).count;
    plan.shared = p.layout == layout_mode::shared_file;
    if (plan.shared) {
        plan.write_path = plan.read_path = path;
        plan.remove_path = where.rank == 0 ? path : std::string();
    } else if (where.size == 1) {
        plan.write_path = plan.read_path = plan.remove_path = path;
    } else {
        plan.write_path = plan.remove_path = fmt::format("{}.{}", path, where.rank);
        plan.read_path = fmt::format("{}.{}", path, source);
    }
    return plan;
}

} // namespace formatbench

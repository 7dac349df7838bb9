// The trade-off of file size against time in one group of the verdict
// (docs/results.md, "The verdict"): the Pareto front (each format that keeps
// a smaller file than every faster one), said as what each buys against the
// fastest ("zstd-3 saves 41% of the space for 2.30x the write time"), with
// the error of the lossy ones, and the dominated formats: slower than
// another whose file is no bigger, so that no one should pick them.
#pragma once

#include "report/work_groups.hpp"

#include <optional>
#include <string>
#include <vector>

namespace formatbench::detail {

// Files within this fraction of each other count as the same size (a
// header's few bytes do not buy anything).
inline constexpr double same_size_fraction = 0.01;

struct pareto {
    std::vector<const work_row*> front; // fastest first; each file smaller than every faster one's
    // Each dominated row and the faster one, no bigger, that dominates it
    // (of those, the one with the smallest file).
    std::vector<std::pair<const work_row*, const work_row*>> dominated;
};

// The front of a group's rows that keep a file and have an estimate.
pareto pareto_front(const work_group& wg);

// The sentence, when the front holds more than the fastest; none otherwise
// (every file the same size, or the fastest also the smallest).
std::optional<std::string> tradeoff_line(const work_group& wg);

} // namespace formatbench::detail

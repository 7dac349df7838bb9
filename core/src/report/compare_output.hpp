// Renderings of a comparison of two results records (results/compare.hpp).
#pragma once

#include "results/compare.hpp"

#include <cstddef>
#include <ostream>
#include <string_view>

namespace formatbench {

// "table" (aligned text), "json", "markdown"; usage_error otherwise. The
// table for `width` columns (0: unlimited): when too wide, split over
// tables that each start with the format and the data set, as run's plain
// tables are (table_layout.hpp), the lines under it wrapped.
void write_comparison(const comparison& c, std::string_view format, std::ostream& out, std::size_t width = 0);

} // namespace formatbench

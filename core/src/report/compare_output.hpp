// Renderings of a comparison of two results records (results/compare.hpp).
#pragma once

#include "results/compare.hpp"

#include <ostream>
#include <string_view>

namespace formatbench {

// "table" (aligned text), "json", "markdown"; usage_error otherwise.
void write_comparison(const comparison& c, std::string_view format, std::ostream& out);

} // namespace formatbench

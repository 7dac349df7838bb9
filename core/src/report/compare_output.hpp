// Renderings of a comparison of two results records (results/compare.hpp).
#pragma once

#include "results/compare.hpp"

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench {

namespace detail {
struct results_table; // report/table.hpp
}

// "table" (aligned text), "json", "markdown"; usage_error otherwise. The
// table for `width` columns (0: unlimited): when too wide, split over
// tables that each start with the format and the data set, as run's plain
// tables are (table_layout.hpp), the lines under it wrapped.
void write_comparison(const comparison& c, std::string_view format, std::ostream& out, std::size_t width = 0);

// The pieces of the table rendering, for the HTML report of several
// records (html.hpp), so that it says what `compare` says:
// The table: one row per matched case (data set, format, per phase the
// two medians, the ratio, the change with its 95% interval and p; the p99
// columns when some case has them; the verdict).
detail::results_table comparison_table(const comparison& c);
// The sentences under it: geometric means, the count of significantly
// slower cases, the run-to-run spread, disturbed phases, unreliable cases,
// each unmatched case (else, with `each_unmatched` false, how many), and
// the RESULT line.
std::vector<std::string> comparison_lines(const comparison& c, bool each_unmatched = true);
// What the columns mean.
std::vector<std::string> comparison_legend(const comparison& c);
// One sentence per case whose change is called (significantly slower or
// faster): "DATA SET / FORMAT: VERDICT; write CHANGE [interval], read ...".
std::vector<std::string> comparison_changes(const comparison& c);

} // namespace formatbench

// `formatbench plan`'s text laid out for a terminal width, by the rules run's
// tables follow (table_layout.hpp, terminal_text.hpp): the case table in one
// piece when it fits, else split over tables that each start with the case
// number and the format label; the lines around it wrapped. Every string from the study is
// escaped (base/text.hpp, escape_line), so a label or an option value
// cannot move the cursor, colour the terminal or forge a line.
#pragma once

#include "study/plan.hpp"

#include <cstddef>
#include <ostream>
#include <string>

namespace formatbench {

// `t` for `width` columns (0: unlimited, the one table as wide as it is).
void print_plan(const plan_table& t, std::ostream& out, std::size_t width);

// A note under the plan ("  disk: ...") wrapped to `width`, its later lines
// indented two columns more than its first; escaped.
void print_plan_note(const std::string& note, std::ostream& out, std::size_t width);

} // namespace formatbench

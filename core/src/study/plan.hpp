// Sweep expansion: any scalar in a study may be a list; lists multiply into
// cases (cartesian product), and `formatbench plan` prints them.
#pragma once

#include "study/study.hpp"

#include <ostream>

namespace formatbench {

// A one-line description of a case: "f64-uniform-1e6 | zlib level=6 | chunk whole | warm | sync none".
std::string describe_case(const case_spec& c);

// Prints the expanded cases as an aligned table.
void print_plan(const study& s, std::ostream& out);

} // namespace formatbench

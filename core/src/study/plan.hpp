// Sweep expansion: any scalar in a study may be a list; lists multiply into
// cases (cartesian product), and `formatbench plan` prints them.
#pragma once

#include "study/study.hpp"

#include <ostream>
#include <vector>

namespace formatbench {

// A one-line description of a case: "f64-uniform-1e6 | zlib level=6 | chunk whole | warm | sync none".
std::string describe_case(const case_spec& c);

// Prints the expanded cases as an aligned table: the `selected` ones (per
// case, select.hpp; empty = all), under their numbers in the full plan.
void print_plan(const study& s, std::ostream& out, const std::vector<bool>& selected = {});

} // namespace formatbench

// Sweep expansion: any scalar in a study may be a list; lists multiply into
// cases (cartesian product), and `formatbench plan` prints them.
#pragma once

#include "study/study.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace formatbench {

// A one-line description of a case: "f64-uniform-1e6 | zlib level=6 | chunk whole | warm | sync none".
std::string describe_case(const case_spec& c);

// A column plan adds after the study's own: its header and a cell per case
// of the study (plan order).
struct plan_column {
    std::string header;
    std::vector<std::string> cells;
};

// Prints the expanded cases as an aligned table: the `selected` ones (per
// case, select.hpp; empty = all), under their numbers in the full plan,
// with the `extra` columns (plan's estimates) at the end.
void print_plan(const study& s, std::ostream& out, const std::vector<bool>& selected = {},
                const std::vector<plan_column>& extra = {});

} // namespace formatbench

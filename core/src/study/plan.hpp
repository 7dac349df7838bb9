// Sweep expansion: any scalar in a study may be a list; lists multiply into
// cases (cartesian product), and `formatbench plan` shows them: one line per
// case, and the table of them.
#pragma once

#include "study/study.hpp"

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

// What `formatbench plan` prints of the expanded cases, not yet laid out
// (report/plan_output.hpp lays it out for a width): its heading lines, the
// table of the `selected` cases (per case, select.hpp; empty = all), under
// their numbers in the full plan, with the `extra` columns (plan's
// estimates) at the end, and the settings common to every case. Text from
// the study (names, labels, option values) is as the study has it.
struct plan_table {
    std::vector<std::string> heading; // "study NAME (SOURCE): ...", the description, the selection
    std::vector<std::string> header;  // "#", "DATASET", ...
    std::vector<bool> right;          // per column: right-aligned (numbers)
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string>
        settings; // "directory: ...", "baseline: ...", the run parameters alike in all cases
};
plan_table make_plan_table(const study& s, const std::vector<bool>& selected = {},
                           const std::vector<plan_column>& extra = {});

} // namespace formatbench

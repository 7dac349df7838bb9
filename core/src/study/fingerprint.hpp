// Every value that makes a planned case what it is, and the study's own
// settings, as named text: what the ranks of an MPI run compare before any
// case (run/rank_agreement.hpp). Names are as in the study file, with the
// group first: dataset.count, format.options, run.chunk, ...
#pragma once

#include "study/study.hpp"

#include <string>
#include <utility>
#include <vector>

namespace formatbench::detail {

using named_values = std::vector<std::pair<std::string, std::string>>;

// The case's data set fields, format (label, plugin, options, tolerance),
// every run parameter, and its key.
named_values case_values(const case_spec& c);

// The study's settings (study_fields: directory, schedule, ...) and baseline.
named_values study_values(const study& s);

} // namespace formatbench::detail

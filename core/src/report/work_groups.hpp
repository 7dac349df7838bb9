// The rows of a data set that did the same work (study/work.hpp), for the
// verdict (docs/results.md, "The verdict"): one group per combination of the
// work keys of a phase, so that a ranking never compares unlike work. Read
// groups: cases with the same work keys (access pattern and its parameters,
// cache state, chunk, sync, ...). Write groups: cases with the same
// write-side keys, one row per format (plugin and options) there, its write
// pooled over the rows that differ only in how they were read
// (case_figures::shared_write).
#pragma once

#include "results/figures.hpp"
#include "study/work.hpp"

#include <string>
#include <vector>

namespace formatbench::detail {

// One row of a group: a case, and its name there.
struct work_row {
    const case_result* c = nullptr;
    std::string name; // the format label, or the labels of the rows pooled ("raw / raw-planes")
    std::vector<const case_result*> pooled; // write: every case of the data set it stands for
};

struct work_group {
    work_side side = work_side::read;
    // The work keys that tell this group apart from the data set's other
    // groups of its side, as row labels name them ("random, block 4KiB,
    // cold"); "" when the data set has one group of that side.
    std::string heading;
    std::vector<work_row> rows; // ok cases with samples, in plan order
    run_params params;          // the work of the group (of its first case)
};

// The data set's groups of one side, in the plan order of their first case.
std::vector<work_group> work_groups(const dataset_group& g, work_side side);

// The phase figures a group ranks by: shared_write for a write (the case's
// own write before summarize_study), the read's otherwise.
const phase_figures& ranked_phase(const case_result& c, work_side side);

// The format of a case as the verdict counts formats: its plugin and options
// ("raw" and "raw-planes" of one plugin without options are one format).
std::string format_key(const case_result& c);

} // namespace formatbench::detail

// The self-contained HTML report (`formatbench report`): one XHTML-compatible
// file with inline CSS (screen and print) and inline SVG charts (svg.hpp), no
// script, no network resource. For one or more results records it shows,
// answer first (docs/compare.md "report"): under the title the workload's
// recommendation or the verdict of one record (verdict.hpp, recommend.hpp),
// or each record against the first as compare says it (compare_output.hpp);
// then the charts: a count sweep's time against count first, then per data
// set (the records' ratios,) throughput bars with min..max whiskers,
// speed-ups against the baseline, size ratio vs throughput with the Pareto
// front, a chart per record, for lossy cases size ratio vs max error with
// its front, and read latency CDFs; for every other swept numeric parameter
// small multiples of time against it (sweeps.hpp); then the summary tables
// and each record's context. Several records are shown side by side as one
// series per record.
#pragma once

#include "report/units.hpp"
#include "results/result.hpp"

#include <string>
#include <utility>
#include <vector>

namespace formatbench {

struct report_input {
    std::string name; // how the record is named in the report (e.g. the file name)
    study_result result;
};

struct html_report {
    std::string html;
    // Each chart as a standalone SVG document: (file stem, text); stems are
    // unique and safe as file names.
    std::vector<std::pair<std::string, std::string>> charts;
};

// `title` heads the page ("" = derived from the study names); throughput is
// shown in `units` (report --units).
html_report render_html_report(const std::vector<report_input>& inputs, const std::string& title,
                               rate_unit units = rate_unit::si);

} // namespace formatbench

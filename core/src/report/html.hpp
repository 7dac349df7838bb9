// The self-contained HTML report (`formatbench report`): one XHTML-compatible
// file with inline CSS (screen and print) and inline SVG charts (svg.hpp), no
// script, no network resource. For one or more results records it shows,
// answer first: per data set a verdict and its charts (throughput bars with
// min..max whiskers, speed-ups against the baseline, size ratio vs
// throughput with the Pareto front, a chart per record, and for lossy cases
// size ratio vs max error with its front), for every swept
// numeric parameter small multiples of time against it (sweeps.hpp), then
// the summary tables and each record's context. Several records are shown
// side by side as one series per record.
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

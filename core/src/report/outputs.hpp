// The outputs of a run, in one table: each name with what it writes and the
// observer that writes it. The study's `outputs:`, the command line's flags
// (`--json FILE`, ...), `--help` and docs/results.md follow this table: a new
// output is one file (its reporter or observer) and one row here.
#pragma once

#include "report/reporter.hpp"
#include "run/observer.hpp"
#include "study/study.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace formatbench {

// How the JSON Lines log is opened (docs/results.md, "The log").
struct log_options {
    bool resuming = false; // appending to the log of the run being resumed
    bool force = false;    // an existing log may be overwritten
};

struct output_kind {
    std::string name; // as in `outputs:` and as the flag: --NAME
    std::string help; // one line for --help
    bool may_be_stdout = true;
    // The observer that writes this output to `path` ("" or "-": standard output).
    std::function<std::unique_ptr<observer>(const std::string& path, const log_options& log,
                                            const render_options& style)>
        make;
};

// console, json, csv, markdown, jsonl.
const std::vector<output_kind>& output_kinds();

// The row of an output name; usage_error naming `origin` ("FILE:LINE:COLUMN"
// or a flag) with a "did you mean" and the known names.
const output_kind& output_kind_named(const std::string& name, const std::string& origin);

// Checks every output before anything runs: a known name, a path that can be
// written (folder exists and is writable, not a folder), at most one output
// on standard output, no file named twice. Throws usage_error.
void check_outputs(const std::vector<output_spec>& outputs);

// The observers of `outputs`, in order.
void add_output_observers(const std::vector<output_spec>& outputs, const log_options& log,
                          const render_options& style, observer_list& to);

} // namespace formatbench

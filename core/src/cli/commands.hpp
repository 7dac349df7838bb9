// The CLI's subcommands register themselves on the CLI11 app through these
// functions; each sets `action` to run when its subcommand is chosen.
#pragma once

#include "base/colour.hpp"
#include "host/registry.hpp"
#include "study/study.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

// CLI11 is included only by the files that build commands (cmd_*.cpp, main.cpp).
namespace CLI {
class App;
} // namespace CLI

namespace formatbench::cli {

struct global_options {
    std::vector<std::string> plugin_path; // --plugin-path, repeatable
    bool quiet = false;                   // no load diagnostics on stderr; for run: as run --quiet
    std::string colour = "auto";          // --color auto|always|never (base/colour.hpp decides)
};

// Whether to colour what goes to `fd` (STDOUT_FILENO, STDERR_FILENO).
inline bool colour_for(const global_options& global, int fd) {
    return colour_wanted(parse_colour_mode(global.colour), fd);
}

// The columns a command lays its text out for (docs/cli.md, "The table"):
// `flag` (--width: N of at least 40, or "unlimited": 0), else COLUMNS, else
// the terminal's width on standard output, else `otherwise` (run: 100;
// plan, compare, describe: 0, unlimited, for a file or a pipe). Throws
// usage_error for a bad flag.
std::size_t output_width(const std::string& flag, std::size_t otherwise);

// Returns the process exit code.
using command_action = std::function<int()>;

// Ends the command with this exit code and no message (an MPI rank other
// than 0 whose error rank 0 reports).
struct silent_exit {
    int code;
};

// Prints an error the way every command ends with one: "formatbench: WHAT"
// for a usage error (exit 2), "formatbench: error: WHAT" otherwise ("error:"
// in red when `colour`).
void print_error(const std::string& what, bool usage, bool colour = false);

// Loads every plugin on the search path; prints one line per skipped file to
// stderr unless quiet.
std::unique_ptr<registry> load_plugins(const global_options& global,
                                       const std::vector<std::string>& study_plugin_path = {});

// --help texts that depend on the installation (help_text.cpp): the STUDY
// argument of run and plan, and the footer of `formatbench --help`.
std::string study_argument_help();
std::string main_help_footer();

// --filter and --exclude of run and plan (study/select.hpp), with the
// baselines of the selected cases added (a note on stderr for each when
// `notes`); empty when neither flag is given. cmd_plan.cpp.
std::vector<bool> selected_cases(const study& s, const std::vector<std::string>& filters,
                                 const std::vector<std::string>& excludes, bool notes);
// Adds --filter and --exclude to `command`.
// --units si|iec of run and report: the throughput unit; `what` says where
// it applies ("of the table, CSV and Markdown"). cmd_plan.cpp, beside the
// selection options.
void add_units_option(CLI::App& command, std::string& units, const std::string& what);

void add_selection_options(CLI::App& command, std::vector<std::string>& filters,
                           std::vector<std::string>& excludes);

void add_plugins_commands(CLI::App& app, const global_options& global, command_action& action);
// `formatbench plan STUDY [--set k=v]...` (cmd_plan.cpp)
void add_plan_command(CLI::App& app, const global_options& global, command_action& action);
// `formatbench run [STUDY] [--set k=v]... [--resume LOG]` (cmd_run.cpp)
void add_run_command(CLI::App& app, const global_options& global, command_action& action);
// `formatbench check-plugin PATH [--quick] [--json] [--list] [--only GLOB]...` (cmd_check_plugin.cpp)
void add_check_plugin_command(CLI::App& app, const global_options& global, command_action& action);
// `formatbench compare BASE.json NEW.json [--threshold 5%]` (cmd_compare.cpp)
void add_compare_command(CLI::App& app, const global_options& global, command_action& action);
// `formatbench report RESULTS.json... -o report.html [--svg-dir DIR]` (cmd_report.cpp)
void add_report_command(CLI::App& app, const global_options& global, command_action& action);
// `formatbench new-plugin NAME [--lang c|cpp] [--build meson|cmake] [--dir DIR] [--force]`
// (cmd_new_plugin.cpp)
void add_new_plugin_command(CLI::App& app, const global_options& global, command_action& action);

} // namespace formatbench::cli

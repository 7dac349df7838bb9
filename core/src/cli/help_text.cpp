// The parts of --help that depend on the installation: the STUDY argument of
// `run` and `plan` (with the ready studies' names) and the footer of
// `formatbench --help` (exit status, environment, installed files). The man
// page is generated from this --help output (scripts/make-manpage.py), so
// the footer's blocks are "Title:" lines followed by two-column entries.
#include "base/install_dirs.hpp"
#include "base/suggest.hpp"
#include "cli/commands.hpp"
#include "study/ready_studies.hpp"

#include <fmt/format.h>

namespace formatbench::cli {

std::string study_argument_help() {
    const auto names = ready_study_names(ready_study_dir());
    return "study file (YAML), or the name of a ready study" +
           (names.empty() ? std::string() : " (" + join(names) + ")") +
           "; a name with '/' or ending in .yaml is always a file";
}

std::string main_help_footer() {
    const auto names = ready_study_names(ready_study_dir());
    constexpr int width = 30; // CLI11's column for descriptions
    auto entry = [](const std::string& left, const std::string& right) {
        return left.size() + 2 < width ? fmt::format("  {:<{}}{}\n", left, width - 2, right)
                                       : fmt::format("  {}\n  {:<{}}{}\n", left, "", width - 2, right);
    };
    std::string out = "Exit status:\n";
    out += entry("0", "success");
    out += entry("1", "a case failed, the run was incomplete or an output could not be written");
    out += entry("2", "usage or configuration error: the message says what to fix");
    out += entry("130", "interrupted (SIGINT/SIGTERM); finished results are written");
    out += "\nEnvironment:\n";
    out += entry("FORMATBENCH_PLUGIN_PATH",
                 "folders to search for plugins (colon-separated), after --plugin-path");
    out += entry("FORMATBENCH_LOAD_TIMEOUT", "seconds a plugin library may take to load (default 10)");
    out += "\nFiles:\n";
    out += entry(installed_study_dir().string(),
                 "ready studies: `formatbench run NAME` reads NAME.yaml from here" +
                     (names.empty() ? std::string() : " (" + join(names) + ")"));
    out += entry(documentation_dir().string(),
                 "documentation: cli.md (commands, flags, exit status), config.md (study files), "
                 "results.md (outputs), plugin-guide.md (writing a plugin)");
    out.pop_back(); // CLI11 ends the footer with its own newline
    return out;
}

} // namespace formatbench::cli

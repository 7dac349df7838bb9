// formatbench command-line entry: global options, subcommand dispatch and the
// mapping of errors to the documented exit codes (0 ok, 1 a case failed or an
// output was not written, 2 usage or configuration error, 130 interrupted).
// Standard output is checked at the end of every command: a write lost to a
// full disk, a closed pipe or /dev/full is an error, never a silent success.
#include "base/error.hpp"
#include "base/fp_env.hpp"
#include "base/text.hpp"
#include "build_config.hpp"
#include "cli/commands.hpp"
#include "report/output_file.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <exception>

namespace formatbench::cli {

void print_error(const std::string& what, bool usage, bool colour) {
    if (usage)
        fmt::print(stderr, "formatbench: {}\n", escape_text(what));
    else
        fmt::print(stderr, "formatbench: {} {}\n", paint(tone::bad, "error:", colour), escape_text(what));
}

} // namespace formatbench::cli

int main(int argc, char** argv) {
    using namespace formatbench;
    // Taken before any plugin is loaded: what every case starts in.
    detail::default_fp_environment();
    // A closed pipe on standard output is an error to report (EPIPE), not a
    // signal that ends the process before the other outputs are written.
    std::signal(SIGPIPE, SIG_IGN);
    CLI::App app{"formatbench: benchmark file formats through plugins, driven by YAML studies.\n"
                 "A study writes a generated data set with each format it names, reads it back, verifies it "
                 "bit for bit and reports time, throughput, file size and speed-up against a baseline.",
                 "formatbench"};
    app.footer(cli::main_help_footer); // exit status, environment, installed files
    app.set_version_flag("--version", std::string("formatbench ") + FB_VERSION);
    app.require_subcommand(1);
    app.fallthrough();

    cli::global_options global;
    app.add_option(
           "--plugin-path", global.plugin_path,
           "folder to search for plugins first (repeatable); then FORMATBENCH_PLUGIN_PATH, the study's "
           "plugin_path and the folder beside the executable")
        ->type_name("DIR")
        ->allow_extra_args(false); // one folder per flag: `describe --plugin-path DIR ID` keeps ID
    app.add_flag("-q,--quiet", global.quiet,
                 "do not report plugin files that were skipped (run: the same as run --quiet)");
    app.add_option("--color", global.colour,
                   "colour on a terminal: auto (a terminal, no MPI launcher, NO_COLOR unset or empty, TERM "
                   "not dumb), always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->type_name("WHEN")
        ->default_str("auto");

    cli::command_action action;
    cli::add_plugins_commands(app, global, action);
    cli::add_plan_command(app, global, action);
    cli::add_run_command(app, global, action);
    cli::add_check_plugin_command(app, global, action);
    cli::add_compare_command(app, global, action);
    cli::add_report_command(app, global, action);
    cli::add_new_plugin_command(app, global, action);

    // Standard output must have taken everything; otherwise the command failed.
    auto checked = [](int code) {
        try {
            flush_standard_output();
        } catch (const std::exception& e) {
            fmt::print(stderr, "formatbench: error: {}\n", escape_text(e.what()));
            return code == exit_ok ? exit_case_failed : code;
        }
        return code;
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return checked(code == 0 ? exit_ok : exit_usage);
    }
    try {
        return checked(action ? action() : exit_usage);
    } catch (const cli::silent_exit& e) {
        return e.code;
    } catch (const usage_error& e) {
        cli::print_error(e.what(), true);
        return checked(exit_usage);
    } catch (const std::exception& e) {
        cli::print_error(e.what(), false, cli::colour_for(global, STDERR_FILENO));
        return checked(exit_case_failed);
    }
}

// formatbench command-line entry: global options, subcommand dispatch and the
// mapping of errors to the documented exit codes (0 ok, 1 a case failed,
// 2 usage or configuration error).
#include "build_config.hpp"
#include "cli/commands.hpp"
#include "base/error.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    using namespace formatbench;
    CLI::App app{"formatbench: benchmark file formats through plugins, driven by YAML studies.\n"
                 "Exit status: 0 success, 1 a case failed, 2 usage or configuration error.",
                 "formatbench"};
    app.set_version_flag("--version", std::string("formatbench ") + FB_VERSION);
    app.require_subcommand(1);
    app.fallthrough();

    cli::global_options global;
    app.add_option(
           "--plugin-path", global.plugin_path,
           "folder to search for plugins first (repeatable); then FORMATBENCH_PLUGIN_PATH, the study's "
           "plugin_path and the folder beside the executable")
        ->type_name("DIR");
    app.add_flag("-q,--quiet", global.quiet, "do not report plugin files that were skipped");

    cli::command_action action;
    cli::add_plugins_commands(app, global, action);
    cli::add_plan_command(app, global, action);
    cli::add_run_command(app, global, action);
    cli::add_check_plugin_command(app, global, action);
    cli::add_compare_command(app, global, action);
    cli::add_report_command(app, global, action);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? exit_ok : exit_usage;
    }
    try {
        return action ? action() : exit_usage;
    } catch (const usage_error& e) {
        fmt::print(stderr, "formatbench: {}\n", e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "formatbench: error: {}\n", e.what());
        return exit_case_failed;
    }
}

// `formatbench report RESULTS.json... -o report.html [--svg-dir DIR]`: one
// self-contained HTML file (inline CSS and SVG, no script, no network) from
// one or more results records; --svg-dir also writes every chart as a
// standalone SVG file. Bad or unreadable records exit with status 2.
#include "base/error.hpp"
#include "cli/commands.hpp"
#include "report/html.hpp"
#include "report/output_file.hpp"
#include "results/compare.hpp"
#include "results/load.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace formatbench::cli {
namespace {

// The file name, or the path and position for every record whose file
// name another record shares.
std::vector<std::string> record_names(const std::vector<std::string>& paths) {
    std::vector<std::string> files;
    for (const auto& p : paths)
        files.push_back(std::filesystem::path(p).filename().string());
    std::vector<std::string> names = files;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (std::count(files.begin(), files.end(), files[i]) > 1)
            names[i] = fmt::format("{} ({})", paths[i], i + 1);
    return names;
}

} // namespace

void add_report_command(CLI::App& app, const global_options& /*global*/, command_action& action) {
    struct arguments {
        std::vector<std::string> files;
        std::string output, svg_dir, title;
        std::string units = "si";
    };
    auto args = std::make_shared<arguments>();
    auto* cmd = app.add_subcommand("report",
                                   "write a self-contained HTML report with charts from one or more "
                                   "results records (run --json); several records are compared side by side");
    cmd->add_option("RESULTS", args->files, "results records (JSON)")->required();
    cmd->add_option("-o,--output", args->output, "the HTML file to write")->required()->type_name("FILE");
    cmd->add_option("--svg-dir", args->svg_dir,
                    "also write each chart as a standalone SVG file in this folder")
        ->type_name("DIR");
    cmd->add_option("--title", args->title, "page title (default: from the study names)");
    add_units_option(*cmd, args->units, "of tables and charts");
    cmd->callback([&action, args] {
        action = [args] {
            std::vector<report_input> inputs;
            const std::vector<std::string> names = record_names(args->files);
            for (std::size_t i = 0; i < args->files.size(); ++i)
                inputs.push_back({names[i], load_results_file(args->files[i])});
            const html_report r = render_html_report(inputs, args->title,
                                                     args->units == "iec" ? rate_unit::iec : rate_unit::si);
            write_output_file(args->output, r.html);
            if (!args->svg_dir.empty()) {
                std::error_code ec;
                std::filesystem::create_directories(args->svg_dir, ec);
                if (ec) throw usage_error(fmt::format("--svg-dir {}: {}", args->svg_dir, ec.message()));
                for (const auto& [stem, text] : r.charts)
                    write_output_file((std::filesystem::path(args->svg_dir) / (stem + ".svg")).string(),
                                      text);
            }
            fmt::print(stderr, "formatbench: wrote {} ({} charts{})\n", args->output, r.charts.size(),
                       args->svg_dir.empty() ? "" : ", also as SVG files in " + args->svg_dir);
            return exit_ok;
        };
    });
}

} // namespace formatbench::cli

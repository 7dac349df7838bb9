// `formatbench run [STUDY]`: runs a study (default: the built-in stream-io
// study), prints the console table and writes the requested outputs.
#include "study/builtin.hpp"
#include "cli/commands.hpp"
#include "study/reader.hpp"
#include "base/error.hpp"
#include "report/output_file.hpp"
#include "run/runner.hpp"

#include <fmt/format.h>

#include <unistd.h>

namespace formatbench::cli {
namespace {

struct run_arguments {
    std::string study_file;
    std::vector<std::string> sets;
    std::string resume;
    std::string log;
    std::string json, csv, markdown;
    bool no_console = false;
    bool keep_files = false;
    std::string directory;
};

int run_command(const global_options& global, const run_arguments& a) {
    study s = a.study_file.empty() ? load_study_text(std::string(builtin_stream_io_study()),
                                                     "<builtin:configs/stream-io.yaml>", a.sets)
                                   : load_study_file(a.study_file, a.sets);
    if (a.keep_files) s.keep_files = true;
    if (!a.directory.empty()) s.directory = a.directory;
    auto reg = load_plugins(global, s.plugin_path);
    check_study_plugins(s, *reg);

    runner_options options;
    options.resume_path = a.resume;
    options.log_path = a.log.empty() ? a.resume : a.log;
    options.progress = ::isatty(STDERR_FILENO) != 0;
    run_outcome outcome = run_study(s, *reg, options);

    std::vector<output_spec> outputs;
    bool console_listed = false;
    for (const auto& o : s.outputs) {
        if (o.format == "console") console_listed = true;
        if (o.format == "jsonl") continue; // the log is written as the run goes
        outputs.push_back(o);
    }
    if (!console_listed && !a.no_console) outputs.insert(outputs.begin(), {"console", "-"});
    if (a.no_console) std::erase_if(outputs, [](const output_spec& o) { return o.format == "console"; });
    if (!a.json.empty()) outputs.push_back({"json", a.json});
    if (!a.csv.empty()) outputs.push_back({"csv", a.csv});
    if (!a.markdown.empty()) outputs.push_back({"markdown", a.markdown});
    write_outputs(outcome.result, outputs);

    if (outcome.interrupted) {
        fmt::print(stderr, "formatbench: interrupted; {} of {} cases finished{}\n",
                   outcome.result.cases.size(), s.cases.size(),
                   options.log_path.empty() ? "" : "; continue with --resume " + options.log_path);
        return exit_interrupted;
    }
    return outcome.any_failed ? exit_case_failed : exit_ok;
}

} // namespace

void add_run_command(CLI::App& app, const global_options& global, command_action& action) {
    auto a = std::make_shared<run_arguments>();
    auto* run = app.add_subcommand("run", "run a study: write, read and verify every case, then report "
                                          "(without STUDY: the built-in stream-io study)");
    run->add_option("STUDY", a->study_file, "study file (YAML); see docs/config.md")
        ->check(CLI::ExistingFile);
    run->add_option("--set", a->sets, "override a study key, e.g. --set repeat=10 --set datasets.0.count=1e7")
        ->type_name("KEY=VALUE");
    run->add_option(
           "--resume", a->resume,
           "JSON Lines log of an interrupted run: keep its finished cases, run the rest, append to it")
        ->check(CLI::ExistingFile)
        ->type_name("LOG");
    run->add_option("--log", a->log, "append each finished case to this JSON Lines file as it ends")
        ->type_name("FILE");
    run->add_option("--json", a->json, "write the full JSON record (docs/results-schema.json)")
        ->type_name("FILE");
    run->add_option("--csv", a->csv, "write a CSV summary (one row per case)")->type_name("FILE");
    run->add_option("--markdown", a->markdown, "write Markdown tables")->type_name("FILE");
    run->add_flag("--no-console", a->no_console, "do not print the console table");
    run->add_flag("--keep-files", a->keep_files, "keep the data files (overrides keep_files: false)");
    run->add_option("--directory", a->directory, "folder for data files (overrides the study's directory)")
        ->type_name("DIR");
    run->callback([&global, &action, a] { action = [&global, a] { return run_command(global, *a); }; });
}

} // namespace formatbench::cli

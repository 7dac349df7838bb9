// `formatbench plan STUDY [--set k=v]... [--filter EXPR]...`: reads the
// study, checks every format against its plugin (existence, dtypes, options)
// and prints the expanded cases (those --filter and --exclude select). Runs
// no I/O; a bad study, or an output of the study that cannot be written,
// exits with status 2.
#include "base/install_dirs.hpp"
#include "cli/commands.hpp"
#include "report/outputs.hpp"
#include "results/figures.hpp"
#include "study/checks.hpp"
#include "study/plan.hpp"
#include "study/reader.hpp"
#include "study/ready_studies.hpp"
#include "study/select.hpp"

#include <fmt/format.h>

#include <iostream>

namespace formatbench::cli {

std::vector<bool> selected_cases(const study& s, const std::vector<std::string>& filters,
                                 const std::vector<std::string>& excludes, bool notes) {
    std::vector<bool> selected = select_cases(s, filters, excludes);
    for (std::size_t i : baselines_to_add(s, selected)) {
        selected[i] = true;
        if (notes)
            fmt::print(stderr,
                       "formatbench: note: case {} ({}) runs too: it is the baseline of selected cases\n", i,
                       describe_case(s.cases[i]));
    }
    return selected;
}

void add_selection_options(CLI::App& command, std::vector<std::string>& filters,
                           std::vector<std::string>& excludes) {
    command
        .add_option(
            "--filter", filters,
            "run only the cases that match (repeatable: all must match): FIELD=GLOB, FIELD=~REGEX, or a "
            "GLOB or ~REGEX matched against the format label; e.g. --filter 'zlib*' --filter chunk=64KiB")
        ->type_name("EXPR")
        ->allow_extra_args(false);
    command
        .add_option("--exclude", excludes,
                    "leave out the cases that match (repeatable; same syntax as --filter)")
        ->type_name("EXPR")
        ->allow_extra_args(false);
}

void add_plan_command(CLI::App& app, const global_options& global, command_action& action) {
    // Parsed values live as long as the callbacks that read them.
    struct arguments {
        std::string study;
        std::vector<std::string> sets;
        std::vector<std::string> filters, excludes;
    };
    auto args = std::make_shared<arguments>();

    auto* plan = app.add_subcommand("plan", "print the cases a study expands to, without running them");
    plan->add_option("STUDY", args->study, study_argument_help())->required();
    plan->add_option("--set", args->sets,
                     "override a study key before reading (repeatable): repeat=10, datasets.0.count=1e7, "
                     "'defaults.chunk=[4096, whole]'")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
    add_selection_options(*plan, args->filters, args->excludes);
    plan->callback([&global, &action, args] {
        action = [&global, args] {
            study s = load_study_file(resolve_study_argument(args->study, ready_study_dir()), args->sets);
            auto reg = load_plugins(global, s.plugin_path);
            for (const auto& note : drop_missing_optional_formats(s, *reg))
                fmt::print(stderr, "formatbench: note: {}\n", note);
            check_study_plugins(s, *reg);
            check_study_paths(s);
            check_outputs(s.outputs);
            print_plan(s, std::cout, selected_cases(s, args->filters, args->excludes, true));
            return exit_ok;
        };
    });
}

} // namespace formatbench::cli

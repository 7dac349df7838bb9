// `formatbench plan STUDY [--set k=v]...`: reads the study, checks every
// format against its plugin (existence, dtypes, options) and prints the
// expanded cases. Runs no I/O; a bad study, or an output of the study that
// cannot be written, exits with status 2.
#include "base/install_dirs.hpp"
#include "cli/commands.hpp"
#include "report/outputs.hpp"
#include "study/checks.hpp"
#include "study/plan.hpp"
#include "study/reader.hpp"
#include "study/ready_studies.hpp"

#include <fmt/format.h>

#include <iostream>

namespace formatbench::cli {

void add_plan_command(CLI::App& app, const global_options& global, command_action& action) {
    // Parsed values live as long as the callbacks that read them.
    struct arguments {
        std::string study;
        std::vector<std::string> sets;
    };
    auto args = std::make_shared<arguments>();

    auto* plan = app.add_subcommand("plan", "print the cases a study expands to, without running them");
    plan->add_option("STUDY", args->study, study_argument_help())->required();
    plan->add_option("--set", args->sets,
                     "override a study key before reading (repeatable): repeat=10, datasets.0.count=1e7, "
                     "'defaults.chunk=[4096, whole]'")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
    plan->callback([&global, &action, args] {
        action = [&global, args] {
            study s = load_study_file(resolve_study_argument(args->study, ready_study_dir()), args->sets);
            auto reg = load_plugins(global, s.plugin_path);
            for (const auto& note : drop_missing_optional_formats(s, *reg))
                fmt::print(stderr, "formatbench: note: {}\n", note);
            check_study_plugins(s, *reg);
            check_study_paths(s);
            check_outputs(s.outputs);
            print_plan(s, std::cout);
            return exit_ok;
        };
    });
}

} // namespace formatbench::cli

// `formatbench compare BASE.json NEW.json`: matches the cases of two results
// records and says, per case and phase, whether the new run is significantly
// slower (docs/compare.md). Exit status: 0, or 1 when --threshold is given
// and a case is significantly slower by more than it; 2 for bad input.
#include "base/error.hpp"
#include "cli/commands.hpp"
#include "report/compare_output.hpp"
#include "results/compare.hpp"
#include "results/load.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

namespace formatbench::cli {

void add_compare_command(CLI::App& app, const global_options& /*global*/, command_action& action) {
    struct arguments {
        std::string base, next, format = "table", threshold;
        double alpha = 0.05;
    };
    auto args = std::make_shared<arguments>();
    auto* cmd =
        app.add_subcommand("compare", "compare two results records case by case (median ratios, "
                                      "Mann-Whitney U p-values, geometric mean); gate CI with --threshold");
    cmd->add_option("BASE", args->base, "results record of the reference run (run --json)")->required();
    cmd->add_option("NEW", args->next, "results record of the run under test")->required();
    cmd->add_option("--alpha", args->alpha, "significance level of the Mann-Whitney U test (default 0.05)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--threshold", args->threshold,
                    "exit 1 when a case is significantly slower (p < alpha) by more than this: 5% or 0.05")
        ->type_name("PCT");
    cmd->add_option("--format", args->format, "table (default), json or markdown")
        ->check(CLI::IsMember({"table", "json", "markdown"}));
    cmd->callback([&action, args] {
        action = [args] {
            compare_options o;
            o.alpha = args->alpha;
            if (!args->threshold.empty()) o.threshold = parse_threshold(args->threshold);
            const study_result base = load_results_file(args->base);
            const study_result next = load_results_file(args->next);
            comparison c = compare_results(base, next, o);
            c.base_source = args->base;
            c.new_source = args->next;
            write_comparison(c, args->format, std::cout, output_width("", 0));
            std::cout.flush();
            return c.gate_fails() ? exit_case_failed : exit_ok;
        };
    });
}

} // namespace formatbench::cli

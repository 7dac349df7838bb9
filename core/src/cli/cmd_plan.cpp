// `formatbench plan STUDY [--set k=v]... [--filter EXPR]... [--from RESULTS]
// [--no-calibrate]`: reads the study, checks every format against its
// plugin (existence, dtypes, options) and prints the expanded cases (those
// --filter and --exclude select) with what each needs (run/estimate.hpp):
// disk, memory and time: from an earlier run with --from (its own,
// predicted by its cost model, or scaled by count), else from brief
// calibration runs of each case (run/calibrate.hpp) unless --no-calibrate;
// warns on stderr when the data folder's free space or the memory limit is
// short. Runs no I/O but the calibration; a bad study, or an output of the
// study that cannot be written, exits with status 2.
#include "base/error.hpp"
#include "base/install_dirs.hpp"
#include "base/text.hpp"
#include "cli/commands.hpp"
#include "report/outputs.hpp"
#include "report/plan_output.hpp"
#include "report/terminal_text.hpp"
#include "report/units.hpp"
#include "results/figures.hpp"
#include "results/load.hpp"
#include "run/calibrate.hpp"
#include "run/estimate.hpp"
#include "run/schedule.hpp"
#include "run/system_info.hpp"
#include "study/checks.hpp"
#include "study/plan.hpp"
#include "study/reader.hpp"
#include "study/ready_studies.hpp"
#include "study/select.hpp"

#include <CLI/CLI.hpp>

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
                       escape_line(describe_case(s.cases[i])));
    }
    return selected;
}

void add_units_option(CLI::App& command, std::string& units, const std::string& what) {
    command
        .add_option("--units", units,
                    "throughput unit " + what +
                        ": si (MB/s, 10^6 bytes/s, default) or iec (MiB/s, 2^20 bytes/s)")
        ->check(CLI::IsMember({"si", "iec"}))
        ->type_name("UNITS")
        ->default_str("si");
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

namespace {

using detail::format_bytes;
using detail::format_duration;

template <class Arguments>
int print_estimated_plan(const study& s, const registry& reg, const std::vector<bool>& selected,
                         const Arguments& a) {
    std::uint64_t in_memory = default_in_memory_bytes();
    if (!a.memory_limit.empty()) {
        auto bytes = parse_bytes(a.memory_limit);
        if (!bytes || *bytes == 0)
            throw usage_error(
                fmt::format("--memory-limit: expected a size like 512MiB or 2GB, got '{}'", a.memory_limit));
        in_memory = *bytes;
    }
    std::vector<case_result> earlier;
    if (!a.from.empty()) earlier = load_results_source(a.from).cases;
    const std::vector<cost_fit> fits = fit_cost_models(earlier);
    const std::uint64_t usable = usable_memory_bytes();
    // Without an earlier run, each case runs briefly now (run/calibrate.hpp).
    std::optional<calibration> calibrated;
    if (a.from.empty() && !a.no_calibrate) {
        if (!a.quiet)
            fmt::print(stderr, "formatbench: note: calibrating: each case runs twice, briefly, for the time "
                               "estimate (--no-calibrate skips it)\n");
        std::fflush(stderr);
        calibrated = calibrate_study(s, reg, selected, in_memory);
        if (calibrated->interrupted) {
            fmt::print(stderr, "formatbench: interrupted during the calibration runs\n");
            return exit_interrupted;
        }
    }
    const bool timing = !earlier.empty() || calibrated;

    plan_column disk{"DISK", {}}, memory{"MEMORY", {}}, time{"TIME", {}};
    std::uint64_t total_disk = 0, largest_disk = 0;
    double total_seconds = 0;
    std::size_t timed = 0, shown = 0;
    std::vector<std::string> warnings;
    for (const case_spec& c : s.cases) {
        const std::uint64_t bytes = file_size_bound(c, reg.find(c.format.plugin));
        const std::uint64_t held = case_memory_bytes(c, in_memory);
        const bool streamed = c.dataset.count * dtype_size(c.dataset.type) > in_memory;
        disk.cells.push_back(format_bytes(bytes));
        memory.cells.push_back(format_bytes(held) + (streamed ? " (streamed)" : ""));
        std::string source;
        const auto seconds = calibrated        ? calibrated->seconds[c.index]
                             : earlier.empty() ? std::nullopt
                                               : estimate_seconds(c, earlier, &source, &fits);
        const char* mark = calibrated || source == "same case" ? ""
                           : source == "cost model"            ? " (model)"
                                                               : " ~";
        time.cells.push_back(seconds ? format_duration(*seconds) + mark : "?");
        if (!selected.empty() && !selected[c.index]) continue;
        ++shown;
        total_disk += bytes;
        largest_disk = std::max(largest_disk, bytes);
        if (seconds) total_seconds += *seconds, ++timed;
        if (held > usable / 2)
            warnings.push_back(fmt::format(
                "case {} ({}) holds {} in memory, more than half of the {} this process may use; lower "
                "--memory-limit so that it is streamed, or give it a smaller chunk",
                c.index, describe_case(c), format_bytes(held), format_bytes(usable)));
    }
    std::vector<plan_column> extra{disk, memory};
    if (timing) extra.push_back(time);
    const std::size_t width = output_width("", 0);
    print_plan(make_plan_table(s, selected, extra), std::cout, width);

    // Cases run one after the other and each removes its file: the largest
    // file must fit, and all of them when the files are kept.
    const std::string folder = data_folder(s);
    const auto free = free_bytes(folder);
    std::cout << "\n";
    print_plan_note(fmt::format("  disk: at most {} per case, {} for all {} cases{}; {} free in {}",
                                format_bytes(largest_disk), format_bytes(total_disk), shown,
                                s.keep_files ? " (files kept)" : " (each file removed after its case)",
                                free ? format_bytes(*free) : "?", folder),
                    std::cout, width);
    print_plan_note(
        fmt::format("  memory: data sets over {} are streamed (--memory-limit); this process may use {}",
                    format_bytes(in_memory), format_bytes(usable)),
        std::cout, width);
    if (!earlier.empty())
        print_plan_note(
            fmt::format(
                "  time: about {} for the {} of {} cases {} has a match for ((model): predicted by its cost "
                "model; ~: scaled by count; without data generation and verification)",
                format_duration(total_seconds), timed, shown, a.from),
            std::cout, width);
    if (calibrated)
        print_plan_note(
            fmt::format(
                "  time: about {} for the {} of {} cases calibrated (source: calibration runs now, {}: two "
                "repetitions of each case, of at most {} of data, its start, repetition and end scaled to "
                "its "
                "count, repetitions and warm-up; with data generation, verification and process start-up)",
                format_duration(total_seconds), timed, shown, format_duration(calibrated->took_s),
                format_bytes(calibrated->largest_payload)),
            std::cout, width);
    const std::uint64_t need = s.keep_files ? total_disk : largest_disk;
    if (free && need > *free)
        warnings.insert(
            warnings.begin(),
            fmt::format("{} may need up to {} of disk in {}, which has {} free; free some space or "
                        "give --directory another folder",
                        s.keep_files ? "the cases (files kept)" : "the largest case", format_bytes(need),
                        folder, format_bytes(*free)));
    if (calibrated)
        for (const auto& f : calibrated->failures)
            warnings.push_back("no time estimate for " + f);
    for (const auto& w : warnings)
        for (const std::string& l :
             detail::wrap_words("formatbench: warning: " + escape_line(w), width, "  "))
            fmt::print(stderr, "{}\n", l);
    return exit_ok;
}

} // namespace

void add_plan_command(CLI::App& app, const global_options& global, command_action& action) {
    // Parsed values live as long as the callbacks that read them.
    struct arguments {
        std::string study;
        std::vector<std::string> sets;
        std::vector<std::string> filters, excludes;
        std::string from, memory_limit, directory;
        bool no_calibrate = false;
        bool quiet = false;
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
    plan->add_option("--from", args->from,
                     "estimate each case's run time from an earlier run (its JSON record or JSON Lines log)")
        ->check(CLI::ExistingFile)
        ->type_name("FILE");
    plan->add_flag("--no-calibrate", args->no_calibrate,
                   "without --from: print no time estimate instead of running each case briefly (two "
                   "repetitions, at most 2 MiB of data) to estimate it");
    plan->add_option("--memory-limit", args->memory_limit,
                     "as for run: the largest data set held in memory, for the memory estimates")
        ->type_name("SIZE");
    plan->add_option(
            "--directory", args->directory,
            "as for run: the folder for data files, whose free space plan compares with the cases' needs")
        ->type_name("DIR");
    plan->callback([&global, &action, args] {
        action = [&global, args] {
            study s = load_study_file(resolve_study_argument(args->study, ready_study_dir()), args->sets);
            auto reg = load_plugins(global, s.plugin_path);
            for (const auto& note : drop_missing_optional_formats(s, *reg))
                fmt::print(stderr, "formatbench: note: {}\n", note);
            for (const std::string& w : check_study_plugins(s, *reg))
                fmt::print(stderr, "formatbench: warning: {}\n", escape_line(w));
            check_study_paths(s);
            check_outputs(s.outputs);
            if (!args->directory.empty()) set_study_setting(s, "directory", args->directory, "--directory");
            args->quiet = global.quiet;
            return print_estimated_plan(s, *reg, selected_cases(s, args->filters, args->excludes, true),
                                        *args);
        };
    });
}

} // namespace formatbench::cli

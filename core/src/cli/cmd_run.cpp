// `formatbench run [STUDY]`: runs a study (default: the built-in stream-io
// study) and writes its outputs: the study's `outputs:` plus one flag per
// row of the output table (report/outputs.hpp), the console table unless
// told otherwise. Everything that can be checked is checked before the
// first case runs: the study, its plugins and options, every output path,
// the log and what --resume holds.
#include "base/colour.hpp"
#include "base/error.hpp"
#include "base/install_dirs.hpp"
#include "base/text.hpp"
#include "cli/commands.hpp"
#include "report/output_file.hpp"
#include "report/outputs.hpp"
#include "report/progress.hpp"
#include "report/table_layout.hpp"
#include "report/terminal_text.hpp"
#include "results/load.hpp"
#include "results/noise.hpp"
#include "results/summary.hpp"
#include "run/mpi_world.hpp"
#include "run/rank_agreement.hpp"
#include "run/resume.hpp"
#include "run/study_run.hpp"
#include "study/builtin.hpp"
#include "study/checks.hpp"
#include "study/plan.hpp"
#include "study/reader.hpp"
#include "study/ready_studies.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include <unistd.h>

#include <map>
#include <optional>
#include <stdexcept>

namespace formatbench::cli {
namespace {

struct run_arguments {
    std::string study_file;
    std::vector<std::string> sets;
    std::vector<std::string> filters, excludes; // --filter, --exclude
    std::string resume;
    std::map<std::string, std::string> output_paths; // by output name, from --NAME FILE
    bool no_console = false;
    bool keep_files = false;
    bool force = false;
    bool retry_failed = false;
    bool reuse_matching = false;
    std::string directory;
    std::string memory_limit;
    std::string progress = "auto";    // --progress auto|bar|lines|none
    bool quiet = false;               // errors only on stderr (global -q too)
    bool verbose = false;             // a line per repetition
    std::string units = "si";         // --units si|iec
    std::string width;                // --width N|unlimited ("" : COLUMNS, the terminal, or 100)
    std::vector<std::string> columns; // --columns
};

// What a run needs, checked before the first case.
struct prepared_run {
    study s;
    std::unique_ptr<registry> reg;
    study_run_options options;
    std::vector<output_spec> outputs;
    std::string log_path;
    log_options log;
};

// Reads and checks everything; `leader` (rank 0, or the only process)
// prints notes and owns the outputs; `under_mpi`: started on MPI ranks.
prepared_run prepare(const global_options& global, const run_arguments& a, bool leader, bool under_mpi) {
    prepared_run p;
    study& s = p.s;
    s = a.study_file.empty()
            ? load_study_text(std::string(builtin_stream_io_study()), "<builtin:configs/stream-io.yaml>",
                              a.sets)
            : load_study_file(resolve_study_argument(a.study_file, ready_study_dir()), a.sets);
    if (a.keep_files) set_study_setting(s, "keep_files", "true", "--keep-files");
    if (!a.directory.empty()) set_study_setting(s, "directory", a.directory, "--directory");
    // Notes go to the leader's stderr, unless --quiet (or the global -q).
    const bool notes = leader && !global.quiet && !a.quiet;
    global_options quiet = global;
    quiet.quiet = !notes;
    p.reg = load_plugins(quiet, s.plugin_path);
    for (const auto& note : drop_missing_optional_formats(s, *p.reg))
        if (notes) fmt::print(stderr, "formatbench: note: {}\n", note);
    for (const std::string& w : check_study_plugins(s, *p.reg))
        if (notes) fmt::print(stderr, "formatbench: warning: {}\n", escape_line(w));
    check_study_mpi(s, *p.reg, under_mpi, built_with_mpi());
    check_study_paths(s);
    p.options.selected = selected_cases(s, a.filters, a.excludes, leader);

    // What --resume keeps, and where the log goes: a resumed log is appended
    // to unless --log names another one.
    if (!a.memory_limit.empty()) {
        auto bytes = parse_bytes(a.memory_limit);
        if (!bytes || *bytes == 0)
            throw usage_error(
                fmt::format("--memory-limit: expected a size like 512MiB or 2GB, got '{}'", a.memory_limit));
        p.options.in_memory_bytes = *bytes;
    }
    std::optional<results_source> resumed_from;
    if (!a.resume.empty()) {
        resumed_from = load_results_source(a.resume);
        p.options.resumed = cases_to_resume(s, *resumed_from, {a.retry_failed, a.reuse_matching});
        if (resumed_from->cut_last_line && notes)
            fmt::print(stderr,
                       "formatbench: {}: its last line was cut short (a kill during a write); that case "
                       "runs again\n",
                       a.resume);
    }
    bool console_listed = false;
    for (const auto& o : s.outputs) {
        console_listed |= o.format == "console";
        p.outputs.push_back(o);
    }
    for (const auto& [name, path] : a.output_paths)
        p.outputs.push_back({name, path, "--" + name});
    for (const auto& o : p.outputs)
        if (o.format == "jsonl") p.log_path = o.path;
    if (p.log_path.empty() && resumed_from && resumed_from->is_log) {
        p.log_path = a.resume;
        p.outputs.push_back({"jsonl", p.log_path, "--resume"});
    }
    // The console table goes to standard output unless another output does.
    bool stdout_taken = false;
    for (const auto& o : p.outputs)
        stdout_taken |= o.format != "console" && (o.path.empty() || o.path == "-");
    // --quiet drops the table printed by default; an output asked for stays.
    if (!console_listed && !a.no_console && !stdout_taken && !a.quiet && !global.quiet)
        p.outputs.insert(p.outputs.begin(), {"console", "-", ""});
    if (a.no_console) std::erase_if(p.outputs, [](const output_spec& o) { return o.format == "console"; });
    // Only rank 0 writes outputs: only it checks their paths.
    if (leader) check_outputs(p.outputs);
    p.log.resuming = resumed_from && resumed_from->is_log && p.log_path == a.resume;
    p.log.force = a.force;
    return p;
}

int run_command(const global_options& global, const run_arguments& a) {
    // The layout flags are checked before anything runs.
    if (!a.columns.empty()) detail::check_column_ids(a.columns, "--columns");
    const std::size_t width = output_width(a.width, 100);
    // Under an MPI launcher every rank runs this; without one, no MPI at all.
    std::unique_ptr<communicator> world = join_mpi_world();
    const bool leader = !world || world->rank() == 0;
    std::optional<prepared_run> p;
    if (!world) {
        p = prepare(global, a, true, false);
    } else {
        // The ranks agree before anything runs: when one cannot start, none
        // does (a rank left alone would wait for the others for ever), and
        // rank 0 reports the first rank's error.
        std::string problem;
        bool usage = true;
        try {
            p = prepare(global, a, leader, true);
        } catch (const usage_error& e) {
            problem = e.what();
        } catch (const std::exception& e) {
            problem = e.what();
            usage = false;
        }
        const std::vector<std::string> all = world->all_gather((usage ? "u" : "e") + problem);
        for (std::size_t r = 0; r < all.size(); ++r) {
            if (all[r].size() <= 1) continue;
            const int code = all[r][0] == 'u' ? exit_usage : exit_case_failed;
            // Rank 0 prints before any rank exits: the launcher ends the
            // job when the first rank exits with an error, and a rank 0
            // still on its way to printing would be killed silently.
            if (leader)
                print_error(r == 0 ? all[r].substr(1) : fmt::format("rank {}: {}", r, all[r].substr(1)),
                            code == exit_usage, colour_for(global, STDERR_FILENO));
            world->barrier();
            throw silent_exit{code};
        }
    }
    if (world) {
        // Every rank runs the same expanded study (run/rank_agreement.hpp):
        // ranks started with other studies or --set values stop here, before
        // any case, instead of running mismatched cases or waiting for ever.
        try {
            detail::check_ranks_agree(*world, detail::study_fingerprint(p->s, p->options));
        } catch (const usage_error& e) {
            if (leader) print_error(e.what(), true, colour_for(global, STDERR_FILENO));
            world->barrier();
            throw silent_exit{exit_usage};
        }
    }
    p->options.world = world.get();

    const bool quiet = global.quiet || a.quiet;
    observer_list observers;
    if (leader) {
        // Progress first: its end clears the status line before the table prints.
        progress_options po;
        po.mode = a.progress == "bar"       ? progress_mode::bar
                  : a.progress == "lines"   ? progress_mode::lines
                  : a.progress == "none"    ? progress_mode::none
                  : ::isatty(STDERR_FILENO) ? progress_mode::bar
                                            : progress_mode::lines;
        po.verbose = a.verbose;
        po.colour = colour_for(global, STDERR_FILENO);
        if (!quiet && (po.mode != progress_mode::none || po.verbose)) observers.add(make_progress(po));
        render_options style;
        style.colour = colour_for(global, STDOUT_FILENO);
        style.units = a.units == "iec" ? rate_unit::iec : rate_unit::si;
        style.width = width;
        style.columns = a.columns;
        add_output_observers(p->outputs, p->log, style, observers);
    }
    run_outcome outcome = run_study(p->s, *p->reg, observers, p->options);

    // Noise shown, not hidden (results/noise.hpp), like hyperfine's
    // warnings: one summary after the table, each noisy phase with
    // --verbose (and in the JSON record).
    if (leader && !quiet) {
        const auto& cases = outcome.result.cases;
        if (a.verbose)
            for (const case_result& c : cases)
                for (const auto& finding : c.figures.noise)
                    fmt::print(stderr, "formatbench: warning: case {} ({}): {}\n", c.spec.index,
                               escape_line(describe_case(c.spec)), escape_line(finding));
        if (auto text =
                noise_summary_text(summarize_noise(cases, p->s.noise_min_samples), p->s.noise_cv,
                                   p->s.noise_min_samples, a.verbose, summarize_machine(outcome.result).busy))
            // Format labels in it are the study's: escaped (base/text.hpp).
            for (const std::string& l :
                 detail::wrap_words("formatbench: warning: " + escape_line(*text), width, "  "))
                fmt::print(stderr, "{}\n", l);
        if (auto finding = short_rewarm_finding(outcome.result))
            for (const std::string& l :
                 detail::wrap_words("formatbench: warning: " + escape_line(*finding), width, "  "))
                fmt::print(stderr, "{}\n", l);
    }
    const std::string error_word = paint(tone::bad, "error:", colour_for(global, STDERR_FILENO));
    // Quiet: the errors of the cases that failed are all there is to read.
    if (leader && quiet)
        for (const auto& c : outcome.result.cases)
            if (c.status != case_status::ok)
                fmt::print(stderr, "formatbench: {} {}\n", error_word,
                           escape_text(fmt::format("[{}/{}] {}: {}: {}", c.spec.index + 1, p->s.cases.size(),
                                                   describe_case(c.spec), to_string(c.status), c.error)));
    if (leader)
        for (const auto& e : outcome.output_errors)
            fmt::print(stderr, "formatbench: {} {}\n", error_word, e);
    if (outcome.interrupted && leader)
        fmt::print(stderr, "formatbench: interrupted; {} of {} cases finished{}\n",
                   outcome.result.cases.size(), p->s.cases.size(),
                   p->log_path.empty() ? "" : "; continue with --resume " + p->log_path);
    // Under MPI no rank exits before rank 0 has handed over all it printed:
    // the launcher ends the job when the first rank exits with an error.
    if (world) {
        if (leader) std::fflush(stdout);
        world->barrier();
    }
    if (outcome.interrupted) return exit_interrupted;
    return outcome.any_failed || !outcome.output_errors.empty() ? exit_case_failed : exit_ok;
}

} // namespace

void add_run_command(CLI::App& app, const global_options& global, command_action& action) {
    auto a = std::make_shared<run_arguments>();
    auto* run = app.add_subcommand("run", "run a study: write, read and verify every case, then report "
                                          "(without STUDY: the built-in stream-io study)");
    run->add_option("STUDY", a->study_file, study_argument_help());
    run->add_option("--set", a->sets, "override a study key, e.g. --set repeat=10 --set datasets.0.count=1e7")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false); // one KEY=VALUE per flag: `run --set repeat=1 scaling` keeps STUDY
    add_selection_options(*run, a->filters, a->excludes);
    run->add_option(
           "--resume", a->resume,
           "keep the finished cases of an earlier run (its JSON Lines log or its JSON record), run the "
           "rest; a log is appended to")
        ->check(CLI::ExistingFile)
        ->type_name("FILE");
    // One flag per output of the output table: --json FILE, --csv FILE, ...
    for (const auto& kind : output_kinds()) {
        if (kind.name == "console") continue;
        // The log's older name, --log, stays.
        const std::string names = "--" + kind.name + (kind.name == "jsonl" ? ",--log" : "");
        run->add_option_function<std::string>(
               names, [a, name = kind.name](const std::string& p) { a->output_paths[name] = p; },
               kind.help + (kind.may_be_stdout ? " ('-': standard output, instead of the table)" : ""))
            ->type_name("FILE");
    }
    run->add_flag("--no-console", a->no_console, "do not print the results table");
    run->add_flag("--force", a->force, "overwrite an existing log given to --log");
    run->add_flag(
        "--retry-failed", a->retry_failed,
        "with --resume: run the cases that failed, crashed or timed out again (default: keep them)");
    run->add_flag("--reuse-matching", a->reuse_matching,
                  "with --resume: keep only the cases whose study values match; run the others again");
    run->add_flag("--keep-files", a->keep_files, "keep the data files (overrides keep_files: false)");
    run->add_option("--directory", a->directory, "folder for data files (overrides the study's directory)")
        ->type_name("DIR");
    run->add_option(
           "--memory-limit", a->memory_limit,
           "largest data set held in memory; larger ones are streamed chunk by chunk, generated or read "
           "from their file (default: a quarter of the memory this process may use)")
        ->type_name("SIZE");
    run->add_option("--progress", a->progress,
                    "progress on stderr: auto (bar on a terminal, else lines), bar (a status line redrawn in "
                    "place), lines (one per finished case, with elapsed time and ETA) or none")
        ->check(CLI::IsMember({"auto", "bar", "lines", "none"}))
        ->type_name("MODE")
        ->default_str("auto");
    run->add_flag("--quiet", a->quiet,
                  "print nothing but errors on stderr: no progress, no notes, no default table (outputs "
                  "given still written)");
    run->add_flag("--verbose", a->verbose, "print each repetition's write and read time as it ends");
    add_units_option(*run, a->units, "of the table, CSV and Markdown (JSON stays MB/s)");
    run->add_option(
           "--width", a->width,
           "lay the table out for N columns, or 'unlimited' (default: COLUMNS, the terminal's width, "
           "or 100 when standard output is not a terminal)")
        ->type_name("N|unlimited");
    run->add_option("--columns", a->columns,
                    "the table's columns, in this order (comma-separated ids: format, write, read, write-cv, "
                    "read-cv, write-rate, read-rate, file, ratio, resident, check, write-speedup, "
                    "read-speedup, write-ci, read-ci, status), or 'all' for the one wide table")
        ->delimiter(',')
        ->type_name("LIST");
    run->callback([&global, &action, a] { action = [&global, a] { return run_command(global, *a); }; });
}

} // namespace formatbench::cli

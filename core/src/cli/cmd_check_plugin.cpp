// `formatbench check-plugin PATH [--quick] [--json] [--timeout S] [--list]
// [--only PATTERN]...`: runs the conformance checks (conformance.hpp)
// against one plugin file, for plugin authors and their CI. One line per
// check, the reason for each failure and the command that reruns that check
// alone, and "N passed, M failed"; exit 0 only when every check passed, 1
// when one failed (or the file did not load), 2 for usage errors, 130 when
// interrupted (the running check's folders are removed first).
//
// PATH may be a Python plugin module fb_NAME.py: it is checked through the
// generic Python bridge (plugins/python, libfb_python_module.so in the
// plugin folder's `python` subfolder), which serves the module that
// FORMATBENCH_PYTHON_MODULE names, set here for this process and its
// children. describe_module (beside it) reads the module's declarations
// first, so a malformed one fails the load check with its own message.
#include "base/error.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "cli/commands.hpp"
#include "host/conformance.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace formatbench::cli {
namespace {

namespace fs = std::filesystem;
using conformance::outcome;

volatile std::sig_atomic_t stop_requested = 0;

extern "C" void on_check_stop_signal(int) {
    stop_requested = 1;
}

// SIGINT and SIGTERM set stop_requested while the checks run: the check
// under way is killed and its folders removed, instead of the checker
// dying and leaving them.
class stop_signal_scope {
public:
    stop_signal_scope() {
        stop_requested = 0;
        struct sigaction sa {};
        sa.sa_handler = on_check_stop_signal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &old_int_);
        ::sigaction(SIGTERM, &sa, &old_term_);
    }
    ~stop_signal_scope() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
    }
    stop_signal_scope(const stop_signal_scope&) = delete;
    stop_signal_scope& operator=(const stop_signal_scope&) = delete;

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
};

struct check_arguments {
    std::string path;
    bool quick = false;
    bool json = false;
    bool list = false;
    std::vector<std::string> only;
    unsigned timeout = conformance::default_timeout_seconds;
};

const char* kind_name(outcome::kind k) {
    switch (k) {
    case outcome::passed: return "pass";
    case outcome::failed: return "FAIL";
    case outcome::skipped: return "skip";
    case outcome::warned: return "WARN";
    }
    return "?";
}

// A pattern that matches exactly name (glob characters escaped).
std::string exact_pattern(const std::string& name) {
    std::string out;
    for (char c : name) {
        if (c == '*' || c == '?' || c == '[' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// The command that runs this one check again, as it ran here.
std::string reproduce_line(const fs::path& file, const check_arguments& args, const std::string& check) {
    return fmt::format(
        "formatbench check-plugin {}{}{} --only {}", shell_word(file.string()), args.quick ? " --quick" : "",
        args.timeout != conformance::default_timeout_seconds ? fmt::format(" --timeout {}", args.timeout)
                                                             : "",
        shell_word(exact_pattern(check)));
}

void print_line(const conformance::check_result& r, const fs::path& file, const check_arguments& args) {
    fmt::print("{:<4}  {}", kind_name(r.result.what), r.name);
    if (!r.result.reason.empty()) fmt::print(": {}", r.result.reason);
    if (!r.result.note.empty()) fmt::print(" ({})", r.result.note);
    fmt::print("\n");
    if (r.result.what == outcome::failed)
        fmt::print("      reproduce: {}\n", reproduce_line(file, args, r.name));
    std::fflush(stdout); // a CI log shows progress as it happens
}

nlohmann::json report_json(const conformance::report& rep, const fs::path& file,
                           const check_arguments& args) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& r : rep.results) {
        nlohmann::json j{{"name", r.name},
                         {"status", r.result.what == outcome::passed    ? "passed"
                                    : r.result.what == outcome::skipped ? "skipped"
                                    : r.result.what == outcome::warned  ? "warning"
                                                                        : "failed"},
                         {"seconds", r.seconds}};
        if (!r.result.reason.empty()) j["reason"] = r.result.reason;
        if (!r.result.note.empty()) j["note"] = r.result.note;
        if (r.result.what == outcome::failed) j["reproduce"] = reproduce_line(file, args, r.name);
        checks.push_back(std::move(j));
    }
    return {{"file", rep.file},
            {"plugin", rep.plugin_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(rep.plugin_id)},
            {"version", rep.plugin_version},
            {"abi", rep.abi},
            {"passed", rep.count(outcome::passed)},
            {"failed", rep.count(outcome::failed)},
            {"skipped", rep.count(outcome::skipped)},
            {"warnings", rep.count(outcome::warned)},
            {"ok", rep.all_passed() && !rep.interrupted},
            {"checks", checks}};
}

// PATH is a file, or else the id of a plugin on the search path.
fs::path resolve(const global_options& global, const std::string& arg) {
    std::error_code ec;
    if (fs::exists(arg, ec)) return arg;
    if (arg.find('/') == std::string::npos) {
        auto reg = load_plugins(global);
        if (const plugin* p = reg->find(arg)) return p->file();
    }
    throw usage_error(
        fmt::format("check-plugin: '{}' is neither a file nor the id of a plugin on the search path", arg));
}

// A Python plugin module, and the generic bridge that serves it.
struct python_module {
    fs::path file;    // the module, absolute
    fs::path library; // libfb_python_module.so
};

constexpr const char* python_module_variable = "FORMATBENCH_PYTHON_MODULE";
constexpr const char* python_bridge_file = "libfb_python_module.so";

bool is_python_module(const std::string& arg) {
    return fs::path(arg).extension() == ".py";
}

// fb_NAME.py with NAME of [a-z0-9_]: an importable name whose plugin id
// (py-NAME, '_' as '-') the registry takes.
bool valid_module_name(const std::string& stem) {
    if (stem.size() <= 3 || stem.rfind("fb_", 0) != 0) return false;
    return std::all_of(stem.begin() + 3, stem.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::string suggest_module_name(const std::string& stem) {
    std::string base = stem.rfind("fb_", 0) == 0 ? stem.substr(3) : stem, out;
    for (char c : base) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && out.back() == '_')
        out.pop_back();
    return out.empty() ? "fb_NAME.py" : "fb_" + out + ".py";
}

python_module find_python_bridge(const std::string& arg) {
    std::error_code ec;
    python_module m;
    m.file = fs::absolute(arg, ec).lexically_normal();
    if (!fs::is_regular_file(m.file, ec))
        throw usage_error(
            fmt::format("check-plugin: '{}' is not a file (a Python plugin module fb_NAME.py)", arg));
    const std::string stem = m.file.stem().string();
    if (!valid_module_name(stem))
        throw usage_error(fmt::format("check-plugin: '{}': a Python plugin module is named fb_NAME.py, NAME "
                                      "of lower-case letters, digits "
                                      "and '_' (it is the plugin py-NAME, '_' as '-'): rename it, e.g. to {}",
                                      arg, suggest_module_name(stem)));
    std::vector<std::string> looked;
    for (const auto& dir : builtin_plugin_dirs()) {
        const fs::path lib = dir / "python" / python_bridge_file;
        if (fs::is_regular_file(lib, ec)) {
            m.library = lib.lexically_normal();
            return m;
        }
        looked.push_back(lib.lexically_normal().string());
    }
    throw std::runtime_error(fmt::format(
        "check-plugin: cannot check '{}': this formatbench has no Python bridge ({} not found: {}); it is "
        "built when python3-dev and pybind11-dev are installed",
        arg, python_bridge_file, looked.empty() ? "no plugin folder" : join(looked)));
}

// describe_module --json on the module (describe_module beside the bridge):
// "" when its declarations are sound, else its message, which names the
// module, its file and the entry.
std::string describe_problem(const python_module& m) {
    const fs::path program = m.library.parent_path() / "describe_module";
    const int err = ::memfd_create("formatbench-describe-err", MFD_CLOEXEC);
    if (err < 0) return {}; // the bridge describes it again at load
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
    std::string p = program.string(), json = "--json", dir = m.file.parent_path().string(),
                module = m.file.stem().string();
    char* argv[] = {p.data(), json.data(), dir.data(), module.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, p.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    std::string problem;
    if (spawned != 0) {
        problem = fmt::format("cannot run '{}': {}", p, std::strerror(spawned));
    } else {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            char buf[4096];
            const ssize_t n = ::pread(err, buf, sizeof buf, 0);
            problem.assign(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
            while (!problem.empty() && (problem.back() == '\n' || problem.back() == ' '))
                problem.pop_back();
            std::replace(problem.begin(), problem.end(), '\n', ' ');
            if (problem.empty())
                problem = fmt::format("'{}' failed (exit status {})", p,
                                      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
    }
    ::close(err);
    return problem;
}

int check_plugin(const global_options& global, const check_arguments& args) {
    // The file named in messages and the report, and the library loaded:
    // the same but for a Python module, served by the generic bridge.
    fs::path file, library;
    std::string describe_failure;
    if (is_python_module(args.path)) {
        const python_module m = find_python_bridge(args.path);
        ::setenv(python_module_variable, m.file.c_str(), 1);
        file = args.path;
        library = m.library;
        describe_failure = describe_problem(m);
    } else {
        file = resolve(global, args.path);
        library = file;
    }
    conformance::settings s;
    s.level = args.quick ? conformance::depth::quick : conformance::depth::standard;
    s.timeout_seconds = args.timeout;
    s.only = args.only;
    s.stop = &stop_requested;

    // The registry lives as long as the checks use the plugin; its library
    // stays loaded in this process (the checks' children are forks of it).
    registry reg;
    const plugin* p = describe_failure.empty() ? reg.load_file(library) : nullptr;
    const std::string load_problem = p                           ? ""
                                     : !describe_failure.empty() ? describe_failure
                                     : reg.problems().empty()    ? "not loaded"
                                                                 : reg.problems().back().reason;
    std::vector<std::string> names{"load"};
    if (p)
        for (const auto& c : conformance::plan_checks(*p, s))
            names.push_back(c.name);

    if (args.list && !p) {
        fmt::print(stderr, "formatbench: check-plugin: cannot load '{}': {}\n", file.string(), load_problem);
        return exit_case_failed;
    }
    // A pattern that selects nothing is a typo, not an empty pass.
    if (p)
        for (const auto& pattern : args.only) {
            conformance::settings one;
            one.only = {pattern};
            if (std::none_of(names.begin(), names.end(),
                             [&](const std::string& n) { return conformance::selected(one, n); }))
                throw usage_error(
                    fmt::format("check-plugin: --only '{}' matches no check of plugin '{}' (--list "
                                "shows them)",
                                pattern, p->id()));
        }
    if (args.list) {
        std::erase_if(names, [&](const std::string& n) { return !conformance::selected(s, n); });
        if (args.json) {
            fmt::print("{}\n", nlohmann::json(names).dump(2));
        } else {
            for (const auto& n : names)
                fmt::print("{}\n", n);
        }
        return exit_ok;
    }

    if (!args.json) fmt::print("check-plugin {}{}\n", file.string(), args.quick ? " (quick)" : "");
    std::function<void(const conformance::check_result&)> progress;
    if (!args.json) progress = [&](const conformance::check_result& r) { print_line(r, file, args); };

    conformance::report rep;
    if (!p) {
        rep.file = file.string();
        rep.results.push_back({"load", outcome::fail(load_problem), 0});
        if (progress) progress(rep.results.back());
    } else {
        conformance::check_result loaded{"load", outcome::pass(), 0};
        const bool show_load = conformance::selected(s, "load");
        if (progress && show_load) progress(loaded);
        stop_signal_scope signals;
        rep = conformance::check_loaded_plugin(*p, s, progress);
        rep.file = file.string();
        if (show_load) rep.results.insert(rep.results.begin(), loaded);
    }

    if (args.json) {
        fmt::print("{}\n", report_json(rep, file, args).dump(2));
    } else {
        // A check that warned passed: it counts as passed, and the
        // warnings are named again at the end, where a CI log is read.
        std::size_t skipped = rep.count(outcome::skipped);
        std::size_t warned = rep.count(outcome::warned);
        std::string aside;
        if (warned) aside = fmt::format("{} warning{}", warned, warned == 1 ? "" : "s");
        if (skipped) aside += fmt::format("{}{} skipped", aside.empty() ? "" : ", ", skipped);
        fmt::print("{}{}: {} passed, {} failed{}{}\n", rep.plugin_id.empty() ? "plugin" : rep.plugin_id,
                   rep.plugin_version.empty() ? "" : " " + rep.plugin_version,
                   rep.count(outcome::passed) + warned, rep.count(outcome::failed),
                   aside.empty() ? "" : " (" + aside + ", reasons above)",
                   rep.interrupted ? "; interrupted before the last checks" : "");
        for (const auto& r : rep.results)
            if (r.result.what == outcome::warned) fmt::print("warning: {}: {}\n", r.name, r.result.reason);
    }
    if (rep.interrupted) return exit_interrupted;
    return rep.all_passed() ? exit_ok : exit_case_failed;
}

} // namespace

void add_check_plugin_command(CLI::App& app, const global_options& global, command_action& action) {
    auto args = std::make_shared<check_arguments>();
    auto* cmd = app.add_subcommand(
        "check-plugin", "run the conformance checks against a plugin file (for plugin authors' CI): round "
                        "trips, overwriting, corrupt input, bad options, unwritable paths and full disks, "
                        "files outside the plugin's path; exit 0 only if all pass");
    cmd->add_option("PATH", args->path,
                    "the plugin's shared library, a Python plugin module fb_NAME.py (checked through the "
                    "generic Python bridge, with nothing to build), or the id of a plugin on the search path")
        ->required();
    cmd->add_flag("--quick", args->quick, "smaller counts and fewer chunkings");
    cmd->add_flag("--json", args->json, "machine-readable report on standard output");
    cmd->add_option("--timeout", args->timeout, "seconds per check before it counts as hung")
        ->check(CLI::Range(1u, 86400u))
        ->capture_default_str();
    cmd->add_flag(
        "--list", args->list,
        "print the name of every check (with --only, of those it selects), one per line, and run none");
    cmd->add_option("--only", args->only,
                    "run only the checks whose names match this glob pattern ('*' also matches '/'); "
                    "repeatable")
        ->allow_extra_args(false);
    cmd->callback(
        [&global, &action, args] { action = [&global, args] { return check_plugin(global, *args); }; });
}

} // namespace formatbench::cli

// `formatbench check-plugin PATH [--quick] [--json] [--timeout S]`: runs the
// conformance checks (conformance.hpp) against one plugin file, for plugin
// authors and their CI. One line per check, the reason for each failure, and
// "N passed, M failed"; exit 0 only when every check passed, 1 when one
// failed (or the file did not load), 2 for usage errors.
#include "base/error.hpp"
#include "cli/commands.hpp"
#include "host/conformance.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace formatbench::cli {
namespace {

namespace fs = std::filesystem;
using conformance::outcome;

const char* kind_name(outcome::kind k) {
    switch (k) {
    case outcome::passed: return "pass";
    case outcome::failed: return "FAIL";
    case outcome::skipped: return "skip";
    }
    return "?";
}

void print_line(const conformance::check_result& r) {
    fmt::print("{:<4}  {}", kind_name(r.result.what), r.name);
    if (!r.result.reason.empty()) fmt::print(": {}", r.result.reason);
    if (!r.result.note.empty()) fmt::print(" ({})", r.result.note);
    fmt::print("\n");
    std::fflush(stdout); // a CI log shows progress as it happens
}

nlohmann::json report_json(const conformance::report& rep) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& r : rep.results) {
        nlohmann::json j{{"name", r.name},
                         {"status", r.result.what == outcome::passed    ? "passed"
                                    : r.result.what == outcome::skipped ? "skipped"
                                                                        : "failed"},
                         {"seconds", r.seconds}};
        if (!r.result.reason.empty()) j["reason"] = r.result.reason;
        if (!r.result.note.empty()) j["note"] = r.result.note;
        checks.push_back(std::move(j));
    }
    return {{"file", rep.file},
            {"plugin", rep.plugin_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(rep.plugin_id)},
            {"version", rep.plugin_version},
            {"abi", rep.abi},
            {"passed", rep.count(outcome::passed)},
            {"failed", rep.count(outcome::failed)},
            {"skipped", rep.count(outcome::skipped)},
            {"ok", rep.all_passed()},
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

int check_plugin(const global_options& global, const std::string& arg, bool quick, bool json,
                 unsigned timeout) {
    fs::path file = resolve(global, arg);
    conformance::settings s;
    s.level = quick ? conformance::depth::quick : conformance::depth::standard;
    s.timeout_seconds = timeout;
    if (!json) fmt::print("check-plugin {}{}\n", file.string(), quick ? " (quick)" : "");
    conformance::report rep = conformance::check_plugin_file(
        file, s, json ? std::function<void(const conformance::check_result&)>() : print_line);
    if (json) {
        fmt::print("{}\n", report_json(rep).dump(2));
    } else {
        std::size_t skipped = rep.count(outcome::skipped);
        fmt::print("{}{}: {} passed, {} failed{}\n", rep.plugin_id.empty() ? "plugin" : rep.plugin_id,
                   rep.plugin_version.empty() ? "" : " " + rep.plugin_version, rep.count(outcome::passed),
                   rep.count(outcome::failed),
                   skipped ? fmt::format(" ({} skipped, reasons above)", skipped) : "");
    }
    return rep.all_passed() ? exit_ok : exit_case_failed;
}

} // namespace

void add_check_plugin_command(CLI::App& app, const global_options& global, command_action& action) {
    struct arguments {
        std::string path;
        bool quick = false;
        bool json = false;
        unsigned timeout = 120;
    };
    auto args = std::make_shared<arguments>();
    auto* cmd = app.add_subcommand(
        "check-plugin", "run the conformance checks against a plugin file (for plugin authors' CI): round "
                        "trips, corrupt input, bad options, unwritable paths; exit 0 only if all pass");
    cmd->add_option("PATH", args->path,
                    "the plugin's shared library (or the id of a plugin on the search path)")
        ->required();
    cmd->add_flag("--quick", args->quick, "smaller counts and fewer chunkings");
    cmd->add_flag("--json", args->json, "machine-readable report on standard output");
    cmd->add_option("--timeout", args->timeout, "seconds per check before it counts as hung")
        ->check(CLI::Range(1u, 86400u))
        ->capture_default_str();
    cmd->callback([&global, &action, args] {
        action = [&global, args] {
            return check_plugin(global, args->path, args->quick, args->json, args->timeout);
        };
    });
}

} // namespace formatbench::cli

// `formatbench plugins` (list) and `formatbench describe PATH` (everything a
// descriptor says, like gst-inspect; PATH is a plugin file or, as for
// check-plugin, the id of a plugin on the search path). Neither runs any
// plugin I/O code.
#include "base/dtype.hpp"
#include "base/error.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "cli/commands.hpp"
#include "report/terminal_text.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace formatbench::cli {
namespace {

std::string range_text(const option_info& o) {
    if (o.type == FB_OPT_CHOICE) return join(o.choices, " | ");
    if (!o.has_range) return "";
    return fmt::format("[{}, {}]", o.min, o.max);
}

nlohmann::json plugin_json(const plugin& p) {
    nlohmann::json options = nlohmann::json::array();
    for (const auto& o : p.options()) {
        nlohmann::json j{{"name", o.name},
                         {"type", option_type_name(o.type)},
                         {"default", o.default_value},
                         {"help", o.help}};
        if (o.has_range) j["range"] = {o.min, o.max};
        if (o.type == FB_OPT_CHOICE) j["choices"] = o.choices;
        options.push_back(std::move(j));
    }
    return {{"id", p.id()},
            {"version", p.version()},
            {"description", p.description()},
            {"license", p.license()},
            {"extension", p.extension()},
            {"abi", fmt::format("{}.{}", p.abi_major(), p.abi_minor())},
            {"dtypes", dtype_names(p.dtypes())},
            {"capabilities", capability_names(p.flags())},
            {"extensions", p.extension_ids()},
            {"access", p.access_patterns()},
            {"path", p.file().string()},
            {"options", options}};
}

int list_plugins(const global_options& global, bool json) {
    auto reg = load_plugins(global);
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& p : reg->plugins())
            out.push_back(plugin_json(*p));
        fmt::print("{}\n", out.dump(2));
        return 0;
    }
    if (reg->plugins().empty()) {
        std::vector<std::string> dirs;
        for (const auto& d : reg->searched())
            dirs.push_back(d.string());
        fmt::print(stderr, "formatbench: no plugins found; searched: {}\n", join(dirs));
        return 2;
    }
    // ACCESS: the study's access patterns the plugin can read (docs/config.md
    // "Access patterns"): whole always, the block patterns (sequential,
    // random, strided) with read-at, plane with read-box.
    struct row {
        std::string id, version, dtypes, caps, access, path;
    };
    std::vector<row> rows{{"ID", "VERSION", "DTYPES", "CAPABILITIES", "ACCESS", "PATH"}};
    for (const auto& p : reg->plugins())
        rows.push_back({p->id(), p->version(), join(dtype_names(p->dtypes()), ","),
                        join(capability_names(p->flags()), ","), join(p->access_patterns(), ","),
                        p->file().string()});
    std::size_t w[5] = {0, 0, 0, 0, 0};
    for (const auto& r : rows) {
        w[0] = std::max(w[0], r.id.size());
        w[1] = std::max(w[1], r.version.size());
        w[2] = std::max(w[2], r.dtypes.size());
        w[3] = std::max(w[3], r.caps.size());
        w[4] = std::max(w[4], r.access.size());
    }
    for (const auto& r : rows)
        fmt::print("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", r.id, w[0], r.version, w[1], r.dtypes,
                   w[2], r.caps, w[3], r.access, w[4], r.path);
    return 0;
}

int describe_plugin(const global_options& global, const std::string& arg, bool json) {
    // A path that exists is that file (a name without '/' that is no file
    // is an id).
    std::unique_ptr<registry> reg;
    const plugin* found = nullptr;
    std::error_code ec;
    if (std::filesystem::exists(arg, ec)) {
        reg = std::make_unique<registry>();
        found = reg->load_file(arg);
        if (!found)
            throw usage_error(
                fmt::format("describe: cannot load '{}': {}", arg,
                            reg->problems().empty() ? "not loaded" : reg->problems().back().reason));
    } else if (arg.find('/') != std::string::npos) {
        throw usage_error(
            fmt::format("describe: '{}' is neither a file nor the id of a plugin on the search path", arg));
    } else {
        reg = load_plugins(global);
        found = &reg->get(arg);
    }
    const plugin& p = *found;
    if (json) {
        fmt::print("{}\n", plugin_json(p).dump(2));
        return 0;
    }
    // Every string is the plugin's (choices exactly as a study must spell
    // them): escaped to one line each, so a descriptor cannot move the
    // cursor or colour the terminal, then wrapped to the width.
    const std::size_t width = output_width("", 0);
    auto say = [&](const std::string& text, const std::string& indent, const std::string& more,
                   const std::string& separator = " ") {
        const std::size_t room = width == 0 ? 0 : std::max<std::size_t>(20, width - indent.size());
        for (const std::string& l : separator == " " ? detail::wrap_words(text, room, more)
                                                     : detail::wrap_at(text, separator, room, more))
            fmt::print("{}{}\n", indent, l);
    };
    auto field = [&](const char* name, const std::string& value, const std::string& separator = " ") {
        say(fmt::format("{:<14}{}", name, value), "  ", std::string(14, ' '), separator);
    };
    say(escape_line(p.id()) + " " + escape_line(p.version()), "", "  ");
    say(escape_line(p.description()), "  ", "");
    fmt::print("\n");
    field("license", escape_line(p.license()));
    field("file", escape_line(p.file().string()));
    field("plugin ABI", fmt::format("{}.{}", p.abi_major(), p.abi_minor()));
    field("extension", p.extension().empty() ? "(none)" : "." + escape_line(p.extension()));
    field("dtypes", join(dtype_names(p.dtypes())), ", ");
    field("capabilities", join(capability_names(p.flags())), ", ");
    const auto extensions = p.extension_ids();
    std::vector<std::string> shown;
    for (const auto& e : extensions)
        shown.push_back(escape_line(e));
    field("extensions", extensions.empty() ? "(none)" : join(shown), ", ");
    field("access", join(p.access_patterns()) + (p.has(FB_CAP_DIRECT_IO) ? "; direct: true" : ""), ", ");
    fmt::print("\n  options:{}\n", p.options().empty() ? " (none)" : "");
    for (const auto& o : p.options()) {
        std::string range = range_text(o);
        say(fmt::format("{}  {}  default: {}{}", escape_line(o.name), option_type_name(o.type),
                        o.default_value.empty() ? "\"\"" : escape_line(o.default_value),
                        range.empty()
                            ? ""
                            : "  " + std::string(o.type == FB_OPT_CHOICE ? "choices: " : "range: ") +
                                  escape_line(range)),
            "    ", "    ", o.type == FB_OPT_CHOICE ? " | " : " ");
        say(escape_line(o.help), "        ", "");
    }
    return 0;
}

} // namespace

std::unique_ptr<registry> load_plugins(const global_options& global,
                                       const std::vector<std::string>& study_plugin_path) {
    auto reg = std::make_unique<registry>();
    reg->load_directories(plugin_search_path(global.plugin_path, study_plugin_path));
    if (!global.quiet)
        for (const auto& problem : reg->problems())
            fmt::print(stderr, "formatbench: skipped {}\n", problem.text());
    return reg;
}

void add_plugins_commands(CLI::App& app, const global_options& global, command_action& action) {
    // Parsed values live as long as the callbacks that read them.
    struct arguments {
        bool json = false;
        std::string id;
    };
    auto args = std::make_shared<arguments>();

    auto* list = app.add_subcommand("plugins", "list the plugins found on the search path");
    list->add_flag("--json", args->json, "machine-readable output");
    list->callback(
        [&global, &action, args] { action = [&global, args] { return list_plugins(global, args->json); }; });

    auto* describe =
        app.add_subcommand("describe", "show everything a plugin declares: dtypes, capabilities, "
                                       "options with types, defaults, ranges and help");
    describe
        ->add_option("PATH", args->id,
                     "the plugin's shared library, or the id of a plugin on the search path (see "
                     "`formatbench plugins`)")
        ->required();
    describe->add_flag("--json", args->json, "machine-readable output");
    describe->callback([&global, &action, args] {
        action = [&global, args] { return describe_plugin(global, args->id, args->json); };
    });
}

} // namespace formatbench::cli

// `formatbench new-plugin NAME [--lang c|cpp|python] [--build meson|cmake]
// [--dir DIR] [--force]`: writes a folder with a working plugin to start
// from, made from the templates compiled into the binary
// (cli/templates.hpp, from share/templates/plugin): the plugin's source, a
// build file that finds the installed SDK with pkg-config, a README and
// ci.sh (build, then check-plugin); for Python, the module fb_NAME.py ('-'
// as '_') and a README (check-plugin takes the module as it is, nothing to
// build). Usage errors (a bad NAME, a non-empty folder without --force,
// --build with Python) exit 2 before anything is written.
//
// Templates: the first folder of a template's path is its variant (common,
// c, cpp, meson, cmake, python); the files of common, the language and the
// build system are written, at the rest of their path, or for Python those
// of python alone. In paths and text,
// {{key}} is replaced by a value; in text, a line `{{if flag}}` keeps the
// lines up to the next `{{end}}` only when flag (the language or the build
// system) is chosen. A path component "dot-x" is written as ".x", so the
// source tree holds no dot files that would act on it (.gitignore).
#include "base/error.hpp"
#include "base/text.hpp"
#include "build_config.hpp"
#include "cli/commands.hpp"
#include "cli/templates.hpp"
#include "report/output_file.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace formatbench::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t max_name_length = 32;

struct new_plugin_arguments {
    std::string name;
    std::string lang = "cpp";
    std::string build = "meson";
    bool build_given = false; // --build on the command line (refused with python)
    std::string dir;          // "" = ./NAME
    bool force = false;
};

bool is_lower_or_digit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool is_separator(char c) {
    return c == '_' || c == '-';
}

// A plugin id (the registry takes [a-z0-9_-]+, docs/abi.md) that is part of
// the library name libfb_NAME.so and, with '-' as '_', of C identifiers
// (c_identifier): [a-z][a-z0-9]*, words joined by a single '_' or '-' (no
// leading, trailing or double separator: "a__b" and "a-_b" would make a
// double '_', which C++ reserves).
bool valid_name(std::string_view name) {
    if (name.empty() || name.size() > max_name_length || !(name[0] >= 'a' && name[0] <= 'z')) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (is_lower_or_digit(name[i])) continue;
        if (!is_separator(name[i]) || i + 1 == name.size() || is_separator(name[i + 1])) return false;
    }
    return true;
}

// The name as a part of C identifiers: '-' becomes '_' ("xz-lzma" ->
// "xz_lzma_open_write").
std::string c_identifier(std::string_view name) {
    std::string out(name);
    std::replace(out.begin(), out.end(), '-', '_');
    return out;
}

// The valid name closest to a rejected one ("My Format" -> "my_format",
// "My-Format" -> "my-format"), or "" when nothing sensible is left.
std::string suggest_name(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (is_lower_or_digit(c))
            out += c;
        else if (!out.empty() && !is_separator(out.back()))
            out += c == '-' ? '-' : '_';
    }
    while (!out.empty() && !(out[0] >= 'a' && out[0] <= 'z'))
        out.erase(0, 1);
    if (out.size() > max_name_length) out.resize(max_name_length);
    while (!out.empty() && is_separator(out.back()))
        out.pop_back();
    return valid_name(out) ? out : std::string();
}

void check_name(const std::string& name) {
    if (valid_name(name)) return;
    std::string suggestion = suggest_name(name);
    throw usage_error(fmt::format(
        "new-plugin: '{}' is not a plugin name: use 1 to {} lower-case letters and digits, words joined by "
        "single '_' or '-', starting with a letter (it becomes the plugin's id and part of libfb_NAME.so, "
        "and of C identifiers with '-' as '_'){}",
        name, max_name_length, suggestion.empty() ? "" : fmt::format("; for example '{}'", suggestion)));
}

// The target folder must be new or empty, unless --force.
void check_target(const fs::path& dir, bool force) {
    std::error_code ec;
    fs::file_status st = fs::status(dir, ec);
    if (!fs::exists(st)) return;
    if (!fs::is_directory(st))
        throw usage_error(fmt::format(
            "new-plugin: '{}' exists and is not a folder; choose another with --dir DIR", dir.string()));
    if (force) return;
    if (!fs::is_empty(dir, ec) || ec)
        throw usage_error(
            fmt::format("new-plugin: the folder '{}' is not empty; choose another with --dir DIR, or "
                        "add --force to write the plugin's files into it (files of the same names "
                        "are replaced, nothing else is touched)",
                        dir.string()));
}

struct template_values {
    std::map<std::string, std::string, std::less<>> values; // {{key}}
    std::set<std::string, std::less<>> flags;               // {{if flag}}
};

// {{key}} replaced in one line of a template; a key without a value is a
// mistake in the templates, which the test suite would catch.
std::string substitute(std::string_view text, const template_values& v, std::string_view file) {
    std::string out;
    for (;;) {
        std::size_t open = text.find("{{");
        if (open == std::string_view::npos) break;
        std::size_t close = text.find("}}", open + 2);
        if (close == std::string_view::npos)
            throw std::logic_error(fmt::format("template {}: '{{{{' without '}}}}'", file));
        std::string_view key = text.substr(open + 2, close - open - 2);
        auto it = v.values.find(key);
        if (it == v.values.end())
            throw std::logic_error(fmt::format("template {}: no value for '{}'", file, key));
        out += text.substr(0, open);
        out += it->second;
        text.remove_prefix(close + 2);
    }
    out += text;
    return out;
}

// A whole template: conditional lines, then placeholders.
std::string render(std::string_view text, const template_values& v, std::string_view file) {
    std::string out;
    bool in_block = false, keep = true;
    while (!text.empty()) {
        std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end == std::string_view::npos ? text.size() : end + 1);
        text.remove_prefix(line.size());
        std::string_view bare = line.substr(0, line.find_last_not_of("\r\n") + 1);
        if (bare.starts_with("{{if ") && bare.ends_with("}}")) {
            if (in_block) throw std::logic_error(fmt::format("template {}: nested {{{{if}}}}", file));
            in_block = true;
            keep = v.flags.contains(bare.substr(5, bare.size() - 7));
            continue;
        }
        if (bare == "{{end}}") {
            if (!in_block)
                throw std::logic_error(fmt::format("template {}: {{{{end}}}} without {{{{if}}}}", file));
            in_block = false;
            keep = true;
            continue;
        }
        if (keep) out += substitute(line, v, file);
    }
    if (in_block) throw std::logic_error(fmt::format("template {}: {{{{if}}}} without {{{{end}}}}", file));
    return out;
}

// Where a template's output goes: its path without the variant folder, each
// component rendered, "dot-x" written as ".x".
std::string output_path(std::string_view rest, const template_values& v, std::string_view file) {
    std::string out;
    for (const auto& part : fs::path(std::string(rest))) {
        std::string p = substitute(part.string(), v, file);
        if (p.starts_with("dot-")) p = "." + p.substr(4);
        out += out.empty() ? p : "/" + p;
    }
    return out;
}

// A plugin of the same id already on the search path would shadow the new
// one, or be shadowed by it (the first found wins): worth a note, not a refusal.
void note_taken_id(const global_options& global, const std::string& name) {
    global_options quiet = global;
    quiet.quiet = true;
    auto reg = load_plugins(quiet);
    for (const auto& p : reg->plugins())
        if (p->id() == name)
            fmt::print(stderr,
                       "formatbench: note: a plugin '{}' is already on the search path ({}); when both are "
                       "found, the first one wins and the other is skipped: consider another NAME\n",
                       name, p->file().string());
}

int new_plugin(const global_options& global, const new_plugin_arguments& a) {
    check_name(a.name);
    const bool python = a.lang == "python";
    if (python && a.build_given)
        throw usage_error(
            "new-plugin: --build is for C and C++ plugins: a Python plugin module (--lang python) "
            "is not built on its own; leave --build out");
    const fs::path dir = a.dir.empty() ? fs::path(a.name) : fs::path(a.dir);
    check_target(dir, a.force);

    const bool c = a.lang == "c";
    const bool meson = a.build == "meson";
    template_values v;
    std::string magic = "FB";
    for (char ch : a.name)
        magic += ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
    magic.resize(7, '_');
    // A Python module fb_IDENT.py is the plugin py-ID, '_' as '-'
    // (plugins/python/module_table.cpp).
    std::string id = c_identifier(a.name);
    std::replace(id.begin(), id.end(), '_', '-');
    v.values = {{"name", a.name},
                {"ident", c_identifier(a.name)},
                {"id", id},
                {"magic", magic + "1"},
                {"lang", a.lang},
                {"lang_name", c ? "C" : "C++"},
                {"build", a.build},
                {"source", a.name + (c ? ".c" : ".cpp")},
                {"version", FB_VERSION}};
    v.flags = {a.lang, a.build};

    // Everything is rendered before anything is written.
    std::vector<std::pair<std::string, std::string>> files; // output path, text
    for (const auto& t : plugin_template_files()) {
        std::string_view path = t.path;
        std::string_view variant = path.substr(0, path.find('/'));
        if (python ? variant != "python" : variant != "common" && variant != a.lang && variant != a.build)
            continue;
        files.emplace_back(output_path(path.substr(variant.size() + 1), v, path), render(t.text, v, path));
    }

    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw std::runtime_error(
            fmt::format("new-plugin: cannot create '{}': {}", dir.string(), ec.message()));
    for (const auto& [rel, text] : files) {
        const fs::path file = dir / rel;
        fs::create_directories(file.parent_path(), ec);
        write_output_file(file.string(), text);
        if (file.extension() == ".sh") {
            // Executable for whoever may read it (the umask decided that).
            fs::perms p = fs::status(file).permissions();
            fs::perms x = fs::perms::none;
            if ((p & fs::perms::owner_read) != fs::perms::none) x |= fs::perms::owner_exec;
            if ((p & fs::perms::group_read) != fs::perms::none) x |= fs::perms::group_exec;
            if ((p & fs::perms::others_read) != fs::perms::none) x |= fs::perms::others_exec;
            fs::permissions(file, x, fs::perm_options::add, ec);
            if (ec)
                throw std::runtime_error(
                    fmt::format("new-plugin: cannot make '{}' executable: {}", file.string(), ec.message()));
        }
    }

    if (python) {
        const std::string module = "fb_" + c_identifier(a.name) + ".py";
        fmt::print("wrote plugin 'py-{}' (Python, the module {}) into {}:\n", id, module, dir.string());
        for (const auto& f : files)
            fmt::print("  {}\n", (dir / f.first).string());
        fmt::print("next:\n  cd {}\n  formatbench check-plugin {}\n", shell_word(dir.string()), module);
        fmt::print("README.md says how to make it a built plugin, for studies.\n");
        note_taken_id(global, "py-" + id);
        return exit_ok;
    }
    fmt::print("wrote plugin '{}' ({}, {}) into {}:\n", a.name, c ? "C" : "C++", meson ? "Meson" : "CMake",
               dir.string());
    for (const auto& f : files)
        fmt::print("  {}\n", (dir / f.first).string());
    const std::string lib = "build/libfb_" + a.name + ".so";
    fmt::print("next:\n  cd {}\n  {}\n  formatbench check-plugin {}\n", shell_word(dir.string()),
               meson ? "meson setup build && meson compile -C build"
                     : "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build",
               lib);
    fmt::print(
        "README.md says how to install it and use it in a study; ./ci.sh builds and checks it in one go.\n");
    note_taken_id(global, a.name);
    return exit_ok;
}

} // namespace

void add_new_plugin_command(CLI::App& app, const global_options& global, command_action& action) {
    auto args = std::make_shared<new_plugin_arguments>();
    auto* cmd = app.add_subcommand(
        "new-plugin",
        "write a folder with a working plugin to start from: its source (C or C++), a build file "
        "that finds the installed SDK (Meson or CMake), a README and ci.sh, which builds it and "
        "runs check-plugin; or, with --lang python, a Python module fb_NAME.py and a README "
        "(check-plugin takes the module as it is)");
    cmd->add_option("NAME", args->name,
                    "the plugin's id: lower-case letters and digits, words joined by '_' or '-', starting "
                    "with a letter (the library is libfb_NAME.so)")
        ->required();
    cmd->add_option("--lang", args->lang,
                    "the plugin's language: cpp (with plugin.hpp), c (plugin.h only) or python (a module "
                    "fb_NAME.py, '-' as '_', for formatbench's Python bridge: the plugin py-NAME)")
        ->check(CLI::IsMember({"c", "cpp", "python"}))
        ->capture_default_str();
    auto* build =
        cmd->add_option("--build", args->build,
                        "its build system; both find the SDK with pkg-config (not with --lang python)")
            ->check(CLI::IsMember({"meson", "cmake"}))
            ->capture_default_str();
    cmd->add_option("--dir", args->dir, "the folder to write (default: ./NAME); new or empty unless --force")
        ->type_name("DIR");
    cmd->add_flag(
        "--force", args->force,
        "write into a folder that is not empty: files of the same names are replaced, nothing else is "
        "touched");
    cmd->callback([&global, &action, args, build] {
        args->build_given = build->count() > 0;
        action = [&global, args] { return new_plugin(global, *args); };
    });
}

} // namespace formatbench::cli

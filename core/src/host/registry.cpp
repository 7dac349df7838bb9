// Plugin discovery and loading (Boost.DLL) with per-file diagnostics.
#include "host/registry.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "build_config.hpp"

// Boost 1.74's library_info headers use std::vector without including it.
#include <string>
#include <vector>
#define BOOST_DLL_USE_STD_FS
#include <boost/dll/library_info.hpp>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <system_error>

namespace fs = std::filesystem;

namespace formatbench {
namespace {

// Sizes of the descriptor and the option declaration in ABI 1.0 (frozen
// literals, plugin.h); later minors only make them larger.
constexpr std::size_t descriptor_v1_0_size = FB_DESCRIPTOR_SIZE_1_0;
constexpr std::size_t option_decl_v1_0_size = FB_OPTION_DECL_SIZE_1_0;

bool valid_id(const char* id) {
    if (!id || !*id) return false;
    for (const char* p = id; *p; ++p) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
    }
    return true;
}

void add_unique(std::vector<fs::path>& out, const fs::path& p) {
    if (p.empty()) return;
    fs::path norm = p.lexically_normal();
    if (std::find(out.begin(), out.end(), norm) == out.end()) out.push_back(norm);
}

std::vector<std::string> split_colons(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(':', start);
        if (end == std::string_view::npos) end = text.size();
        if (end > start) out.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// Checks the descriptor; returns an empty string when it is usable.
std::string descriptor_problem(const fb_plugin_descriptor* d) {
    if (!d) return "entry point returned no descriptor";
    if (d->magic != FB_PLUGIN_MAGIC)
        return fmt::format("bad magic 0x{:08x}: not a formatbench plugin", d->magic);
    if (d->abi_major != FB_ABI_MAJOR)
        return fmt::format(
            "plugin ABI {}.{}, this formatbench speaks {}.x; rebuild the plugin against this SDK",
            d->abi_major, d->abi_minor, FB_ABI_MAJOR);
    if (d->struct_size < descriptor_v1_0_size)
        return fmt::format("descriptor is {} bytes, ABI {}.0 needs at least {}", d->struct_size, FB_ABI_MAJOR,
                           descriptor_v1_0_size);
    if (d->option_count && (!d->options || d->option_decl_size < option_decl_v1_0_size))
        return "descriptor declares options without a valid option table";
    if (!valid_id(d->id)) return "descriptor id is missing or not [a-z0-9_-]+";
    if (!d->version || !d->description || !d->license || !d->extension)
        return "descriptor lacks version, description, license or extension";
    if (!d->dtypes) return "descriptor declares no dtype";
    const std::pair<bool, const char*> calls[] = {{d->open_write != nullptr, "open_write"},
                                                  {d->write != nullptr, "write"},
                                                  {d->close_write != nullptr, "close_write"},
                                                  {d->open_read != nullptr, "open_read"},
                                                  {d->read != nullptr, "read"},
                                                  {d->close_read != nullptr, "close_read"}};
    for (const auto& [present, name] : calls)
        if (!present) return fmt::format("descriptor lacks the required call {}", name);
    return {};
}

} // namespace

std::string load_problem::text() const {
    return fmt::format("{}: {}", file.string(), reason);
}

std::vector<fs::path> builtin_plugin_dirs() {
    std::vector<fs::path> out;
    std::error_code ec;
    fs::path exe_dir = boost::dll::program_location(ec).parent_path();
    if (ec || exe_dir.empty()) return out;
    // Build tree: the executable sits in <build>/core, the plugins in <build>/plugins.
    if (fs::exists(exe_dir / ".." / "build.ninja", ec)) add_unique(out, exe_dir / ".." / "plugins");
    // Install tree: the plugin folder relative to bindir, fixed at configure time.
    add_unique(out, exe_dir / FB_PLUGIN_DIR_FROM_BINDIR);
    return out;
}

std::vector<fs::path> plugin_search_path(const std::vector<std::string>& command_line,
                                         const std::vector<std::string>& study) {
    std::vector<fs::path> out;
    for (const auto& p : command_line)
        add_unique(out, p);
    if (const char* env = std::getenv("FORMATBENCH_PLUGIN_PATH"))
        for (const auto& p : split_colons(env))
            add_unique(out, p);
    for (const auto& p : study)
        add_unique(out, p);
    for (const auto& p : builtin_plugin_dirs())
        add_unique(out, p);
    return out;
}

void registry::load_directories(const std::vector<fs::path>& dirs) {
    for (const auto& dir : dirs) {
        searched_.push_back(dir);
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> files;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::path& p = it->path();
            if (p.extension() == ".so" && it->is_regular_file(ec)) files.push_back(p);
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files)
            load_file(f);
    }
}

const plugin* registry::load_file(const fs::path& file) {
    auto problem = [&](std::string reason) -> const plugin* {
        problems_.push_back({file, std::move(reason)});
        return nullptr;
    };
    // Look before loading: a file that is not a shared library, or has no
    // entry symbol in its symbol table, is refused without running any of its
    // code. Boost 1.74 reads only .symtab, which a stripped library lacks; in
    // that case the dynamic symbol lookup after loading decides.
    try {
        boost::dll::library_info info(file);
        auto symbols = info.symbols();
        if (!symbols.empty() &&
            std::find(symbols.begin(), symbols.end(), FB_PLUGIN_ENTRY_NAME) == symbols.end())
            return problem(
                fmt::format("no entry symbol '{}': not a formatbench plugin", FB_PLUGIN_ENTRY_NAME));
    } catch (const std::exception&) {
        return problem("not a shared library (unreadable, truncated or another file type)");
    }

    auto library = std::make_shared<boost::dll::shared_library>();
    try {
        library->load(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& e) {
        return problem(fmt::format("cannot be loaded: {}", e.what()));
    }
    if (!library->has(FB_PLUGIN_ENTRY_NAME))
        return problem(fmt::format("no entry symbol '{}': not a formatbench plugin", FB_PLUGIN_ENTRY_NAME));
    auto entry =
        library->get<const fb_plugin_descriptor*(std::uint16_t, std::uint16_t)>(FB_PLUGIN_ENTRY_NAME);
    const fb_plugin_descriptor* d = entry(FB_ABI_MAJOR, FB_ABI_MINOR);
    if (std::string why = descriptor_problem(d); !why.empty()) return problem(why);
    if (const plugin* first = find(d->id))
        return problem(fmt::format("duplicate plugin id '{}': already loaded from {}; this one is skipped",
                                   d->id, first->file().string()));
    plugins_.push_back(
        std::make_unique<plugin>(d, fs::absolute(file), std::static_pointer_cast<void>(library)));
    return plugins_.back().get();
}

const plugin* registry::find(std::string_view id) const noexcept {
    for (const auto& p : plugins_)
        if (p->id() == id) return p.get();
    return nullptr;
}

std::vector<std::string> registry::ids() const {
    std::vector<std::string> out;
    for (const auto& p : plugins_)
        out.push_back(p->id());
    return out;
}

const plugin& registry::get(std::string_view id) const {
    if (const plugin* p = find(id)) return *p;
    std::vector<std::string> dirs;
    for (const auto& d : searched_)
        dirs.push_back(d.string());
    throw usage_error(fmt::format("unknown plugin '{}'{}; known plugins: {}; searched: {}", id,
                                  did_you_mean(id, ids()), plugins_.empty() ? "(none)" : join(ids()),
                                  dirs.empty() ? "(nothing)" : join(dirs)));
}

} // namespace formatbench

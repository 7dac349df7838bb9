// Plugin discovery and loading (Boost.DLL) with per-file diagnostics.
#include "host/registry.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "build_config.hpp"

#include "host/elf_exports.hpp"
#include "host/mpi_match.hpp"

#include <string>
#include <vector>
#define BOOST_DLL_USE_STD_FS
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <fmt/format.h>

#include <formatbench/plugin.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <system_error>
#include <type_traits>

namespace fs = std::filesystem;

namespace formatbench {
namespace {

// How long a library may take to load in the probe child: 10 s, or
// FORMATBENCH_LOAD_TIMEOUT seconds (docs/plugin-guide.md).
double probe_timeout_s() {
    if (const char* env = std::getenv("FORMATBENCH_LOAD_TIMEOUT")) {
        char* end = nullptr;
        const double v = std::strtod(env, &end);
        if (end != env && *end == '\0' && v > 0 && v <= 3600) return v;
    }
    return 10;
}

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

// Limits on what a descriptor may point to; beyond them it is malformed.
constexpr std::size_t max_text = 4096; // bytes of one string, NUL included
constexpr std::uint32_t max_options = 1000;
constexpr std::size_t max_choices = 1000;

bool bounded(const char* s) {
    return s && std::memchr(s, 0, max_text) != nullptr;
}

bool valid_option_name(const char* s) {
    if (!bounded(s) || !*s) return false;
    for (const char* p = s; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    return true;
}

// Everything the descriptor points to, within the limits: strings end, the
// option table is sane (names, types, choice lists, defaults that fit their
// declaration, ranges), no option twice. Reading a bad pointer may crash:
// this runs first in the probe child (probe_library), where a crash is a
// reason to skip the file, not the end of formatbench.
std::string deep_problem(const fb_plugin_descriptor* d) {
    for (const char* text : {d->id, d->version, d->description, d->license, d->extension})
        if (!bounded(text))
            return fmt::format("a descriptor string is not terminated within {} bytes", max_text);
    if (d->option_count > max_options)
        return fmt::format("descriptor declares {} options (at most {})", d->option_count, max_options);
    const auto* base = reinterpret_cast<const unsigned char*>(d->options);
    std::set<std::string> names;
    for (std::uint32_t i = 0; base && i < d->option_count; ++i) {
        fb_option_decl o{};
        std::memcpy(&o, base + std::size_t{i} * d->option_decl_size,
                    std::min<std::size_t>(d->option_decl_size, sizeof o));
        if (!valid_option_name(o.name)) return fmt::format("option {} has no name of [a-z0-9_]+", i);
        if (!names.insert(o.name).second) return fmt::format("option '{}' is declared twice", o.name);
        // The type as an integer: a plugin's out-of-range value must not be
        // loaded as the enum (undefined behaviour) before it is checked.
        std::underlying_type_t<fb_option_type> type = 0;
        std::memcpy(&type, &o.type, sizeof type);
        if (type < FB_OPT_BOOL || type > FB_OPT_SIZE)
            return fmt::format("option '{}' has an unknown type {}", o.name, static_cast<long long>(type));
        if (!bounded(o.default_value) || !bounded(o.help))
            return fmt::format("option '{}' lacks its default or help text", o.name);
        if (o.type == FB_OPT_CHOICE) {
            std::size_t n = 0;
            for (; o.choices && n < max_choices && o.choices[n]; ++n)
                if (!bounded(o.choices[n]))
                    return fmt::format("a choice of option '{}' is not terminated", o.name);
            if (!o.choices || n == 0 || n == max_choices)
                return fmt::format("option '{}' has no NULL-terminated list of choices (at most {})", o.name,
                                   max_choices - 1);
        }
        if (o.has_range && !(o.min <= o.max))
            return fmt::format("option '{}' has a range [{}, {}] that holds nothing", o.name, o.min, o.max);
        try {
            sdk::options::check(o, o.default_value);
        } catch (const std::exception& e) {
            return fmt::format("the default of option '{}' does not fit its declaration: {}", o.name,
                               e.what());
        }
    }
    return {};
}

// formatbench.mpi/1 (plugin.h): a plugin that calls MPI must be built against
// the host's MPI implementation. A host without MPI loads it (it describes
// itself and lists), and a run refuses it outside mpirun (study_run.cpp).
std::string mpi_problem(const fb_plugin_descriptor* d) {
    if (!d->get_extension) return {};
    const auto* ext = static_cast<const fb_ext_mpi_v1*>(d->get_extension(FB_EXT_MPI_V1));
    if (!ext) return {};
    if (ext->struct_size < FB_EXT_MPI_V1_SIZE || !ext->open_write || !ext->open_read ||
        !bounded(ext->implementation))
        return "its " FB_EXT_MPI_V1 " extension is incomplete (size, opens or implementation missing)";
    const std::string host = host_mpi_implementation();
    if (host.empty()) return {};
    return mpi_mismatch(ext->implementation, host);
}

// Loads `file` in a child first, with `timeout_s`: a library whose
// constructors or entry point crash, hang or print, or whose descriptor is
// malformed, is a problem to report, and the parent never loads it. Empty
// when the library is fit to load.
std::string probe_library(const fs::path& file, double timeout_s) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {}; // cannot probe: load as before
    int out = ::memfd_create("formatbench-probe-output", MFD_CLOEXEC);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        if (out >= 0) ::close(out);
        return {};
    }
    if (pid == 0) {
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGINT, SIGTERM})
            ::signal(sig, SIG_DFL);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (out >= 0) {
            ::dup2(out, STDOUT_FILENO);
            ::dup2(out, STDERR_FILENO);
        }
        std::string why;
        void* lib = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            why = std::string("cannot be loaded: ") + ::dlerror();
        } else if (void* sym = ::dlsym(lib, FB_PLUGIN_ENTRY_NAME); !sym) {
            why = fmt::format("no entry symbol '{}': not a formatbench plugin", FB_PLUGIN_ENTRY_NAME);
        } else {
            auto entry = reinterpret_cast<fb_plugin_entry_fn>(sym);
            const fb_plugin_descriptor* d = entry(FB_ABI_MAJOR, FB_ABI_MINOR);
            why = descriptor_problem(d);
            if (why.empty()) why = deep_problem(d);
        }
        std::fflush(stdout);
        std::fflush(stderr);
        if (why.empty() && out >= 0 && ::lseek(out, 0, SEEK_END) > 0) {
            char printed[200] = "";
            ssize_t n = ::pread(out, printed, sizeof printed - 1, 0);
            std::string text(printed, n > 0 ? static_cast<std::size_t>(n) : 0);
            while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
                text.pop_back();
            why = fmt::format(
                "writes to standard output or error while loading (a plugin must not print): '{}'",
                escape_line(text));
        }
        why = "=" + why; // "=" alone: fit to load
        ssize_t ignored = ::write(fds[1], why.data(), why.size());
        (void)ignored;
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string reply;
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    bool timed_out = false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd p {
            fds[0], POLLIN, 0
        };
        int rc = ::poll(&p, 1, static_cast<int>(left));
        if (rc < 0 && errno == EINTR) continue;
        if (rc <= 0) continue;
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        reply.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (timed_out) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // What the library printed as it ended the process (a sanitizer's
    // report, an exit() with a message) says why: its first line.
    std::string printed;
    if (out >= 0) {
        char text[512];
        const ssize_t n = ::pread(out, text, sizeof text, 0);
        if (n > 0) printed.assign(text, static_cast<std::size_t>(n));
        ::close(out);
        if (const auto nl = printed.find('\n'); nl != std::string::npos) printed.resize(nl);
    }
    if (timed_out)
        return fmt::format("loading it did not finish within {:g} s (a constructor or the entry point hangs)",
                           timeout_s);
    if (WIFSIGNALED(status))
        return fmt::format(
            "loading it crashed (signal {}, {}) in a constructor, the entry point or its descriptor",
            WTERMSIG(status), ::strsignal(WTERMSIG(status)));
    if (reply.empty() || reply[0] != '=')
        return fmt::format("loading it ended the process (exit status {}) before it reported{}",
                           WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                           printed.empty() ? "" : ": '" + escape_line(printed) + "'");
    return reply.substr(1);
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
    // Look before loading: a file that is not a shared library, or does not
    // export the entry symbol, is refused without running any of its code.
    switch (detail::elf_exports(file, FB_PLUGIN_ENTRY_NAME)) {
    case detail::elf_export::not_a_library:
        return problem("not a shared library (unreadable, truncated or another file type)");
    case detail::elf_export::not_exported:
        return problem(fmt::format("no entry symbol '{}': not a formatbench plugin", FB_PLUGIN_ENTRY_NAME));
    case detail::elf_export::exported:
    case detail::elf_export::undecided: break;
    }

    // Run its code in a child first: only a library that loads there, says
    // nothing and describes itself sanely is loaded here.
    if (std::string why = probe_library(file, probe_timeout_s()); !why.empty()) return problem(why);

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
    if (std::string why = deep_problem(d); !why.empty()) return problem(why);
    if (std::string why = mpi_problem(d); !why.empty()) return problem(why);
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

// Describes the generic bridge's module without starting Python in this
// process: describe_module --json runs as a child, its output is read from
// memory files, its table parsed (module_table.cpp).
#include "dynamic_module.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace formatbench::detail {
namespace {

namespace fs = std::filesystem;

// What a child wrote into the memory file fd (at most `limit` bytes).
std::string read_all(int fd, std::size_t limit) {
    std::string out;
    char buf[4096];
    for (off_t at = 0; out.size() < limit;) {
        const ssize_t n = ::pread(fd, buf, sizeof buf, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
        at += n;
    }
    return out;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    for (char& c : s)
        if (c == '\n') c = ' '; // one line, as every message across the ABI
    if (s.size() > 2000) s = s.substr(0, 2000) + "...";
    return s;
}

// describe_module, beside this library (build tree and install tree alike).
fs::path describe_program() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&describe_from_environment), &info) == 0 || !info.dli_fname) return {};
    return fs::path(info.dli_fname).parent_path() / "describe_module";
}

// Runs describe_module --json DIR MODULE; its standard output, or the
// problem (its standard error) in `problem`.
std::string run_describe(const fs::path& program, const std::string& dir, const std::string& module,
                         std::string& problem) {
    const int out = ::memfd_create("formatbench-describe-out", MFD_CLOEXEC);
    const int err = ::memfd_create("formatbench-describe-err", MFD_CLOEXEC);
    if (out < 0 || err < 0) {
        if (out >= 0) ::close(out);
        if (err >= 0) ::close(err);
        problem = "cannot run describe_module: no memory file for its output";
        return {};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
    std::string p = program.string(), json = "--json", d = dir, m = module;
    char* argv[] = {p.data(), json.data(), d.data(), m.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, p.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    std::string text;
    if (spawned != 0) {
        problem = "cannot run '" + p + "': " + std::strerror(spawned);
    } else {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        text = read_all(out, 1 << 20);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            problem = trimmed(read_all(err, 1 << 16));
            if (problem.empty())
                problem = "describe_module " +
                          (WIFSIGNALED(status) ? "died of signal " + std::to_string(WTERMSIG(status))
                                               : "exited with status " + std::to_string(WEXITSTATUS(status)));
        }
    }
    ::close(out);
    ::close(err);
    return text;
}

} // namespace

described_module describe_from_environment() noexcept {
    described_module d;
    try {
        const char* value = std::getenv(python_module_variable);
        if (!value || !*value) {
            d.problem = std::string("the generic python bridge serves the module that ") +
                        python_module_variable +
                        " names, and it is not set: run formatbench check-plugin fb_NAME.py";
            return d;
        }
        const fs::path file = fs::absolute(value).lexically_normal();
        d.module = file.stem().string();
        d.dir = file.parent_path().string();
        const std::string named = "python module '" + d.module + "' (" + file.string() + "): ";
        std::error_code ec;
        if (file.extension() != ".py" || !fs::is_regular_file(file, ec)) {
            d.problem = named + "no such file: " + python_module_variable + " names a module fb_NAME.py";
            return d;
        }
        const fs::path program = describe_program();
        if (program.empty() || !fs::exists(program, ec)) {
            d.problem = named + "no describe_module beside the generic python bridge (" + program.string() +
                        "): reinstall formatbench";
            return d;
        }
        std::string problem;
        const std::string text = run_describe(program, d.dir, d.module, problem);
        if (!problem.empty()) {
            d.problem = problem.rfind("python module", 0) == 0 ? problem : named + problem;
            return d;
        }
        // The last line: anything the module's libraries printed comes before.
        std::string all = text;
        while (!all.empty() && (all.back() == '\n' || all.back() == ' ' || all.back() == '\r'))
            all.pop_back();
        const auto nl = all.rfind('\n');
        d.table = table_from_json(nl == std::string::npos ? all : all.substr(nl + 1));
    } catch (const std::exception& e) {
        d.problem = "python module '" + d.module + "': " + e.what();
    } catch (...) {
        d.problem = "python module '" + d.module + "': unknown error while describing it";
    }
    return d;
}

} // namespace formatbench::detail

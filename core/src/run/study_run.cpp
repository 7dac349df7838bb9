// A whole study run (study_run.hpp).
#include "run/study_run.hpp"

#include "base/error.hpp"
#include "run/executor.hpp"
#include "run/file_ops.hpp"
#include "run/runner.hpp"
#include "run/system_info.hpp"

#include <fmt/format.h>

#include <signal.h>

#include <csignal>
#include <cstdio>

namespace formatbench {
namespace {

volatile std::sig_atomic_t pending_signal = 0;

extern "C" void on_stop_signal(int sig) {
    pending_signal = sig;
}

// Catches SIGINT and SIGTERM for the duration of a run (no SA_RESTART, so a
// blocking call returns EINTR and the runner notices at once), and ignores
// SIGPIPE, so a worker that died or a closed standard output is an error to
// report, not the end of the process.
class signal_scope {
public:
    signal_scope() {
        pending_signal = 0;
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &old_int_);
        ::sigaction(SIGTERM, &sa, &old_term_);
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, &old_pipe_);
    }
    ~signal_scope() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
        ::sigaction(SIGPIPE, &old_pipe_, nullptr);
    }
    signal_scope(const signal_scope&) = delete;
    signal_scope& operator=(const signal_scope&) = delete;

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
    struct sigaction old_pipe_ {};
};

} // namespace

run_outcome run_study(const study& s, const registry& reg, observer_list& observers,
                      const study_run_options& options) {
    signal_scope signals;
    const bool own_dir = s.directory.empty();
    const std::string dir = own_dir ? make_temp_directory() : s.directory;

    study_result run;
    run.spec = s;
    run.context = collect_context(dir);
    for (const auto& p : reg.plugins())
        run.context.plugins.push_back({p->id(), p->version(), p->file().string()});

    case_environment env;
    env.plugins = &reg;
    env.directory = dir;
    env.keep_files = s.keep_files;
    env.in_memory_bytes = options.in_memory_bytes ? options.in_memory_bytes : default_in_memory_bytes();
    env.stop_requested = [] { return pending_signal != 0; };
    auto ex =
        s.isolation == isolation_mode::process ? make_forked_executor(env) : make_in_process_executor(env);

    runner_options ro;
    ro.resumed = options.resumed;
    ro.stop_requested = env.stop_requested;
    ro.in_memory_bytes = env.in_memory_bytes;
    // The cases alive together under interleave and shuffle hold at most
    // half of the usable memory.
    ro.memory_budget = usable_memory_bytes() / 2;
    run_outcome outcome = run_cases(std::move(run), *ex, observers, ro);

    if (own_dir && !s.keep_files) {
        try {
            remove_output(dir);
        } catch (const std::exception& e) {
            fmt::print(stderr, "formatbench: warning: {}\n", e.what());
        }
    }
    return outcome;
}

} // namespace formatbench

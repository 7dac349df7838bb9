// A whole study run (study_run.hpp).
#include "run/study_run.hpp"

#include "base/error.hpp"
#include "base/fp_env.hpp"
#include "run/executor.hpp"
#include "run/file_ops.hpp"
#include "run/rank_executor.hpp"
#include "run/runner.hpp"
#include "run/system_info.hpp"

#include <fmt/format.h>

#include <signal.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

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

namespace {

// The smallest of the ranks' values: what every rank then uses.
std::uint64_t agreed_minimum(communicator& world, std::uint64_t mine) {
    std::uint64_t least = mine;
    for (const std::string& v : world.all_gather(std::to_string(mine)))
        least = std::min<std::uint64_t>(least, std::stoull(v));
    return least;
}

} // namespace

run_outcome run_study(const study& s, const registry& reg, observer_list& observers,
                      const study_run_options& options) {
    signal_scope signals;
    // The checks before the run loaded plugins and what they load (the hdf5
    // plugin's filter check loads HDF5's filter plugins, and Debian's
    // bitshuffle filter turns on flush-to-zero as it loads): every worker
    // forked from here, and every case run here, starts in the environment
    // the process started in (base/fp_env.hpp). The libraries stay loaded,
    // so a worker does not load them again inside a phase.
    detail::restore_default_fp_environment();
    communicator* world = options.world;
    const bool leader = !world || world->rank() == 0;
    const bool own_dir = s.directory.empty();
    world_info where;
    std::string dir = s.directory;
    // The run's own folder, made after removing what killed runs left.
    auto fresh_folder = [] {
        for (const std::string& note : remove_abandoned_temp_directories())
            fmt::print(stderr, "formatbench: note: {}\n", note);
        return make_temp_directory();
    };
    if (world) {
        where = describe_world(*world);
        if (own_dir && where.hosts > 1)
            throw usage_error(fmt::format(
                "the {} ranks run on {} machines: give the study a `directory:` (or --directory) on a file "
                "system they all see, such as a parallel file system; each machine's $TMPDIR is its own",
                world->size(), where.hosts));
        // Rank 0 makes the fresh folder; the others use its name (or all
        // report why it could not be made).
        std::string made;
        if (own_dir && leader) {
            try {
                made = fresh_folder();
            } catch (const std::exception& e) {
                made = std::string("!") + e.what();
            }
        }
        if (own_dir) dir = world->all_gather(made).front();
        if (!dir.empty() && dir[0] == '!') throw std::runtime_error(dir.substr(1));
    } else if (own_dir) {
        dir = fresh_folder();
    }
    // The study's own folder, one run at a time (rank 0 holds it for all
    // ranks; every rank hears why it could not).
    // A folder of our own is locked too: the lock, which dies with this
    // process, tells a later run that it is still in use.
    std::optional<directory_lock> held;
    if (own_dir && leader) held.emplace(dir);
    if (!own_dir) {
        std::string refused;
        if (leader) try {
                held.emplace(dir);
            } catch (const usage_error& e) {
                refused = e.what();
            }
        if (world) refused = world->all_gather(refused).front();
        if (!refused.empty()) throw usage_error(refused);
    }

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
    // The cases alive together under interleave and shuffle hold at most
    // half of the usable memory.
    std::uint64_t memory_budget = usable_memory_bytes() / 2;
    std::unique_ptr<executor> ex;
    std::function<bool()> stop = env.stop_requested;
    if (world) {
        run.context.ranks = world->size();
        run.context.hosts = where.hosts;
        env.place = {world->rank(), world->size()};
        env.mpi_world = world->mpi_comm(true);
        env.mpi_self = world->mpi_comm(false);
        if (world->size() > 1) env.ranks = world;
        // The ranks of one machine share its memory; every rank must plan
        // the same batches, so all take the smallest figure.
        if (!options.in_memory_bytes) env.in_memory_bytes /= where.ranks_on_host;
        env.in_memory_bytes = agreed_minimum(*world, env.in_memory_bytes);
        memory_budget = agreed_minimum(*world, memory_budget / where.ranks_on_host);
        auto rex = std::make_unique<rank_executor>(env, *world, s.isolation, where.clock_offset);
        stop = [r = rex.get()] { return r->stop_agreed(); };
        ex = std::move(rex);
    } else {
        ex = s.isolation == isolation_mode::process ? make_forked_executor(env)
                                                    : make_in_process_executor(env);
    }

    runner_options ro;
    ro.resumed = options.resumed;
    ro.selected = options.selected;
    ro.stop_requested = stop;
    ro.in_memory_bytes = env.in_memory_bytes;
    ro.memory_budget = memory_budget;
    run_outcome outcome = run_cases(std::move(run), *ex, observers, ro);
    ex.reset();
    if (world) world->barrier(); // every rank is done with the folder

    if (own_dir && leader) {
        try {
            if (s.keep_files)
                std::filesystem::remove(std::filesystem::path(dir) / running_marker); // ended: keep the files
            else
                remove_output(dir);
        } catch (const std::exception& e) {
            fmt::print(stderr, "formatbench: warning: {}\n", e.what());
        }
    }
    return outcome;
}

} // namespace formatbench

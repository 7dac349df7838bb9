// Study execution: case order (sequential or interleaved), isolation, the
// JSON Lines log, resume, clean-up and signal handling.
#include "run/runner.hpp"

#include "run/case_executor.hpp"
#include "run/data_source.hpp"
#include "base/error.hpp"
#include "run/file_ops.hpp"
#include "run/isolation.hpp"
#include "study/plan.hpp"
#include "results/json.hpp"
#include "results/stats.hpp"
#include "run/system_info.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>

namespace formatbench {
namespace {

volatile std::sig_atomic_t pending_signal = 0;

extern "C" void on_stop_signal(int sig) {
    pending_signal = sig;
}

// Catches SIGINT and SIGTERM for the duration of a run (no SA_RESTART, so a
// blocking call returns EINTR and the runner notices at once).
class signal_scope {
public:
    signal_scope() {
        pending_signal = 0;
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &old_int_);
        ::sigaction(SIGTERM, &sa, &old_term_);
    }
    ~signal_scope() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
    }
    signal_scope(const signal_scope&) = delete;
    signal_scope& operator=(const signal_scope&) = delete;

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
};

bool stop_requested() {
    return pending_signal != 0;
}

// Finished cases of an earlier run, by key. A last line cut short by a kill is
// ignored; any other unreadable line is an error.
std::map<std::string, case_result> read_resume_log(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw usage_error(fmt::format("cannot read resume log '{}': {}", path, std::strerror(errno)));
    std::map<std::string, case_result> done;
    std::string line;
    std::size_t number = 0;
    std::string pending_error;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        if (!pending_error.empty()) throw usage_error(pending_error);
        try {
            case_result r = case_result_from_json(nlohmann::json::parse(line));
            done[r.spec.key] = std::move(r);
        } catch (const std::exception& e) {
            pending_error = fmt::format("{}:{}: not a formatbench result line: {}", path, number, e.what());
        }
    }
    return done;
}

// Appends one JSON line and forces it to disk, so a kill loses at most the
// case that was running.
class jsonl_log {
public:
    jsonl_log() = default;
    jsonl_log(const std::string& path, bool append) : path_(path) {
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
        if (fd_ < 0) throw usage_error(fmt::format("cannot open log '{}': {}", path, std::strerror(errno)));
    }
    ~jsonl_log() {
        if (fd_ >= 0) ::close(fd_);
    }
    jsonl_log(const jsonl_log&) = delete;
    jsonl_log& operator=(const jsonl_log&) = delete;

    void append(const case_result& r) {
        if (fd_ < 0) return;
        std::string line = to_json(r).dump() + "\n";
        const char* p = line.data();
        std::size_t left = line.size();
        while (left > 0) {
            ssize_t n = ::write(fd_, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0)
                throw std::runtime_error(
                    fmt::format("cannot write log '{}': {}", path_, std::strerror(errno)));
            p += n;
            left -= static_cast<std::size_t>(n);
        }
        ::fdatasync(fd_);
    }

private:
    std::string path_;
    int fd_ = -1;
};

std::string data_path(const std::string& dir, const case_spec& c, const plugin& p) {
    std::string name = fmt::format("case-{:04d}-{}", c.index, p.id());
    if (!p.extension().empty()) name += "." + p.extension();
    return dir + "/" + name;
}

std::string short_time(double s) {
    if (s < 1e-3) return fmt::format("{:.1f} us", s * 1e6);
    if (s < 1) return fmt::format("{:.2f} ms", s * 1e3);
    return fmt::format("{:.3f} s", s);
}

void print_progress(const case_result& r, std::size_t total) {
    std::string times;
    if (!r.samples.empty()) {
        summary w = summarize(write_times(r)), rd = summarize(read_times(r));
        times = fmt::format("write {} read {}", short_time(w.median), short_time(rd.median));
    }
    fmt::print(stderr, "[{}/{}] {}  {}  {}\n", r.spec.index + 1, total, describe_case(r.spec), times,
               r.status == case_status::ok ? "ok" : fmt::format("{}: {}", to_string(r.status), r.error));
}

// Merges one more round of an interleaved case into its running result.
void merge_round(case_result& into, case_result&& round) {
    if (into.samples.empty() && into.status == case_status::ok && into.error.empty()) {
        auto samples = std::move(into.samples);
        into = std::move(round);
        into.samples.insert(into.samples.begin(), samples.begin(), samples.end());
        return;
    }
    for (auto& s : round.samples)
        into.samples.push_back(s);
    if (round.status != case_status::ok) {
        into.status = round.status;
        into.error = round.error;
    }
    if (round.verify.mismatches > into.verify.mismatches) into.verify = round.verify;
    into.peak_rss_bytes = std::max(into.peak_rss_bytes, round.peak_rss_bytes);
    into.file_bytes = round.file_bytes;
}

} // namespace

run_outcome run_study(const study& s, const registry& reg, const runner_options& options) {
    signal_scope signals;
    run_outcome outcome;

    std::map<std::string, case_result> done;
    if (!options.resume_path.empty()) done = read_resume_log(options.resume_path);
    std::unique_ptr<jsonl_log> log;
    if (!options.log_path.empty()) {
        bool same = options.log_path == options.resume_path;
        log = std::make_unique<jsonl_log>(options.log_path, same);
        if (!same)
            for (const auto& [key, r] : done)
                log->append(r);
    }

    const bool own_dir = s.directory.empty();
    const std::string dir = own_dir ? make_temp_directory() : s.directory;

    study_result& result = outcome.result;
    result.spec = s;
    result.context = collect_context(dir);
    for (const auto& p : reg.plugins())
        result.context.plugins.push_back({p->id(), p->version(), p->file().string()});

    // Data sources by data set name, made in the parent so that a from_file
    // data set is read once.
    std::map<std::string, std::unique_ptr<data_source>> sources;
    auto source_for = [&](const dataset_spec& d) -> const data_source& {
        auto& slot = sources[d.name];
        if (!slot) slot = make_data_source(d, reg);
        return *slot;
    };

    const std::uint64_t in_memory =
        options.in_memory_bytes ? options.in_memory_bytes : default_in_memory_bytes();
    auto run_once = [&](const case_spec& c, unsigned warmups, unsigned repeat,
                        double min_time) -> case_result {
        const plugin& p = reg.get(c.format.plugin);
        const std::string path = data_path(dir, c, p);
        execution_limits limits{in_memory, warmups, repeat, min_time};
        case_result r;
        try {
            const data_source& source = source_for(c.dataset);
            auto work = [&] { return execute_case(c, p, source, path, limits); };
            r = s.isolation == isolation_mode::process
                    ? run_isolated(c, c.params.timeout, work, stop_requested)
                    : work();
        } catch (const std::exception& e) {
            r.spec = c;
            r.status = case_status::failed;
            r.error = e.what();
        }
        if (!s.keep_files) {
            try {
                remove_output(path);
            } catch (const std::exception&) {
                // Reported by the directory clean-up below if it matters.
            }
        }
        return r;
    };

    auto finish = [&](case_result&& r) {
        if (options.progress) print_progress(r, s.cases.size());
        if (log) log->append(r);
        result.cases.push_back(std::move(r));
    };

    if (s.schedule == schedule_mode::sequential) {
        for (const auto& c : s.cases) {
            if (auto it = done.find(c.key); it != done.end()) {
                result.cases.push_back(it->second);
                continue;
            }
            if (stop_requested()) break;
            case_result r = run_once(c, c.params.warmup, c.params.repeat, c.params.min_time);
            if (stop_requested() && r.status == case_status::skipped) break;
            finish(std::move(r));
        }
    } else {
        // Round-robin: one recorded repetition of every unfinished case per
        // round, so slow drifts of the machine spread over all cases alike.
        std::vector<case_result> running(s.cases.size());
        std::vector<double> elapsed(s.cases.size(), 0);
        std::vector<bool> finished(s.cases.size(), false);
        for (std::size_t i = 0; i < s.cases.size(); ++i) {
            running[i].spec = s.cases[i];
            if (auto it = done.find(s.cases[i].key); it != done.end()) {
                running[i] = it->second;
                finished[i] = true;
            }
        }
        for (unsigned round = 0; !stop_requested(); ++round) {
            bool any = false;
            for (std::size_t i = 0; i < s.cases.size() && !stop_requested(); ++i) {
                if (finished[i]) continue;
                const case_spec& c = s.cases[i];
                case_result r = run_once(c, round == 0 ? c.params.warmup : 0, 1, 0);
                if (stop_requested() && r.status == case_status::skipped) break;
                any = true;
                for (const auto& rep : r.samples)
                    elapsed[i] += rep.write.wall_s + rep.read.wall_s;
                merge_round(running[i], std::move(r));
                bool enough = running[i].samples.size() >= c.params.repeat && elapsed[i] >= c.params.min_time;
                if (running[i].status != case_status::ok || enough) {
                    finished[i] = true;
                    finish(case_result(running[i]));
                    result.cases.pop_back(); // kept in plan order below
                }
            }
            if (!any) break;
        }
        for (std::size_t i = 0; i < s.cases.size(); ++i)
            if (finished[i]) result.cases.push_back(std::move(running[i]));
    }

    outcome.interrupted = stop_requested();
    for (const auto& r : result.cases)
        if (r.status != case_status::ok) outcome.any_failed = true;
    if (outcome.interrupted || result.cases.size() < s.cases.size()) outcome.any_failed = true;

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

// isolation: process (executor.hpp): one forked worker per case, alive from
// the case's start to its finish, driven over two pipes. The parent sends a
// one-byte command (S start, R repetition, W rewarm, F finish; for a case
// driven phase by phase: s start without warm-up, D remove the previous
// file, w write, c cache step, r read) and reads back one
// length-prefixed JSON reply, waiting at most what is left of the case's
// timeout (the time the case's own steps have taken so far counts; the time
// it waits while an interleaved schedule runs other cases does not, nor the
// time its worker waits for other ranks at meetings, below). Before
// the reply, a step may send phase notices (case_runner::listen): a 4-byte
// header alone, phase_notice | the run_phase, which no reply's length can
// be; the worker writes them outside the timed regions and the parent hands
// them to the session's listener as they come. Under MPI, a streamed
// phase's meetings of the ranks (rank_meeting) go the same way: a header
// meet_notice | the worker's flags, on which the parent meets the other
// ranks and answers one byte on the command pipe, the flags of all; if the
// worker dies or is killed while its phase's meetings are not over, the
// parent makes its next meeting for it, saying it failed, so no other rank
// waits for it.
//
// The worker runs in its own process group, so the whole group (a plugin's
// own children included) is killed when the case ends or times out; it
// dies with the runner (PR_SET_PDEATHSIG); its standard output and error go
// to a memory file that the parent reads back as the case's output; and it
// resets the signal handlers it inherited (an MPI library's SIGSEGV handler
// would otherwise print a backtrace and keep a crashed plugin's worker
// alive).
#include "base/error.hpp"
#include "results/json.hpp"
#include "run/executor.hpp"
#include "run/local_case.hpp"
#include "run/system_info.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace formatbench {
namespace {

using nlohmann::json;
using steady = std::chrono::steady_clock;

// At most this much of what a plugin printed is kept with its case.
constexpr std::size_t max_output_bytes = 64 * 1024;
// Longest reply a worker may send (a case's JSON is far smaller).
constexpr std::uint32_t max_reply_bytes = 64u << 20;
// A header with these top bits is a phase notice, not a reply's length
// (far above max_reply_bytes); its low byte is the run_phase.
constexpr std::uint32_t phase_notice = 0xFB000000u, phase_notice_mask = 0xFF000000u;
// A header with these top bits is a meeting of the ranks (above); its low
// byte is the worker's rank_meeting flags.
constexpr std::uint32_t meet_notice = 0xFC000000u;

bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

bool read_all(int fd, void* data, std::size_t n) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
        ssize_t r = ::read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

void send_reply(int fd, const json& j) {
    // Plugin messages may hold bytes that are not UTF-8: replaced, not thrown.
    const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
    const auto n = static_cast<std::uint32_t>(text.size());
    write_all(fd, &n, sizeof n);
    write_all(fd, text.data(), text.size());
}

json step_json(const step_result& r) {
    return {{"status", to_string(r.status)}, {"error", r.error}};
}

// The worker's meetings of the ranks, made by its parent (above). The
// worker is alone on both pipes while a step runs: nothing else is sent on
// the command pipe until the step's reply.
class relayed_meeting final : public rank_meeting {
public:
    relayed_meeting(int commands, int replies) : commands_(commands), replies_(replies) {}
    unsigned meet(unsigned mine) override {
        const std::uint32_t notice = meet_notice | (mine & 0xFFu);
        unsigned char all = 0;
        if (!write_all(replies_, &notice, sizeof notice) || !read_all(commands_, &all, 1))
            ::_exit(0); // the parent is gone
        return all;
    }

private:
    int commands_, replies_;
};

// The worker: answers the parent's commands until finish, then exits.
[[noreturn]] void worker_main(const case_spec& spec, const case_environment& env, int commands, int replies) {
    // Not an MPI process: it meets the other ranks through its parent.
    relayed_meeting relay(commands, replies);
    case_environment own = env;
    if (own.ranks) own.ranks = &relay;
    local_case work(spec, own);
    // One write of 4 bytes on the pipe (atomic, far below PIPE_BUF); the
    // parent reads it while the worker goes on.
    work.listen([replies](run_phase p) {
        const std::uint32_t notice = phase_notice | static_cast<std::uint32_t>(p);
        write_all(replies, &notice, sizeof notice);
    });
    for (;;) {
        char command = 0;
        if (!read_all(commands, &command, 1)) ::_exit(0); // the parent is gone
        json reply;
        if (command == 'S' || command == 's') {
            case_setup setup;
            const step_result r = command == 'S' ? work.start(setup) : work.start_phased(setup);
            reply = step_json(r);
            reply["setup"] = {{"buffer_alignment", setup.buffer_alignment},
                              {"lossless_expected", setup.lossless_expected},
                              {"plugin_version", setup.plugin_version},
                              {"plugin_file", setup.plugin_file},
                              {"prepare_s", setup.prepare_s}};
        } else if (command == 'R') {
            repetition_report report;
            const step_result r = work.repetition(report);
            reply = step_json(r);
            reply["rep"] = to_json(report.rep);
            reply["verify"] = to_json(report.verify);
        } else if (command == 'W') {
            reply = step_json(work.rewarm());
        } else if (command == 'D' || command == 'w' || command == 'c' || command == 'r') {
            const phase_kind kind = command == 'D'   ? phase_kind::remove_previous
                                    : command == 'w' ? phase_kind::write
                                    : command == 'c' ? phase_kind::cache
                                                     : phase_kind::read;
            phase_report report;
            reply = step_json(work.phase(kind, report));
            // The sample travels as a repetition: write or read, residency.
            repetition rep;
            (kind == phase_kind::read ? rep.read : rep.write) = report.sample;
            rep.resident_fraction = report.resident_fraction;
            reply["rep"] = to_json(rep);
            reply["started"] = report.started;
            reply["verify"] = to_json(report.verify);
        } else if (command == 'F') {
            const case_facts f = work.facts();
            work.clean_up();
            reply = step_json({});
            reply["facts"] = {{"file_bytes", f.file_bytes}, {"peak_rss_bytes", f.peak_rss_bytes}};
            send_reply(replies, reply);
            ::_exit(0);
        } else {
            ::_exit(2);
        }
        send_reply(replies, reply);
    }
}

class forked_session final : public case_session {
public:
    forked_session(const case_spec& spec, const case_environment& env)
        : spec_(spec), env_(env),
          budget_(std::chrono::duration_cast<steady::duration>(
              std::chrono::duration<double>(spec.params.timeout > 0 ? spec.params.timeout : 1e9))) {}

    ~forked_session() override { kill_worker(); }

    step_result start(case_setup& setup) override { return start_with('S', setup); }
    step_result start_phased(case_setup& setup) { return start_with('s', setup); }

    step_result phase(phase_kind kind, phase_report& report) {
        const char command = kind == phase_kind::remove_previous ? 'D'
                             : kind == phase_kind::write         ? 'w'
                             : kind == phase_kind::cache         ? 'c'
                                                                 : 'r';
        json reply;
        meeting_open_ = kind == phase_kind::write ? write_meets_ : kind == phase_kind::read && read_meets_;
        step_result r = exchange(command, reply);
        if (!r.ok()) return r;
        const formatbench::repetition rep = repetition_from_json(reply.at("rep"));
        report.sample = kind == phase_kind::read ? rep.read : rep.write;
        report.resident_fraction = rep.resident_fraction;
        report.started = reply.at("started").get<double>();
        report.verify = verification_from_json(reply.at("verify"));
        return status_of(reply);
    }

private:
    step_result start_with(char command, case_setup& setup) {
        if (const plugin* p = env_.plugins->find(spec_.format.plugin)) {
            try {
                const rank_plan plan = plan_rank(spec_, env_.place, data_path(env_.directory, spec_, *p));
                path_ = plan.remove_path;
                write_meets_ = env_.ranks && phase_meets(spec_, plan, env_.in_memory_bytes, false);
                read_meets_ = env_.ranks && phase_meets(spec_, plan, env_.in_memory_bytes, true);
            } catch (const std::exception&) {
                path_.clear(); // the worker reports it
            }
        }
        if (step_result r = spawn(); !r.ok()) return r;
        json reply;
        step_result r = exchange(command, reply);
        if (!r.ok()) return r;
        const json& s = reply.at("setup");
        setup.buffer_alignment = s.at("buffer_alignment").get<std::size_t>();
        setup.lossless_expected = s.at("lossless_expected").get<bool>();
        setup.plugin_version = s.at("plugin_version").get<std::string>();
        setup.plugin_file = s.at("plugin_file").get<std::string>();
        setup.prepare_s = s.at("prepare_s").get<double>();
        return status_of(reply);
    }

public:
    step_result repetition(repetition_report& report) override {
        json reply;
        step_result r = exchange('R', reply);
        if (!r.ok()) return r;
        report.rep = repetition_from_json(reply.at("rep"));
        report.verify = verification_from_json(reply.at("verify"));
        return status_of(reply);
    }

    step_result rewarm() override {
        json reply;
        step_result r = exchange('W', reply);
        if (!r.ok()) return r;
        return status_of(reply);
    }

    step_result finish(case_facts& facts) override {
        step_result r;
        if (alive_) {
            json reply;
            r = exchange('F', reply);
            if (r.ok()) {
                const json& f = reply.at("facts");
                facts.file_bytes = f.at("file_bytes").get<std::uint64_t>();
                facts.peak_rss_bytes = f.at("peak_rss_bytes").get<std::int64_t>();
            }
        }
        kill_worker();
        // A worker that died took its clean-up with it.
        if (!env_.keep_files && !path_.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(path_, ec);
        }
        return r;
    }

    std::string output() override {
        if (output_fd_ < 0) return captured_;
        std::string text(max_output_bytes, '\0');
        ssize_t n = ::pread(output_fd_, text.data(), text.size(), 0);
        text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
        captured_ = text;
        return captured_;
    }

private:
    step_result spawn() {
        int commands[2], replies[2];
        if (::pipe2(commands, O_CLOEXEC) != 0)
            return {case_status::failed, fmt::format("cannot create a pipe: {}", std::strerror(errno))};
        if (::pipe2(replies, O_CLOEXEC) != 0) {
            ::close(commands[0]);
            ::close(commands[1]);
            return {case_status::failed, fmt::format("cannot create a pipe: {}", std::strerror(errno))};
        }
        output_fd_ = ::memfd_create("formatbench-case-output", MFD_CLOEXEC);
        std::fflush(stdout);
        std::fflush(stderr);
        const pid_t parent = ::getpid();
        pid_ = ::fork();
        if (pid_ < 0) {
            for (int fd : {commands[0], commands[1], replies[0], replies[1]})
                ::close(fd);
            return {case_status::failed, fmt::format("cannot fork: {}", std::strerror(errno))};
        }
        if (pid_ == 0) {
            ::setpgid(0, 0);
            // The runner handles Ctrl-C and ends its workers; a runner killed
            // outright (SIGKILL, the OOM killer) takes its workers with it, so
            // no orphan writes a file that a --resume run is writing.
            for (int sig : {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGHUP})
                ::signal(sig, SIG_DFL);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(1);
            if (output_fd_ >= 0) {
                ::dup2(output_fd_, STDOUT_FILENO);
                ::dup2(output_fd_, STDERR_FILENO);
            }
            // Nothing else of the runner's stays open in the worker: not the
            // log (its lock would outlive a killed runner), not the pipes of
            // other cases' workers.
            const int keep_low = std::min(commands[0], replies[1]),
                      keep_high = std::max(commands[0], replies[1]);
            ::close_range(3, static_cast<unsigned>(keep_low) - 1, 0);
            if (keep_high > keep_low + 1)
                ::close_range(static_cast<unsigned>(keep_low) + 1, static_cast<unsigned>(keep_high) - 1, 0);
            ::close_range(static_cast<unsigned>(keep_high) + 1, ~0u, 0);
            reset_peak_rss();
            worker_main(spec_, env_, commands[0], replies[1]);
        }
        ::setpgid(pid_, pid_); // also here, so a kill of the group cannot race the child's own call
        ::close(commands[0]);
        ::close(replies[1]);
        commands_ = commands[1];
        replies_ = replies[0];
        alive_ = true;
        return {};
    }

    // Sends a command and waits for its reply within the case's budget.
    step_result exchange(char command, json& reply) {
        if (!alive_) {
            leave_meetings();
            return {case_status::failed, "the case's process is not running"};
        }
        const auto started = steady::now();
        if (!write_all(commands_, &command, 1)) return died();
        std::uint32_t size = 0;
        std::string text;
        // Moved on by the time spent waiting for the other ranks at the
        // worker's meetings: not this case's own time, and a rank whose
        // worker hangs is ended by its own rank's timeout.
        auto deadline = started + budget_;
        steady::duration met{0};
        bool header = false;
        std::size_t got = 0;
        char buf[65536];
        for (;;) {
            if (env_.stop_requested()) {
                kill_worker();
                spend(started, met);
                return {case_status::skipped, "interrupted"};
            }
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady::now()).count();
            if (left <= 0) {
                kill_worker();
                spend(started, met);
                return {case_status::timeout,
                        fmt::format("case did not finish within its timeout of {:g} s; killed",
                                    spec_.params.timeout)};
            }
            struct pollfd p {
                replies_, POLLIN, 0
            };
            // Wake at least every 100 ms to notice an interrupt.
            int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
            if (rc < 0 && errno != EINTR) return died();
            if (rc <= 0) continue;
            if (!header) {
                ssize_t n = ::read(replies_, reinterpret_cast<char*>(&size) + got, sizeof size - got);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) return died();
                got += static_cast<std::size_t>(n);
                if (got < sizeof size) continue;
                if ((size & phase_notice_mask) == phase_notice) {
                    const std::uint32_t p = size & ~phase_notice_mask;
                    if (p < static_cast<std::uint32_t>(run_phase_count)) announce(static_cast<run_phase>(p));
                    got = 0;
                    continue;
                }
                if ((size & phase_notice_mask) == meet_notice) {
                    const unsigned mine = size & 0xFFu;
                    const auto meeting = steady::now();
                    const unsigned all = env_.ranks ? env_.ranks->meet(mine) : mine;
                    const auto waited = steady::now() - meeting;
                    met += waited;
                    deadline += waited;
                    meeting_open_ = (all & rank_meeting::more) && !(all & rank_meeting::failed);
                    const auto answer = static_cast<unsigned char>(all);
                    if (!write_all(commands_, &answer, 1)) return died();
                    got = 0;
                    continue;
                }
                if (size > max_reply_bytes) {
                    kill_worker();
                    return {case_status::failed, "the case's process sent an oversized reply"};
                }
                header = true;
                text.reserve(size);
                if (size == 0) break;
                continue;
            }
            ssize_t n = ::read(replies_, buf, std::min<std::size_t>(sizeof buf, size - text.size()));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return died();
            text.append(buf, static_cast<std::size_t>(n));
            if (text.size() == size) break;
        }
        spend(started, met);
        meeting_open_ = false; // a step that replied has made its meetings
        try {
            reply = json::parse(text);
        } catch (const std::exception& e) {
            kill_worker();
            return {case_status::failed,
                    fmt::format("the case's process sent a result that cannot be read: {}", e.what())};
        }
        return {};
    }

    // The case's own time since `started`: what it did not spend at meetings.
    void spend(steady::time_point started, steady::duration met) { budget_ -= steady::now() - started - met; }

    static step_result status_of(const json& reply) {
        const std::string status = reply.at("status").get<std::string>();
        step_result r;
        r.error = reply.at("error").get<std::string>();
        for (case_status s : {case_status::ok, case_status::failed, case_status::crashed,
                              case_status::timeout, case_status::skipped})
            if (status == to_string(s)) r.status = s;
        return r;
    }

    // The worker ended without replying: how it ended.
    step_result died() {
        int status = 0;
        const pid_t pid = pid_;
        kill_worker(&status);
        if (pid > 0 && WIFSIGNALED(status)) {
            const int sig = WTERMSIG(status);
            return {case_status::crashed,
                    fmt::format("plugin process killed by signal {} ({})", sig, ::strsignal(sig))};
        }
        return {
            case_status::failed,
            fmt::format("the case's process exited with status {} before reporting a result (did the plugin "
                        "call exit()?)",
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1)};
    }

    // Ends the worker's process group and reaps the worker; its exit status
    // goes to *status when asked. A worker that already exited is reaped as
    // it is (its own status, not the kill's).
    void kill_worker(int* status = nullptr) {
        if (commands_ >= 0) ::close(commands_);
        if (replies_ >= 0) ::close(replies_);
        commands_ = replies_ = -1;
        if (pid_ > 0) {
            // The group: the worker and anything it started. Killed before
            // the worker is reaped, so its id cannot have been reused; a
            // worker that already exited keeps its own status.
            ::kill(-pid_, SIGKILL);
            int st = 0;
            while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
            }
            if (status) *status = st;
        }
        pid_ = -1;
        alive_ = false;
        if (output_fd_ >= 0) {
            output();
            ::close(output_fd_);
            output_fd_ = -1;
        }
        leave_meetings();
    }

    // The other ranks meet once more in this phase when its meetings are not
    // over: the meeting the worker will not make, saying it failed, so that
    // they all stop there.
    void leave_meetings() {
        if (!meeting_open_) return;
        meeting_open_ = false;
        if (env_.ranks) env_.ranks->meet(rank_meeting::failed);
    }

    case_spec spec_;
    const case_environment& env_;
    steady::duration budget_;
    std::string path_;
    pid_t pid_ = -1;
    int commands_ = -1, replies_ = -1, output_fd_ = -1;
    bool alive_ = false;
    // The case's streamed write and read phases meet the other ranks
    // (phase_meets), and whether the running phase's meetings are not over.
    bool write_meets_ = false, read_meets_ = false, meeting_open_ = false;
    std::string captured_;
};

class forked_phased final : public phased_session {
public:
    forked_phased(const case_spec& spec, const case_environment& env) : session_(spec, env) {}
    step_result start(case_setup& setup) override { return session_.start_phased(setup); }
    step_result phase(phase_kind kind, phase_report& report) override { return session_.phase(kind, report); }
    step_result finish(case_facts& facts) override { return session_.finish(facts); }
    std::string output() override { return session_.output(); }

private:
    forked_session session_;
};

class forked_executor final : public executor {
public:
    explicit forked_executor(case_environment env) : env_(std::move(env)) {}
    std::unique_ptr<case_session> open(const case_spec& c) override {
        return std::make_unique<forked_session>(c, env_);
    }

private:
    case_environment env_;
};

} // namespace

std::unique_ptr<executor> make_forked_executor(case_environment env) {
    return std::make_unique<forked_executor>(std::move(env));
}

std::unique_ptr<phased_session> open_phased_forked(const case_spec& c, const case_environment& env) {
    return std::make_unique<forked_phased>(c, env);
}

} // namespace formatbench

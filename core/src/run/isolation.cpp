// fork + pipe + poll based isolation of one case.
#include "run/isolation.hpp"

#include "run/case_executor.hpp"
#include "results/json.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace formatbench {
namespace {

case_result bare_result(const case_spec& spec, case_status status, std::string error) {
    case_result r;
    r.spec = spec;
    r.status = status;
    r.error = std::move(error);
    return r;
}

void write_all(int fd, const std::string& text) {
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

} // namespace

case_result run_isolated(const case_spec& spec, double timeout_s, const std::function<case_result()>& work,
                         const std::function<bool()>& interrupted) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return bare_result(spec, case_status::failed,
                           fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return bare_result(spec, case_status::failed, fmt::format("cannot fork: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        ::close(fds[0]);
        // The parent handles Ctrl-C; the child just dies with the process group.
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        // A runner killed outright (SIGKILL, OOM killer) takes its case with
        // it: an orphan would go on writing the case's data file while a
        // --resume run writes the same path (seen as a failed case in the
        // resume test). The getppid check covers a parent that died before
        // the prctl.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
        reset_peak_rss();
        std::string text;
        try {
            text = to_json(work()).dump();
        } catch (const std::exception& e) {
            text = to_json(bare_result(spec, case_status::failed, e.what())).dump();
        }
        write_all(fds[1], text);
        ::close(fds[1]);
        // No exit handlers or static destructors of the parent's state.
        ::_exit(0);
    }
    ::close(fds[1]);

    using clock = std::chrono::steady_clock;
    auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                       std::chrono::duration<double>(timeout_s > 0 ? timeout_s : 1e9));
    std::string text;
    bool timed_out = false, stopped = false;
    char buf[65536];
    for (;;) {
        if (interrupted && interrupted()) {
            stopped = true;
            break;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd p {
            fds[0], POLLIN, 0
        };
        // Wake at least every 100 ms to notice an interrupt.
        int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0) continue;
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // EOF: the child is done (or dead)
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (timed_out || stopped) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timed_out)
        return bare_result(
            spec, case_status::timeout,
            fmt::format("case did not finish within its timeout of {:g} s; killed", timeout_s));
    if (stopped) return bare_result(spec, case_status::skipped, "interrupted");
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        return bare_result(spec, case_status::crashed,
                           fmt::format("plugin process killed by signal {} ({})", sig, ::strsignal(sig)));
    }
    if (WIFEXITED(status) && !text.empty()) {
        try {
            return case_result_from_json(nlohmann::json::parse(text));
        } catch (const std::exception& e) {
            return bare_result(
                spec, case_status::failed,
                fmt::format("the case's process sent a result that cannot be read: {}", e.what()));
        }
    }
    return bare_result(
        spec, case_status::failed,
        fmt::format("the case's process exited with status {} before reporting a result (did the "
                    "plugin call exit()?)",
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1));
}

} // namespace formatbench

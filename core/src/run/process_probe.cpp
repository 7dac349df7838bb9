// Reading /proc for a phase's accounting (process_probe.hpp). Kept cheap:
// the files stay open and are re-read with pread from offset 0 (the kernel
// regenerates them), the thread list is read only when the process has more
// than one thread (/proc/self/stat's num_threads).
#include "run/process_probe.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace formatbench {
namespace {

struct proc_files {
    pid_t pid = -1;
    int io = -1, stat = -1, self_stat = -1, schedstat = -1;

    void open_all() {
        for (int* fd : {&io, &stat, &self_stat, &schedstat})
            if (*fd >= 0) ::close(*fd);
        io = ::open("/proc/self/io", O_RDONLY | O_CLOEXEC);
        stat = ::open("/proc/stat", O_RDONLY | O_CLOEXEC);
        self_stat = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
        schedstat = ::open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);
        pid = ::getpid();
    }
};

proc_files& files() {
    static proc_files f;
    if (f.pid != ::getpid()) f.open_all(); // first use, or a forked child
    return f;
}

// Reads a whole small /proc file into buf (NUL-terminated); its length, or
// -1.
long read_all(int fd, char* buf, std::size_t size) {
    if (fd < 0) return -1;
    const ssize_t n = ::pread(fd, buf, size - 1, 0);
    if (n < 0) return -1;
    buf[n] = '\0';
    return n;
}

std::uint64_t number_after(std::string_view text, std::string_view key) {
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) return 0;
    const char* p = text.data() + at + key.size();
    const char* end = text.data() + text.size();
    while (p < end && *p == ' ')
        ++p;
    std::uint64_t v = 0;
    std::from_chars(p, end, v);
    return v;
}

// The n-th (0-based) space-separated field of a line.
std::uint64_t field(std::string_view line, int n) {
    std::size_t pos = 0;
    for (int i = 0; i < n; ++i) {
        pos = line.find(' ', pos);
        if (pos == std::string_view::npos) return 0;
        while (pos < line.size() && line[pos] == ' ')
            ++pos;
    }
    std::uint64_t v = 0;
    std::from_chars(line.data() + pos, line.data() + line.size(), v);
    return v;
}

std::uint64_t schedstat_wait(const char* text) {
    return field(text, 1); // "cpu_time run_delay timeslices"
}

} // namespace

process_probe process_probe::read() noexcept {
    process_probe p;
    proc_files& f = files();
    char buf[8192];
    // /proc/self/stat: field 20 (1-based) is num_threads; the command name
    // (field 2) may hold spaces, so count from its closing parenthesis.
    if (read_all(f.self_stat, buf, sizeof buf) < 0) return p;
    const char* close = std::strrchr(buf, ')');
    if (!close) return p;
    p.threads = static_cast<unsigned>(field(close + 2, 17)); // fields from 3 on: num_threads is the 18th
    if (p.threads <= 1) {
        if (read_all(f.schedstat, buf, sizeof buf) < 0) return p;
        p.wait_ns = schedstat_wait(buf);
        p.per_thread[0] = {static_cast<long>(f.pid), p.wait_ns};
        p.per_thread_count = 1;
    } else if (DIR* d = ::opendir("/proc/self/task")) {
        while (const dirent* e = ::readdir(d)) {
            if (e->d_name[0] == '.') continue;
            char path[300];
            std::snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
            const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue; // the thread ended meanwhile
            if (read_all(fd, buf, sizeof buf) > 0) {
                const std::uint64_t w = schedstat_wait(buf);
                p.wait_ns += w;
                if (p.per_thread_count < max_threads)
                    p.per_thread[p.per_thread_count++] = {std::strtol(e->d_name, nullptr, 10), w};
            }
            ::close(fd);
        }
        ::closedir(d);
    }
    if (read_all(f.io, buf, sizeof buf) < 0) return p;
    const std::string_view io(buf);
    p.rchar = number_after(io, "rchar:");
    p.wchar = number_after(io, "wchar:");
    p.syscr = number_after(io, "syscr:");
    p.syscw = number_after(io, "syscw:");
    p.read_bytes = number_after(io, "\nread_bytes:");
    p.write_bytes = number_after(io, "\nwrite_bytes:");
    if (read_all(f.stat, buf, sizeof buf) < 0) return p;
    const std::string_view st(buf);
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"
    p.steal_ticks = field(st.substr(0, st.find('\n')), 8);
    p.runnable = static_cast<unsigned>(number_after(st, "procs_running"));
    p.ok = true;
    return p;
}

std::uint64_t largest_thread_wait_ns(const process_probe& from, const process_probe& to) noexcept {
    std::uint64_t largest = 0;
    for (std::size_t i = 0; i < to.per_thread_count; ++i)
        for (std::size_t j = 0; j < from.per_thread_count; ++j)
            if (from.per_thread[j].tid == to.per_thread[i].tid &&
                to.per_thread[i].wait_ns > from.per_thread[j].wait_ns)
                largest = std::max(largest, to.per_thread[i].wait_ns - from.per_thread[j].wait_ns);
    return largest;
}

double steal_tick_seconds() noexcept {
    static const double s = [] {
        const long hz = ::sysconf(_SC_CLK_TCK);
        const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
        return 1.0 / static_cast<double>(hz > 0 ? hz : 100) / static_cast<double>(cpus > 0 ? cpus : 1);
    }();
    return s;
}

double steal_seconds(std::uint64_t earlier_ticks, std::uint64_t later_ticks) noexcept {
    static const std::uint64_t quantum = [] {
        const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
        return static_cast<std::uint64_t>(cpus > 0 ? cpus : 1);
    }();
    if (later_ticks <= earlier_ticks + quantum) return 0;
    return static_cast<double>(later_ticks - earlier_ticks - quantum) * steal_tick_seconds();
}

unsigned allowed_cpus() noexcept {
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return static_cast<unsigned>(CPU_COUNT(&set));
}

} // namespace formatbench

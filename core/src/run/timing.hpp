// The clocks of a timed phase: wall time from steady_clock (ns resolution),
// CPU time (user + sys, all threads of the process) from getrusage, and
// around them what the process and the machine did (process_probe.hpp):
// the phase's accounting (result.hpp phase_accounting).
#pragma once

#include "results/result.hpp"
#include "run/process_probe.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>

namespace formatbench {

struct clock_reading {
    std::chrono::steady_clock::time_point wall;
    struct rusage usage;
    process_probe probe;

    // The wall clock is read innermost, so the getrusage calls and /proc
    // reads fall outside it.
    static clock_reading start() noexcept {
        clock_reading r;
        r.probe = process_probe::read();
        ::getrusage(RUSAGE_SELF, &r.usage);
        r.wall = std::chrono::steady_clock::now();
        return r;
    }
    static clock_reading stop() noexcept {
        clock_reading r;
        r.wall = std::chrono::steady_clock::now();
        ::getrusage(RUSAGE_SELF, &r.usage);
        r.probe = process_probe::read();
        return r;
    }
};

inline double seconds(const struct timeval& tv) noexcept {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

// Adds the interval [from, to] to `into`: its wall and CPU time and its
// accounting (measured only when both probes read /proc).
inline void accumulate(phase_sample& into, const clock_reading& from, const clock_reading& to) noexcept {
    into.wall_s += std::chrono::duration<double>(to.wall - from.wall).count();
    into.user_s += seconds(to.usage.ru_utime) - seconds(from.usage.ru_utime);
    into.sys_s += seconds(to.usage.ru_stime) - seconds(from.usage.ru_stime);
    phase_accounting& a = into.accounting;
    auto diff = [](auto later, auto earlier) {
        return later >= earlier ? static_cast<std::uint64_t>(later - earlier) : std::uint64_t{0};
    };
    a.voluntary_switches += diff(to.usage.ru_nvcsw, from.usage.ru_nvcsw);
    a.involuntary_switches += diff(to.usage.ru_nivcsw, from.usage.ru_nivcsw);
    a.minor_faults += diff(to.usage.ru_minflt, from.usage.ru_minflt);
    a.major_faults += diff(to.usage.ru_majflt, from.usage.ru_majflt);
    if (!from.probe.ok || !to.probe.ok) return;
    const process_probe &p = from.probe, &q = to.probe;
    a.measured = true;
    a.wait_s += static_cast<double>(diff(q.wait_ns, p.wait_ns)) * 1e-9;
    a.thread_wait_s += static_cast<double>(largest_thread_wait_ns(p, q)) * 1e-9;
    a.steal_s += steal_seconds(p.steal_ticks, q.steal_ticks);
    a.runnable = std::max({a.runnable, p.runnable, q.runnable});
    a.threads = std::max({a.threads, p.threads, q.threads});
    if (a.cpus == 0) a.cpus = allowed_cpus();
    a.syscr += diff(q.syscr, p.syscr);
    a.syscw += diff(q.syscw, p.syscw);
    a.rchar += diff(q.rchar, p.rchar);
    a.wchar += diff(q.wchar, p.wchar);
    a.read_bytes += diff(q.read_bytes, p.read_bytes);
    a.write_bytes += diff(q.write_bytes, p.write_bytes);
}

} // namespace formatbench

// The clocks of a timed phase: wall time from steady_clock (ns resolution)
// and CPU time (user + sys, all threads of the process) from getrusage.
#pragma once

#include "results/result.hpp"

#include <sys/resource.h>

#include <chrono>

namespace formatbench {

struct clock_reading {
    std::chrono::steady_clock::time_point wall;
    struct rusage usage;

    // The wall clock is read innermost, so the getrusage calls fall outside it.
    static clock_reading start() noexcept {
        clock_reading r;
        ::getrusage(RUSAGE_SELF, &r.usage);
        r.wall = std::chrono::steady_clock::now();
        return r;
    }
    static clock_reading stop() noexcept {
        clock_reading r;
        r.wall = std::chrono::steady_clock::now();
        ::getrusage(RUSAGE_SELF, &r.usage);
        return r;
    }
};

inline double seconds(const struct timeval& tv) noexcept {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

// Adds the interval [from, to] to `into`.
inline void accumulate(phase_sample& into, const clock_reading& from, const clock_reading& to) noexcept {
    into.wall_s += std::chrono::duration<double>(to.wall - from.wall).count();
    into.user_s += seconds(to.usage.ru_utime) - seconds(from.usage.ru_utime);
    into.sys_s += seconds(to.usage.ru_stime) - seconds(from.usage.ru_stime);
}

} // namespace formatbench

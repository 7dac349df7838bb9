// What the kernel says about this process and the machine at one instant,
// read just outside a timed interval's clock readings (timing.hpp), so that
// a phase knows what happened around it: its threads' time waiting for a
// CPU, the machine's steal time and runnable tasks, the process's I/O
// counters (docs/methodology.md, "Disturbed samples"). Linux /proc only;
// elsewhere, or when a file cannot be read, `ok` is false and the phase's
// accounting stays unmeasured.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace formatbench {

struct process_probe {
    bool ok = false;
    std::uint64_t wait_ns = 0; // run_delay summed over the process's threads
    // Each thread's run_delay, by thread id (the first max_threads of them).
    static constexpr std::size_t max_threads = 32;
    struct thread_wait {
        long tid = 0;
        std::uint64_t wait_ns = 0;
    };
    std::array<thread_wait, max_threads> per_thread{};
    std::size_t per_thread_count = 0;
    std::uint64_t steal_ticks = 0; // /proc/stat "cpu" line, all CPUs (USER_HZ ticks)
    unsigned runnable = 0;         // procs_running
    unsigned threads = 0;
    std::uint64_t syscr = 0, syscw = 0, rchar = 0, wchar = 0, read_bytes = 0, write_bytes = 0;

    // Reads them all; never throws. Opens its files once per process (a
    // forked worker opens its own) and re-reads them with pread.
    static process_probe read() noexcept;
};

// The largest increase of one thread's wait from `from` to `to` (threads
// present in both): what the phase lost at least, when its threads waited
// at the same time.
std::uint64_t largest_thread_wait_ns(const process_probe& from, const process_probe& to) noexcept;

// Seconds per steal tick per CPU online: 1 / (USER_HZ x CPUs online).
double steal_tick_seconds() noexcept;
// The steal counted in an interval from two readings of /proc/stat, in
// seconds per CPU. The kernel counts whole ticks per CPU, so a difference
// of two readings may be up to one tick per CPU online more than what was
// stolen in between (a 1 ms phase that a tick boundary fell in shows 10 ms
// of steal): that much is taken off, and only steal beyond it counts.
double steal_seconds(std::uint64_t earlier_ticks, std::uint64_t later_ticks) noexcept;
// CPUs this process may run on.
unsigned allowed_cpus() noexcept;

} // namespace formatbench

// Runs the repetitions of one case in this process: per repetition
// remove old output -> WRITE phase (timed) -> cache step -> READ phase (timed)
// -> verify (untimed). Knows nothing of processes, logs or reports.
#pragma once

#include "run/data_source.hpp"
#include "host/plugin_handle.hpp"
#include "results/result.hpp"

#include <cstdint>
#include <string>

namespace formatbench {

struct execution_limits {
    // Data sets up to this many bytes are generated once and written from
    // memory, so the write phase is one contiguous interval; larger ones are
    // streamed chunk by chunk and only the plugin calls are summed.
    std::uint64_t in_memory_bytes = 0;
    unsigned warmups = 0;
    // Recorded repetitions: run until both `repeat` and `min_time` are met,
    // never more than max_repetitions.
    unsigned repeat = 1;
    double min_time = 0;
    unsigned max_repetitions = 100000;
};

// Never throws for a case-level problem: failures are returned as a result
// with status failed and the reason (samples measured so far are kept).
case_result execute_case(const case_spec& spec, const plugin& plug, const data_source& source,
                         const std::string& path, const execution_limits& limits);

// Loads one byte of every page of [p, p + n): what read: view times beyond
// the view itself, so that the data is resident and mapped when the clock
// stops (a mapping's page faults would otherwise fall into the untimed
// verification). The bytes go to a volatile, so the loads are not
// optimised away.
void touch_pages(const unsigned char* p, std::uint64_t n);

// Default for execution_limits::in_memory_bytes: a quarter of physical memory
// (the write and the read buffer both hold the whole payload).
std::uint64_t default_in_memory_bytes();

// Peak resident set size of this process in bytes (VmHWM), and its reset.
std::int64_t peak_rss_bytes();
void reset_peak_rss();

} // namespace formatbench

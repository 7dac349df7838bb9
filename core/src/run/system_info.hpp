// The machine a run happened on, for the results record: host, OS, kernel,
// CPU, cores, memory, the data directory's file system, build facts.
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <string>

namespace formatbench {

// Fills everything but the plugin list.
run_context collect_context(const std::string& data_directory);

// The 1-minute load average (/proc/loadavg); -1 when it cannot be read.
double load_average();

// The file system type of a path ("ext4", "tmpfs", "overlay", ... or "0x..." ).
std::string filesystem_type(const std::string& path);

// Current time as ISO 8601 UTC, e.g. "2026-11-30T23:59:59Z".
std::string iso8601_now();

// The memory this process may use: physical memory, or less when a cgroup
// (a container, a Slurm job) sets a lower limit (memory.max of cgroup v2,
// memory.limit_in_bytes of v1).
std::uint64_t usable_memory_bytes();

// Default in-memory limit of a case's data: a quarter of usable memory (the
// write and the read buffer both hold the whole payload).
std::uint64_t default_in_memory_bytes();

// Peak resident set size of this process in bytes (VmHWM; -1 when unknown),
// and its reset.
std::int64_t peak_rss_bytes();
void reset_peak_rss();

} // namespace formatbench

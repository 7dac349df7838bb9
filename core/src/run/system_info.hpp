// The machine a run happened on, for the results record: host, OS, kernel,
// CPU, cores, memory, the data directory's file system, build facts.
#pragma once

#include "results/result.hpp"

#include <string>

namespace formatbench {

// Fills everything but the plugin list.
run_context collect_context(const std::string& data_directory);

// The file system type of a path ("ext4", "tmpfs", "overlay", ... or "0x..." ).
std::string filesystem_type(const std::string& path);

// Current time as ISO 8601 UTC, e.g. "2026-11-30T23:59:59Z".
std::string iso8601_now();

} // namespace formatbench

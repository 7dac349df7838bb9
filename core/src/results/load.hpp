// Reading results back: a JSON record (`run --json`) or a JSON Lines log
// (`run --log`, docs/results.md "The log"), for compare, report and
// --resume, which accepts either. Reads are bounded (a device or an endless
// file is an error) and every error names the file.
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// The largest record or log read back.
inline constexpr std::uint64_t max_results_bytes = std::uint64_t{1} << 30;

// The first line of a log: it ties the log to its study.
inline constexpr const char* log_header_key = "formatbench_log";
inline constexpr int log_format_version = 1;

// A JSON record; usage_error naming the file when it cannot be read or is not one.
study_result load_results_file(const std::string& path);

// Finished cases from a log or a record.
struct results_source {
    std::string path;
    bool is_log = false;
    std::optional<study> spec; // the study it was made by (a log's header; a record's study)
    std::vector<case_result> cases;
    bool cut_last_line = false; // a log whose last line was cut short (a kill during a write)
};
results_source load_results_source(const std::string& path);
// The same from text; `path` names it in messages.
results_source parse_results_source(const std::string& text, const std::string& path);

} // namespace formatbench

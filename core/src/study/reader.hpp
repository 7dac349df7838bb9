// Reads a study file (YAML, via yaml-cpp) into a typed, expanded `study`.
// Every mistake is a config_error naming file:line:column, the key and what
// was expected; unknown keys get a "did you mean".
#pragma once

#include "base/error.hpp"
#include "study/study.hpp"

#include <string>
#include <vector>

namespace formatbench {

// A usage_error whose text starts with "FILE:LINE:COLUMN: ".
class config_error : public usage_error {
public:
    using usage_error::usage_error;
};

// The largest study file read (a device or an endless file is an error).
inline constexpr std::uint64_t max_study_bytes = 16u << 20;

// `sets` are "--set key=value" overrides ("repeat=10", "datasets.0.count=1e7"),
// applied to the YAML tree before it is read.
study load_study_file(const std::string& path, const std::vector<std::string>& sets = {});
// Same, from text; `source` names it in messages (e.g. "<builtin:stream-io>").
study load_study_text(const std::string& text, const std::string& source,
                      const std::vector<std::string>& sets = {});

// Sets a study-wide setting of the field table (directory, keep_files, ...)
// after reading, as a command-line flag does, and records it in the
// resolved study so the record describes what ran. Throws usage_error
// naming `flag` for a bad value.
void set_study_setting(study& s, const std::string& key, const std::string& value, const std::string& flag);

// Parses "1000000", "1e6", "10**6", "1_000_000" into a count; nullopt if invalid.
std::optional<std::uint64_t> parse_count(std::string_view text);
// Parses a byte size in the SDK's grammar (fb_parse_size: "4096", "64KiB",
// "1MB" = 10^6, "1MiB" = 2^20) or "whole" (0).
std::optional<std::uint64_t> parse_bytes(std::string_view text);

} // namespace formatbench

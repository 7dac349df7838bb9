// The keys a study file may contain, in one place, so that the reader
// (config.cpp) and the --set path check (config_set.cpp) agree and both can
// suggest the closest valid key.
#pragma once

#include <string>
#include <vector>

namespace formatbench::detail {

inline const std::vector<std::string> top_keys = {
    "name",       "description", "defaults",   "datasets",  "formats", "directory",
    "keep_files", "baseline",    "interleave", "isolation", "outputs", "plugin_path",
};

// Run parameters: under `defaults` and in any format. Their order is the
// order in which swept run parameters multiply (first = outermost).
inline const std::vector<std::string> run_param_keys = {
    "chunk", "cache", "sync", "read", "repeat", "warmup", "min_time", "timeout", "align_offset",
};

inline const std::vector<std::string> dataset_keys = {
    "name", "dtype", "count", "distribution", "seed", "value", "mean", "stddev", "low", "high", "from_file",
};

inline const std::vector<std::string> from_file_keys = {"path", "plugin", "options"};

// Format keys are these plus run_param_keys.
inline const std::vector<std::string> format_own_keys = {"plugin", "label", "options"};

inline const std::vector<std::string> output_keys = {"format", "path"};

inline std::vector<std::string> format_keys() {
    std::vector<std::string> keys = format_own_keys;
    keys.insert(keys.end(), run_param_keys.begin(), run_param_keys.end());
    return keys;
}

} // namespace formatbench::detail

// The keys a study file may contain, per section, so that the reader
// (reader.cpp) and the --set path check (set.cpp) agree and both can suggest
// the closest valid key. Keys of the field tables (fields.hpp) come from
// there; the others are read by hand.
#pragma once

#include "study/fields.hpp"

#include <string>
#include <vector>

namespace formatbench::detail {

// `interleave: true` is the older spelling of `schedule: interleave`.
inline std::vector<std::string> top_keys() {
    std::vector<std::string> keys = {"name",        "description", "defaults",  "datasets",
                                     "formats",     "baseline",    "published", "outputs",
                                     "plugin_path", "interleave",  "workload",  "pairs"};
    for (const auto& k : field_keys(study_fields()))
        keys.push_back(k);
    return keys;
}

// Run parameters: under `defaults` and in any format.
inline std::vector<std::string> run_param_keys() {
    return field_keys(run_fields());
}

inline std::vector<std::string> dataset_keys() {
    std::vector<std::string> keys = {"name"};
    for (const auto& k : field_keys(dataset_fields()))
        keys.push_back(k);
    keys.push_back("from_file");
    keys.push_back("shape");
    return keys;
}

inline const std::vector<std::string> from_file_keys = {"path", "plugin", "options"};

// Format keys are these plus the run parameters.
inline const std::vector<std::string> format_own_keys = {"plugin", "label", "options", "optional",
                                                         "tolerance"};

inline const std::vector<std::string> tolerance_keys = {"abs", "rel"};

inline const std::vector<std::string> output_keys = {"format", "path"};

inline const std::vector<std::string> published_keys = {"format", "against", "write", "read", "source"};
inline const std::vector<std::string> pair_keys = {"format", "against"};

inline const std::vector<std::string> workload_keys = {"write", "reads"};

// A phase of the workload: its weight and the work keys of its side
// (study/work.hpp): a write names only write-side keys.
inline std::vector<std::string> workload_phase_keys(bool write) {
    std::vector<std::string> keys = {"weight"};
    for (const auto& f : run_fields())
        if ((f.identity & (identity_always | identity_when_set)) && (!write || !f.read_side))
            keys.push_back(f.key);
    return keys;
}

inline std::vector<std::string> format_keys() {
    std::vector<std::string> keys = format_own_keys;
    for (const auto& k : run_param_keys())
        keys.push_back(k);
    return keys;
}

} // namespace formatbench::detail

// `--set KEY=VALUE` overrides: checks KEY against the study schema (with a
// "did you mean"), parses VALUE as YAML and puts it into the study's tree
// before the tree is read.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace formatbench::detail {

// Where an override landed, so that a bad value is reported at the position
// it replaced in the file (or its parent's, for a new key), with the --set
// text beside it.
struct set_override {
    std::string path; // canonical, as in messages: "datasets[0].count", "defaults.repeat"
    YAML::Mark mark;  // 0-based, of the replaced node or of the parent map
    std::string text; // the --set argument as given
};

// Applies `sets` to `root` in order (a later --set wins). `source` names the
// study file in messages. Throws config_error. Top-level run parameters
// ("repeat=10") are shorthand for defaults.<key>.
std::vector<set_override> apply_sets(YAML::Node& root, const std::vector<std::string>& sets,
                                     const std::string& source);

} // namespace formatbench::detail

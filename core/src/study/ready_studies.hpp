// The STUDY argument of `run` and `plan`: a study file, or the name of a
// ready study installed with formatbench (`formatbench run scaling` reads
// <datadir>/formatbench/configs/scaling.yaml; docs/cli.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace formatbench {

// The names of the ready studies in `dir` (each NAME.yaml there), sorted;
// empty when the folder does not exist.
std::vector<std::string> ready_study_names(const std::filesystem::path& dir);

// The file to read for a STUDY argument, in this order:
//  - an argument with a '/' or ending in .yaml or .yml is always a path;
//  - a file (not a folder) of that name in the working directory;
//  - NAME.yaml in `dir`.
// Throws usage_error when it is none of these, listing the ready studies
// (with a "did you mean") and the folder they were looked for in.
std::string resolve_study_argument(const std::string& arg, const std::filesystem::path& dir);

} // namespace formatbench

// Checks of a read study against the world, before anything runs (`plan`
// and `run` make them alike): every format's plugin exists, supports the
// dataset's dtype and accepts its options; every from_file input and the
// data folder can be used. Each error is a usage_error naming the study
// position, the key and what to do.
#pragma once

#include "host/registry.hpp"
#include "study/study.hpp"

namespace formatbench {

void check_study_plugins(const study& s, const registry& reg);

// from_file inputs: exist, are regular files and readable. The data folder
// (`directory`, when given): exists, is a folder, can be written. A missing
// folder is not created: a typo would otherwise scatter data files.
void check_study_paths(const study& s);

} // namespace formatbench

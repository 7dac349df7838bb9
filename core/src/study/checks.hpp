// Checks of a read study against the world, before anything runs (`plan`
// and `run` make them alike): every format's plugin exists, supports the
// dataset's dtype and accepts its options (against their declarations, and
// the plugin's own formatbench.check-options/1 for each dtype when it has
// it, and formatbench.check-case/1 for each case it meets); every from_file input and the data folder can be used. Each error is a usage_error naming the study
// position, the key and what to do.
#pragma once

#include "host/registry.hpp"
#include "study/study.hpp"

#include <string>
#include <vector>

namespace formatbench {

// Returns warnings for what may well fail but need not: a lossy format's
// tolerance finer than the dtype can hold at the data's largest values.
std::vector<std::string> check_study_plugins(const study& s, const registry& reg);

// Plugins that call MPI themselves (formatbench.mpi/1) run on the ranks of
// an MPI job only: without one (`under_mpi` false: not started by mpirun,
// or a build without MPI, `built_with_mpi` false) a study that uses one is
// refused, naming the format and the plugin and saying to run it under
// mpirun. `plan` does not ask: a study is planned on a login node before
// the job is submitted.
void check_study_mpi(const study& s, const registry& reg, bool under_mpi, bool built_with_mpi);

// Removes the cases of formats marked `optional: true` whose plugin is not
// installed, renumbering the rest, and returns one note per removed format
// for the user; the baseline becomes the first of the study's choices that
// still runs (with a note when that is not the first), and published
// speed-ups of dropped formats are dropped. A plugin that is there but
// broken is not "missing": that
// stays an error of check_study_plugins. Throws usage_error when nothing is
// left to run.
std::vector<std::string> drop_missing_optional_formats(study& s, const registry& reg);

// from_file inputs: exist, are regular files and readable. The data folder
// (`directory`, when given): exists, is a folder, can be written. A missing
// folder is not created: a typo would otherwise scatter data files.
void check_study_paths(const study& s);

} // namespace formatbench

// A study's `workload:` (study.hpp workload_spec, docs/config.md
// "Workload"): which cases each of its phases names, how it is shown, and
// the check, once the plan is known, that each phase names one kind of work
// per format.
#pragma once

#include "study/study.hpp"
#include "study/work.hpp"

#include <string>

namespace formatbench {

// Whether a case with run parameters `p` does the work `w` names: each key
// `w` gives means something for `p` and has `w`'s value.
bool phase_matches(const workload_phase& w, const run_params& p);

// The keys `w` gives, as row labels name them ("random, block 4KiB, cold");
// "" when it gives none.
std::string phase_text(const workload_phase& w);

// The path of a phase in the study ("workload.write", "workload.reads[1]").
std::string phase_path(const workload_spec& w, const workload_phase& p);

// Throws config_error (at the phase's origin, naming its path and what to
// do) when a read names no case of the study, or names for one format
// (plugin and options, in one data set) cases that do different work (a
// key is missing: "add 'cache:'"); the same for the write.
void check_workload(const study& s);

} // namespace formatbench

// How the ranks' reports of one phase become the case's figures
// (docs/methodology.md, "MPI"): the aggregate time of a phase is from the
// first rank's start to the last rank's end on one time line (each rank's
// start moved onto rank 0's clock), as IOR defines it; CPU times and plugin
// metrics are summed over the ranks; each rank's own time is kept as the
// fastest, median and slowest; verification counts are summed. A step fails
// on every rank when it fails on one, with each failing rank's message. Pure functions,
// identical on every rank, so every rank's runner decides alike.
#pragma once

#include "run/executor.hpp"

#include <optional>
#include <vector>

namespace formatbench {

// One rank's part of a phase.
struct rank_report {
    step_result step;
    phase_report report; // report.started already on rank 0's clock
    bool stop = false;   // this rank was asked to stop (SIGINT, SIGTERM)
};

// The step for all ranks: interrupted on any rank wins (the run stops
// everywhere); else the ranks that failed of their own accord, or, when
// none did, those that only stopped because another did
// (another_rank_failed, communicator.hpp): the status of the first of
// them, and every one's message, in rank order ("rank 0: A; rank 1: B"
// when there are several ranks; ranks with the same message share it:
// "ranks 0-2, 5: A"); ok when all are.
step_result combine_steps(const std::vector<rank_report>& ranks);

// The phase as one sample: wall_s = max(started + wall) - min(started) over
// the ranks; user_s, sys_s and each metric summed; `ranks` the spread of
// the ranks' own wall_s (set only with more than one rank); latency as
// combine_latency gives it.
phase_sample combine_phase(const std::vector<rank_report>& ranks);

// The latencies of an access pattern's operations over all ranks: ops and
// bytes summed, min and max over the ranks, the mean weighted by
// operations, and each percentile that of all the ranks' operations
// together, from each rank's percentile curve (its 101 percentiles and
// p99.9, linear between them) weighted by its operations. One rank's are
// kept as they are; none without a pattern.
std::optional<latency_summary> combine_latency(const std::vector<rank_report>& ranks);

// Mean of the ranks' resident fractions, -1 when none measured.
double combine_resident(const std::vector<rank_report>& ranks);

// Counts summed, largest errors kept; checked when every rank checked.
verification combine_verify(const std::vector<rank_report>& ranks);

// Bytes on disk: summed over the ranks' files, or the largest report of a
// shared file; peak memory: the largest rank's.
case_facts combine_facts(const std::vector<case_facts>& ranks, bool shared);

} // namespace formatbench

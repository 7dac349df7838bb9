// Schedules: in which order the repetitions of a study's cases run
// (docs/methodology.md, "Schedules"). Every schedule runs each case's
// repetitions in that case's own session, alive from its warm-up to its last
// repetition, so all schedules measure the same thing and differ only in how
// slow drifts of the machine spread over the cases.
//  - sequential: all of one case, then the next (plan order);
//  - interleave: round-robin, one repetition of every unfinished case per round;
//  - shuffle: like interleave, each round in a seeded random order.
// Interleaved cases are alive at the same time, so they run in batches that
// fit the memory budget. Under interleave and shuffle each recorded
// repetition that does not directly follow one of its own case comes after
// an unrecorded one of its own (a re-warm): the other cases' data has left
// the caches meanwhile, and without it a memory-bound case measured up to 2x
// slower interleaved than sequential. Both take about twice as long.
#pragma once

#include "study/study.hpp"

#include <cstdint>
#include <vector>

namespace formatbench {

// The cases (positions in `cases`) that are alive together, in order.
// Sequential: one case per batch. Otherwise as many consecutive cases as
// fit `memory_budget` bytes (at least one) and `max_alive`.
std::vector<std::vector<std::size_t>> plan_batches(const std::vector<const case_spec*>& cases,
                                                   schedule_mode mode, std::uint64_t in_memory_bytes,
                                                   std::uint64_t memory_budget, std::size_t max_alive);

// The memory a case holds while alive: its buffers (both payload copies when
// it fits in_memory_bytes, else three chunks).
std::uint64_t case_memory_bytes(const case_spec& c, std::uint64_t in_memory_bytes);

// The order of one round over the unfinished cases `active` (positions, in
// plan order): sequential runs the first alone, interleave all in order,
// shuffle all in a permutation drawn from (seed, round).
std::vector<std::size_t> round_order(schedule_mode mode, const std::vector<std::size_t>& active,
                                     std::uint64_t seed, std::uint64_t round);

} // namespace formatbench

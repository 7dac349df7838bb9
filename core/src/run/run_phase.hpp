// Which part of a repetition a case is in, as it begins: what a progress
// display says between "repetition 3/5" and the time ("writing"). Told by
// the case runner through its executor to the observers
// (observer::phase_started), always outside the timed regions: before the
// write phase's clock starts, between the phases, after the read phase's
// clock stops.
#pragma once

#include <functional>

namespace formatbench {

enum class run_phase {
    warm_up, // an unrecorded repetition begins (the case's warm-up, or a re-warm)
    write,   // a recorded repetition's write phase is about to start
    read,    // its read phase is about to start (after the cache step)
    verify,  // its read phase has stopped its clock; the data read is compared
};

constexpr int run_phase_count = 4;

// Hears the phases as they begin; set by whoever drives a case.
using phase_listener = std::function<void(run_phase)>;

} // namespace formatbench

// How long a warm-up lasts (docs/methodology.md, "Repetitions" and
// "Schedules"), one rule for every executor: unrecorded repetitions until
// there have been `count` of them and they have taken `time` seconds of
// write + read. A case's warm-up counts `warmup`; a re-warm under interleave
// or shuffle counts one; both last `warmup_time`.
#pragma once

#include "study/study.hpp"

namespace formatbench {

enum class warm_kind { start, rewarm };

// Whether a warm-up that has run `done` repetitions in `spent_s` seconds
// runs another.
inline bool warm_up_continues(warm_kind kind, unsigned done, double spent_s, const run_params& p) {
    const unsigned count = kind == warm_kind::start ? p.warmup : 1;
    return done < count || spent_s < p.warmup_time;
}

} // namespace formatbench

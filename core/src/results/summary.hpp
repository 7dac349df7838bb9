// The summary of each case, computed once (docs/methodology.md, "The
// estimate"): per phase which samples were disturbed, the estimate (the
// median of the samples it rests on), its 95% interval and precision,
// spread, noise, throughput, CPU and accounting totals; per case the size
// ratio, residency, latency figures and the speed-ups against the study's
// baseline with their intervals. It is built when a case ends
// (summarize_case; the runner) and for a whole set when a run ends or a
// record is loaded (summarize_study); the outputs, the verdict, compare and
// the report read case_result::figures and compute none of it again.
#pragma once

#include "results/result.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// A sample is disturbed when something outside its case took the CPU from
// it during its timed intervals for more than this fraction of its wall
// time: the time its threads waited, runnable, for a CPU (the largest one
// thread's wait, since threads that wait at once lose it once; not counted when
// the phase's own CPU time filled every CPU it may use: its threads then
// waited for each other) plus the machine's steal time per CPU.
inline constexpr double disturbed_fraction = 0.02;
bool is_disturbed(const phase_sample& p) noexcept;
// The time something outside the case took from the sample (0 when not measured).
double outside_s(const phase_sample& p) noexcept;

// The estimate rests on the undisturbed samples when at least this many
// are (the fewest for which order statistics give a 95% interval of the
// median), or when none is disturbed; otherwise on every sample's net
// time (its wall time less outside_s), and the phase says so
// (on_disturbed).
inline constexpr std::size_t min_undisturbed = 6;

// The distribution-free interval of the median of `sorted` (ascending):
// [x(k), x(n+1-k)] (1-based) with the largest k for which its coverage,
// 1 - 2 P(B <= k - 1) for B ~ Binomial(n, 1/2), is at least `level`. NaN
// bounds when n is too small for any k (fewer than 6 values at 0.95).
interval median_interval(const std::vector<double>& sorted, double level = 0.95);

// The figures of one phase from its samples (write or read) under the
// study's noise rules and the case's precision. `bytes`: what the phase
// moves (figures.hpp phase_bytes).
phase_figures summarize_phase(const std::vector<const phase_sample*>& samples, std::uint64_t bytes,
                              double noise_cv, unsigned noise_min_samples, double precision_target = 0.02);

// Fills c.figures but for the speed-ups (they need the other cases).
void summarize_case(case_result& c, double noise_cv, unsigned noise_min_samples);

// Every case of the set, then each one's baseline and speed-ups: the
// baseline's used samples against the case's (the write from the pooled
// used samples of the cases that share their write, noise.hpp), a
// bootstrap interval (stats.hpp: B = 2000, seed 1); exactly 1 for the
// baseline against itself.
void summarize_study(study_result& r);
// The same for cases read without their study's result (a log): no
// speed-ups unless `baseline` is given.
void summarize_cases(std::vector<case_result>& cases, double noise_cv, unsigned noise_min_samples,
                     const std::string& baseline);

// repeat: auto's fewest recorded repetitions: the fewest samples for
// which order statistics give a 95% interval of the median.
inline constexpr std::size_t auto_min_repetitions = 6;

// Whether case `c` (its figures up to date: summarize_case) has taken
// enough samples after `elapsed_s` seconds of recorded write + read, and
// why; none while it needs more. A fixed `repeat`: that many and min_time
// (case_stop::repeat). repeat: auto: at least auto_min_repetitions and
// min_time, then until the precision of both phases' estimates is at most
// `precision` (case_stop::precision) or max_time is spent
// (case_stop::budget). Either way at most max_repetitions (case_stop::limit).
std::optional<case_stop> enough_samples(const case_result& c, double elapsed_s, std::size_t max_repetitions);

// `faster` against `slower` (two summarized cases of `all`), one phase:
// median(slower's used samples) / median(faster's), with the bootstrap
// interval (the write from the pooled samples, as for the baseline); for
// rankings that compare two rows neither of which is the baseline.
speedup_estimate pair_speedup(const std::vector<case_result>& all, const case_result& slower,
                              const case_result& faster, bool write);

// The text that is equal for cases that wrote the same way (case_figures::
// shared_write): data set, plugin, options and write-side work
// (study/work.hpp).
std::string same_write_key(const case_spec& c);

// `faster` against `slower` in the write phase, from their shared_write
// figures (as pair_speedup: the quotient of the ends of the two medians'
// intervals, the bootstrap with fewer than 6 samples a side).
speedup_estimate shared_write_speedup(const case_result& slower, const case_result& faster);

// The machine's state over a run (docs/methodology.md, "A busy
// machine"): its load when the run began and ended, and how many of the
// ok cases' samples were disturbed and what share of the timed time other
// processes took. Busy: a quarter or more of the samples disturbed (the
// load is said, not counted: it includes tasks in uninterruptible sleep).
struct machine_state {
    std::size_t samples = 0, disturbed = 0;
    double timed_s = 0, outside_s = 0;
    unsigned cpus = 0;
    double load_before = -1, load_after = -1;
    bool busy = false;
};
machine_state summarize_machine(const study_result& r);
// One line for a busy machine, before the verdict: what was measured and
// what it does to the figures; none for a quiet one.
std::optional<std::string> machine_state_line(const machine_state& m);

// The write times of `c` and of every case whose identity differs from
// c's only in the read cache (run.cache), in plan order: the used samples
// of each (figures computed).
std::vector<double> shared_write_times(const std::vector<case_result>& all, const case_result& c);

} // namespace formatbench

// What a run produces: per case every sample, verification and status; the
// context of the machine. Serialised to JSON by results_json.cpp.
#pragma once

#include "study/study.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace formatbench {

// Under MPI, the ranks' own times of one phase (each rank's plugin calls).
struct rank_spread {
    double min_s = 0, median_s = 0, max_s = 0;
};

// The operations of a READ phase that followed an access pattern (study
// key `access` other than whole; docs/methodology.md "Access patterns"):
// each operation (one read-at range or one box) timed on its own with the
// steady clock (stats.hpp's summarize_latencies). Percentiles interpolate linearly between the two nearest
// ranks of the sorted latencies (numpy.percentile's default), so that
// p50 of {1, 2, 3, 4} is 2.5.
struct latency_summary {
    std::uint64_t ops = 0;   // operations timed
    std::uint64_t bytes = 0; // payload bytes they read
    double min_ns = 0, p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0, mean_ns = 0;
    // The 0th, 1st, ..., 100th percentiles (101 values), for a CDF chart.
    std::vector<double> cdf_ns;
    // What one pair of clock readings costs here (measured by the process
    // that timed the operations, median of many back-to-back pairs); it is
    // inside every latency and not subtracted.
    double clock_cost_ns = 0;
};

// What the process that ran a phase and the machine around it did during
// the phase's timed intervals (docs/methodology.md, "Disturbed samples"):
// read just outside each interval's clock readings and summed over the
// intervals (a streamed phase's untimed generation and verification are
// not counted). Under MPI: summed over the ranks, runnable and cpus the
// largest rank's. Absent (measured false) in records before schema 5 and
// where /proc cannot be read.
struct phase_accounting {
    bool measured = false;
    // The phase's threads' time runnable but waiting for a CPU
    // (/proc/self/task/*/schedstat, run_delay), and the machine's steal time
    // per CPU (/proc/stat: steal of all CPUs / CPUs online).
    double wait_s = 0, steal_s = 0;
    // The largest one thread's wait, summed over the intervals: the wall
    // time the waits cost the phase at least (threads that wait at the same
    // moment lose it once; summary.hpp outside_s counts this one).
    double thread_wait_s = 0;
    // Runnable tasks on the machine (/proc/stat procs_running, ours
    // included), the largest count read at an interval's start or end; the
    // CPUs the process may run on (sched_getaffinity); its threads.
    unsigned runnable = 0, cpus = 0, threads = 0;
    // getrusage(RUSAGE_SELF) differences.
    std::uint64_t voluntary_switches = 0, involuntary_switches = 0, minor_faults = 0, major_faults = 0;
    // /proc/self/io differences: read and write calls, bytes through them,
    // bytes fetched from and sent to the storage layer.
    std::uint64_t syscr = 0, syscw = 0, rchar = 0, wchar = 0, read_bytes = 0, write_bytes = 0;
};

// Another rank's accounting of the same phase: counts and waits summed;
// steal (one machine's, per CPU), runnable and cpus the larger; measured
// when either was.
void add_rank_accounting(phase_accounting& into, const phase_accounting& other) noexcept;

// One timed phase (write: open..close incl. sync; read: open..close).
// Under MPI: wall_s is the aggregate time (first rank's start to last
// rank's end, docs/methodology.md), user_s, sys_s and metrics are summed
// over the ranks, and `ranks` holds their own times.
struct phase_sample {
    double wall_s = 0;
    double user_s = 0;
    double sys_s = 0;
    std::optional<rank_spread> ranks;
    // What the plugin reported for the phase's stream (ABI 1.1 metrics:
    // compressed_bytes, codec_s, ...), in the order first reported.
    std::vector<std::pair<std::string, double>> metrics;
    // READ phase under an access pattern: its operations' latencies.
    std::optional<latency_summary> latency;
    phase_accounting accounting;
    // Operations per second of the operations' own time: ops / (sum of
    // their latencies) = 1e9 / mean_ns, as fio counts IOPS (open and close
    // stay in wall_s, not here). 0 without a pattern.
    double iops() const noexcept;
};

struct repetition {
    phase_sample write;
    phase_sample read;
    double resident_fraction = -1; // of the file in page cache before read; -1 = not measured
};

struct verification {
    bool checked = false;
    std::uint64_t compared = 0;
    std::uint64_t mismatches = 0; // bitwise
    double max_abs_error = 0;
    double max_rel_error = 0;
    bool lossless_expected = false;
    // For the RMSE and PSNR (rmse(), psnr_db()): the sum of the squared
    // finite errors, how many errors were infinite (NaN against a number,
    // differing infinities), and the range of the finite values written.
    double sum_squared_error = 0;
    std::uint64_t infinite_errors = 0;
    double written_min = std::numeric_limits<double>::infinity();
    double written_max = -std::numeric_limits<double>::infinity();
    // Against the format's tolerance (when it has one): how many values are
    // outside it, and the worst of them, the one whose error is the largest
    // multiple of what it is allowed (index into the data set).
    tolerance_spec tolerance;
    std::uint64_t outside_tolerance = 0;
    std::uint64_t worst_index = 0;
    double worst_written = 0, worst_read = 0, worst_error = 0, worst_excess = 0; // excess: error / allowed
    // The smallest index in the data set of a mismatching element (when
    // mismatches > 0): where a reader went wrong.
    std::uint64_t first_mismatch_index = 0;
    double rmse() const noexcept;    // NaN when nothing was compared, inf with an infinite error
    double psnr_db() const noexcept; // 20 log10(range of the written values / RMSE); inf when exact
};

// --- The summary of a case, computed once (results/summary.hpp) ----------

struct interval {
    double low = 0, high = 0;
};

// A speed-up (baseline median / this median) with its 95% interval.
struct speedup_estimate {
    double value = 0;
    interval ci;
};

// A case's READ latency over its repetitions (access patterns): each figure
// is the median over the repetitions whose read phase carries a latency
// summary of that repetition's own figure (the median of the repetitions'
// p99, not the p99 of all operations pooled), so one slow repetition moves
// it no more than it moves the median time. cdf_ns is that median taken
// point by point (percentile 0..100). `repetitions` counts the repetitions
// used.
struct latency_figures {
    std::size_t repetitions = 0;
    double ops = 0; // operations per repetition
    double iops = 0, p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0;
    std::vector<double> cdf_ns;
};

// One phase of a case over its repetitions (docs/methodology.md, "The
// estimate"). The estimate rests on the undisturbed samples when there are
// enough of them (summary.hpp min_undisturbed) or all are; otherwise on all
// samples, and on_disturbed says so.
struct phase_figures {
    std::size_t n = 0;         // samples recorded
    std::size_t disturbed = 0; // of them judged disturbed
    std::size_t used = 0;      // samples the estimate rests on
    bool on_disturbed = false; // they include disturbed samples: the estimate is of their net times
    // The median of the used samples, its 95% interval by order statistics
    // (NaN with fewer than 6 used samples) and the interval's half-width
    // relative to the median.
    double median_s = std::numeric_limits<double>::quiet_NaN();
    double ci_low_s = std::numeric_limits<double>::quiet_NaN();
    double ci_high_s = std::numeric_limits<double>::quiet_NaN();
    double precision = std::numeric_limits<double>::quiet_NaN();
    // Of the used samples: spread, outliers beyond Tukey's 1.5 IQR fences.
    double min_s = std::numeric_limits<double>::quiet_NaN();
    double mean_s = std::numeric_limits<double>::quiet_NaN();
    double stddev_s = std::numeric_limits<double>::quiet_NaN();
    double cv = std::numeric_limits<double>::quiet_NaN();
    std::size_t outliers = 0;
    // With an interval (6 or more used samples) the phase is judged by it:
    // imprecise when its precision is worse than the case's `precision`.
    // Without one, by the spread: cv above the study's noise_cv (2 samples
    // or more), fewer used samples than noise_min_samples, outliers.
    bool imprecise = false;
    bool high_cv = false;
    bool few_samples = false;
    bool has_interval() const noexcept { return ci_low_s == ci_low_s; } // not NaN
    bool noisy() const noexcept {
        return on_disturbed || imprecise || (!has_interval() && (high_cv || few_samples || outliers > 0));
    }
    // The bytes the phase moves (figures.hpp phase_bytes) per median second.
    std::uint64_t bytes = 0;
    double throughput_mb_s = std::numeric_limits<double>::quiet_NaN();
    // Medians over the used samples of the CPU times.
    double user_s = std::numeric_limits<double>::quiet_NaN();
    double sys_s = std::numeric_limits<double>::quiet_NaN();
    // Every sample's accounting, summed.
    phase_accounting total;
    // Plugin metrics and (MPI) the ranks' own times: medians over the repetitions.
    std::vector<std::pair<std::string, double>> metrics;
    std::optional<rank_spread> ranks;
    // The used samples' times, in the order they were recorded (net times
    // when on_disturbed), and what took the CPU from each beyond that
    // (summary.hpp outside_s; 0 for net times): the most a disturbance can
    // have added to it.
    std::vector<double> used_times, used_outside_s;
};

struct case_figures {
    bool computed = false;
    phase_figures write, read;
    double size_ratio = std::numeric_limits<double>::quiet_NaN();
    double resident_fraction = std::numeric_limits<double>::quiet_NaN(); // median; NaN when not measured
    std::optional<latency_figures> latency;
    // One line per noisy phase ("write: CV 14.2% is above 10%"), empty when steady.
    std::vector<std::string> noise;
    // Against the study's baseline (summarize_study): the baseline case's
    // index in the plan, or none; the speed-ups; how many write samples
    // were pooled (cases that share their write phase, noise.hpp).
    std::optional<std::size_t> baseline_index;
    speedup_estimate write_speedup{std::numeric_limits<double>::quiet_NaN(), {}};
    speedup_estimate read_speedup{std::numeric_limits<double>::quiet_NaN(), {}};
    std::size_t write_pooled_n = 0;
    // The write of every ok case that wrote the same way as this one (same
    // data set, plugin, options and write-side run parameters; summary.hpp
    // same_write_key): differing only in how it was read (cache, access
    // pattern), under any label. The verdict ranks writes by it
    // (summarize_study; not part of the record).
    phase_figures shared_write;
};

// Why a case stopped taking samples (docs/config.md, "repeat").
enum class case_stop {
    repeat,    // the fixed number of repetitions and min_time were reached
    precision, // repeat: auto, and both phases reached the precision
    budget,    // repeat: auto, max_time ran out before the precision was reached
    limit,     // the runner's limit of repetitions per case
};
const char* to_string(case_stop s) noexcept;

enum class case_status { ok, failed, crashed, timeout, skipped };
const char* to_string(case_status s) noexcept;

struct case_result {
    case_spec spec;
    case_status status = case_status::ok;
    std::string error; // reason when not ok
    std::vector<repetition> samples;
    std::uint64_t payload_bytes = 0; // count x dtype size (under MPI: of all ranks)
    unsigned ranks = 1;              // MPI ranks that ran the case
    std::uint64_t file_bytes = 0;    // on disk after write (0 for no-file plugins)
    std::int64_t peak_rss_bytes = 0;
    std::size_t buffer_alignment = 0; // alignment actually used (power of two)
    verification verify;
    std::string plugin_version;
    std::string plugin_file;
    double plugin_prepare_s = -1; // formatbench.prepare/1's call before the first open; -1: none
    std::string output;           // what the plugin printed to stdout/stderr during the case (forked workers)
    case_stop stop = case_stop::repeat;
    // The summary: computed once when the case ends or its record is
    // loaded (results/summary.hpp); every output reads it.
    case_figures figures;
};

struct summary {
    std::size_t n = 0;
    double min = 0, median = 0, mean = 0, stddev = 0, cv = 0;
};

struct run_context {
    std::string formatbench_version;
    std::string date; // ISO 8601 UTC
    std::string host, os, kernel, cpu_model;
    unsigned cores = 0;
    std::uint64_t memory_bytes = 0;
    std::string data_directory, filesystem;
    std::string compiler, build_type;
    unsigned ranks = 1; // MPI ranks of the run (1 without MPI)
    unsigned hosts = 1; // machines they ran on
    // The machine's 1-minute load average (/proc/loadavg) when the run
    // began and when it ended; -1 when not measured (older records).
    double load_before = -1, load_after = -1;
    struct plugin_entry {
        std::string id, version, file;
    };
    std::vector<plugin_entry> plugins;
};

struct study_result {
    run_context context;
    study spec;
    std::vector<case_result> cases;
};

} // namespace formatbench

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
    std::string output; // what the plugin printed to stdout/stderr during the case (forked workers)
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

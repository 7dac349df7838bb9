// Figures derived from results, one definition each for every output (JSON,
// CSV, console, Markdown, HTML, compare): throughput, size ratio, residency,
// the baseline of a case and its speed-up, and the name of a case's row.
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace formatbench {

inline constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// Payload bytes / 10^6 / median seconds (MB/s, decimal); NaN when there is
// no positive median.
double throughput_mb_s(std::uint64_t payload_bytes, double median_s);

// The bytes a phase moves, the numerator of its throughput: the payload,
// except for a READ phase that followed an access pattern, which moves the
// bytes of its operations (latency_summary::bytes; the same offsets every
// repetition, so the first repetition that has them).
std::uint64_t phase_bytes(const case_result& c, bool write);

// payload / file; NaN for plugins that leave no file.
double size_ratio(const case_result& c);

// Median over the repetitions that measured it; NaN when none did (warm cases).
double median_resident_fraction(const case_result& c);

// The median of each plugin metric (ABI 1.1) over the recorded repetitions
// that report it, for the write or the read phase, in the order first seen.
std::vector<std::pair<std::string, double>> metric_medians(const case_result& c, bool write);

// Under MPI: the medians over the repetitions of the ranks' fastest, median
// and slowest own times; none for a case without per-rank times.
std::optional<rank_spread> rank_spread_medians(const case_result& c, bool write);

// None when no repetition's read phase carries latency (no pattern ran).
std::optional<latency_figures> latency_medians(const case_result& c);

// Cases of one dataset, in plan order.
struct dataset_group {
    const dataset_spec* dataset = nullptr;
    std::vector<const case_result*> cases;
    // For row_label, by format label: which run fields (run_fields()
    // order) vary among the rows of that label (set by group_by_dataset).
    std::map<std::string, std::vector<bool>> varied;
};
std::vector<dataset_group> group_by_dataset(const std::vector<case_result>& cases);

// Whether a format is the one a study's baseline names: before sweep
// expansion ("zlib") or after it ("zlib level=6"). Without base_label
// (hand-made results) an expanded label is taken to be the base label, a
// space and the swept values.
bool label_matches(const format_spec& f, const std::string& baseline);

// The baseline case for `c`: same dataset, a matching label, preferably an
// exact label match and the same measurement parameters (the run fields
// that are part of identities whenever set: chunk, cache, sync, read, ...),
// so that a swept study compares like with like. nullptr when the study has
// no baseline or the dataset has no such case.
const case_result* find_baseline(const std::vector<case_result>& all, const case_result& c,
                                 const std::string& baseline);
// The same among `candidates` (the cases of c's data set whose label
// matches the baseline), for a caller that looks many up.
const case_result* find_baseline(const std::vector<const case_result*>& candidates, const case_result& c,
                                 const std::string& baseline);

// The cases a selection (--filter, --exclude; study/select.hpp) leaves out
// that are the baseline (find_baseline) of a selected case, in plan order:
// they run too, so that the selected cases keep their speed-ups.
std::vector<std::size_t> baselines_to_add(const study& s, const std::vector<bool>& selected);

// Baseline median / this median; NaN when either has no samples.
double speedup(const std::vector<double>& baseline_times, const std::vector<double>& times);

// The row's name: the format label plus the run parameters that tell it
// apart, each as its field's label_prefix and text ("raw [cold]", "zlib
// [chunk 64KiB, sync data]"). A parameter is named when it differs among the
// rows of the same label, or from the dataset's first row (so a lone swept
// value is not hidden).
std::string row_label(const case_result& c, const dataset_group& g);

} // namespace formatbench

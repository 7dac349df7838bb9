// What `formatbench plan` estimates before anything runs (docs/cli.md,
// "formatbench plan"): per case an upper bound of its file's size, the
// memory it holds (the runner's own rule, schedule.hpp), whether it is
// streamed, and, from an earlier run's results, its run time. The plugin
// ABI declares no size bound, so the bounds are the host's (see
// file_size_bound); plan compares their total with the data folder's free
// space.
#pragma once

#include "host/registry.hpp"
#include "results/cost_model.hpp"
#include "results/result.hpp"
#include "results/summary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// The file a case leaves, at most:
//  - plugins without a file (FB_CAP_NO_FILE): 0;
//  - the ascii plugin: count x (characters per value + 1 separator), the
//    characters from its options (width, or the longest text of the dtype
//    in its notation and precision; fixed notation of generated uniform
//    floats, which lie in [0, 1), needs precision + 2);
//  - any other plugin: payload x 1.01 + 64 KiB (containers' headers and the
//    worst-case growth of a compressor on incompressible data: lz4's n/255
//    is the largest of the built-in ones).
// `p` may be null (plugin unknown: the last rule).
std::uint64_t file_size_bound(const case_spec& c, const plugin* p);

// A cost-model fit predicts counts up to this factor outside its valid range.
inline constexpr double model_reach = 2;

// The repetitions, warm-ups included, of a case whose timed phases (write +
// read) take `phases_s` seconds each time: `repeat` (repeat: auto:
// `auto_reps`, at least auto_min_repetitions, at most max_time's worth), no
// fewer than min_time's worth; `warmup`, no fewer than warmup_time's worth.
// NaN when phases_s is not finite.
double repetitions_to_run(double phases_s, const run_params& p, double auto_reps = auto_min_repetitions);

// The run time of `c` from the cases of an earlier run: the case with the
// same key (`source` "same case"); else, from the earlier run's cost model
// (results/cost_model.hpp) of the same format label, dtype and run
// parameters (chunk, cache, ...), fixed + per value x count per phase, when
// both phases have a linear fit whose valid range reaches c's count within
// a factor model_reach ("cost model"); else the case of that format and
// setting whose count is nearest, its times scaled by the ratio of counts
// ("scaled from count N"). Time = (warm-up + repetitions) x (median write + median read),
// repetitions = max(repeat, min_time / (write + read)): data generation,
// verification and process start-up are not counted.
// `fits`: fit_cost_models(earlier), when the caller keeps it for many cases.
std::optional<double> estimate_seconds(const case_spec& c, const std::vector<case_result>& earlier,
                                       std::string* source = nullptr,
                                       const std::vector<cost_fit>* fits = nullptr);

// The folder a run writes its data files in: the study's directory, else
// $TMPDIR (or /tmp), where the run makes a fresh folder (file_ops.hpp).
std::string data_folder(const study& s);

// Free bytes for an unprivileged user in the folder (statvfs f_bavail);
// nullopt when it cannot be asked.
std::optional<std::uint64_t> free_bytes(const std::string& folder);

} // namespace formatbench

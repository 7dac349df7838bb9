// The typed form of a study after parsing and sweep expansion: what the
// runner executes. reader.cpp builds it from YAML, expanding sweeps; the
// field tables (fields.hpp) say what each key means everywhere else.
#pragma once

#include "base/dtype.hpp"
#include "base/option_list.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

enum class cache_mode { warm, cold };
enum class sync_mode { none, close, data };
// How the read phase takes the data: copied into the runner's buffer, or
// viewed in place through the plugin's zero-copy read extension.
enum class read_mode { copy, view };
enum class distribution { uniform, normal, smooth, constant, integers };
enum class isolation_mode { process, none };
// The order in which repetitions of the study's cases run (docs/methodology.md).
enum class schedule_mode { sequential, interleave, shuffle };
// Under MPI (docs/mpi.md): one file per rank, or one file all ranks share.
enum class layout_mode { file_per_rank, shared_file };
// Under MPI: each rank handles `count` values (weak), or the ranks divide
// `count` among them (strong).
enum class scaling_mode { weak, strong };
// How the READ phase takes the data (docs/config.md "Access patterns"):
// the whole array as before, or operations at offsets (read-at) or planes
// (read-box) timed one by one.
enum class access_mode { whole, sequential, random, strided, plane };

inline constexpr cache_mode all_cache_modes[] = {cache_mode::warm, cache_mode::cold};
inline constexpr sync_mode all_sync_modes[] = {sync_mode::none, sync_mode::close, sync_mode::data};
inline constexpr read_mode all_read_modes[] = {read_mode::copy, read_mode::view};
inline constexpr distribution all_distributions[] = {distribution::uniform, distribution::normal,
                                                     distribution::smooth, distribution::constant,
                                                     distribution::integers};
inline constexpr isolation_mode all_isolation_modes[] = {isolation_mode::process, isolation_mode::none};
inline constexpr schedule_mode all_schedule_modes[] = {schedule_mode::sequential, schedule_mode::interleave,
                                                       schedule_mode::shuffle};
inline constexpr layout_mode all_layout_modes[] = {layout_mode::file_per_rank, layout_mode::shared_file};
inline constexpr scaling_mode all_scaling_modes[] = {scaling_mode::weak, scaling_mode::strong};
inline constexpr access_mode all_access_modes[] = {access_mode::whole, access_mode::sequential,
                                                   access_mode::random, access_mode::strided,
                                                   access_mode::plane};

const char* to_string(cache_mode m) noexcept;
const char* to_string(sync_mode m) noexcept;
const char* to_string(read_mode m) noexcept;
const char* to_string(distribution d) noexcept;
const char* to_string(isolation_mode m) noexcept;
const char* to_string(schedule_mode m) noexcept;
const char* to_string(layout_mode m) noexcept;
const char* to_string(scaling_mode m) noexcept;
const char* to_string(access_mode m) noexcept;
// A shape as the study writes it: "[4, 5, 6]".
std::string shape_text(const std::vector<std::uint64_t>& shape);

// One data set. Either generated (counter-based: value i depends only on
// seed and i) or read from a user's file through a plugin.
struct dataset_spec {
    std::string name; // unique label within the study
    dtype type = FB_DTYPE_F64;
    std::uint64_t count = 1000000;
    distribution dist = distribution::uniform;
    std::uint64_t seed = 1;
    double value = 0;                 // distribution::constant
    double mean = 0, stddev = 1;      // distribution::normal
    std::int64_t low = 0, high = 100; // distribution::integers, inclusive
    // from_file: when `file` is set, the data is `count` elements read from
    // `file` with plugin `file_plugin` and its options.
    std::string file;
    std::string file_plugin;
    option_list file_options;
    // `shape: [nz, ny, nx]`: the array's extents, row-major; empty for a
    // flat array. Its product is `count`.
    std::vector<std::uint64_t> shape;
    std::string origin; // "FILE:LINE:COLUMN" of the dataset in the study, for messages ("" if none)
};

// One format under test: a plugin with one option set.
// `tolerance:` of a lossy format (docs/config.md "Tolerance"): a value read
// back is within it when |read - written| <= abs + rel x |written| (numpy's
// isclose rule); a part not given is 0. NaN in both: not set.
struct tolerance_spec {
    double abs = std::numeric_limits<double>::quiet_NaN();
    double rel = std::numeric_limits<double>::quiet_NaN();
    bool given() const noexcept { return !std::isnan(abs) || !std::isnan(rel); }
    // The largest error allowed for a written value e.
    double allowed(double e) const noexcept {
        return (std::isnan(abs) ? 0 : abs) + (std::isnan(rel) ? 0 : rel * std::fabs(e));
    }
};

struct format_spec {
    std::string label;  // unique per option set after expansion, e.g. "zlib level=6"
    std::string plugin; // plugin id
    option_list options;
    std::string base_label;   // the label before swept values were appended ("zlib"), for baseline matching
    std::string origin;       // "FILE:LINE:COLUMN" of the format in the study, for messages ("" if none)
    bool optional = false;    // `optional: true`: skipped, with a note, when no plugin has this id
    tolerance_spec tolerance; // for a lossy option set: what the values read back must keep
};

// Timing and I/O parameters of a case (each may be swept).
struct run_params {
    std::uint64_t chunk_bytes = 0; // 0 = the whole array in one call
    cache_mode cache = cache_mode::warm;
    sync_mode sync = sync_mode::none;
    read_mode read = read_mode::copy;
    unsigned repeat = 5;          // recorded repetitions, at least; 0: auto (until `precision`)
    double precision = 0.02;      // repeat: auto: the half-width of the median's 95% interval / median
    double max_time = 10;         // repeat: auto: seconds of recorded write+read, at most
    unsigned warmup = 1;          // unrecorded repetitions first
    double warmup_time = 0;       // seconds of warm-up (and of each re-warm), at least
    double min_time = 0;          // seconds of recorded write+read, at least
    double timeout = 600;         // seconds per case (process isolation only)
    std::size_t align_offset = 0; // bytes past a page boundary for the buffers
    // MPI ranks (docs/mpi.md); with one process they change nothing but
    // the file's name (file_per_rank) or the plugin calls (shared_file).
    layout_mode layout = layout_mode::file_per_rank;
    scaling_mode scaling = scaling_mode::weak;
    unsigned read_rank_shift = 0; // rank r reads what rank (r + shift) mod N wrote
    // The READ phase's access pattern (docs/config.md "Access patterns").
    // Sizes are bytes as the study gives them; run/access_pattern.hpp
    // rounds them down to whole elements.
    access_mode access = access_mode::whole;
    std::uint64_t access_block = 4096;
    std::uint64_t access_ops = 0;    // 0: the default (1000; every block for sequential)
    std::uint64_t access_stride = 0; // strided: bytes from one block's start to the next's
    std::uint64_t access_seed = 1;   // random, plane
    unsigned access_axis = 0;        // plane
    bool direct = false;             // the READ phase opens the file with O_DIRECT
};

// What makes two cases the same measurement (identity.hpp): named fields
// with canonical values, in a fixed order. --resume and compare match cases
// field by field; `key` is its text form.
using case_identity = std::vector<std::pair<std::string, std::string>>;

// One expanded case: dataset x format x run parameters.
struct case_spec {
    std::size_t index = 0; // position in the plan, from 0
    case_identity identity;
    std::string key; // the identity as text (identity.hpp's key_text), for logs and messages
    dataset_spec dataset;
    format_spec format;
    run_params params;
};

struct output_spec {
    std::string format; // a name of the output table (report/outputs.hpp): json, csv, ...
    std::string path;   // "" or "-" = stdout (console: always stdout)
    std::string origin; // "FILE:LINE:COLUMN" in the study, for messages ("" if none)
};

// `published:` a speed-up measured elsewhere (a paper, the tip the study
// reproduces), printed beside this run's in the verdict
// (report/verdict.hpp): `format` against `against`, both format labels.
struct published_speedup {
    std::string format, against;
    double write = std::numeric_limits<double>::quiet_NaN(); // NaN: not published
    double read = std::numeric_limits<double>::quiet_NaN();
    std::string source; // who measured it, e.g. "the Fortran tip (gfortran, 10^6 values)"
};

// `pairs:` two formats the verdict compares directly, whatever the ranking
// (report/verdict.hpp): what `format` costs against `against`, as a
// library's Python binding against the C library under it.
struct format_pair {
    std::string format, against;
};

// `workload:` how the user will use the data (docs/config.md "Workload"):
// how many times each phase runs, so that the verdict recommends the format
// with the least expected time (report/recommend.hpp). Each phase names its
// work with run-parameter keys (study/work.hpp); a key not given matches any
// value.
struct workload_phase {
    double weight = 0;             // phases of this kind, each as a case ran it
    run_params params;             // the values of `keys`; the others are default
    std::vector<std::string> keys; // run-parameter keys given, in run_fields() order
    std::string origin;            // "FILE:LINE:COLUMN" in the study, for messages ("" if none)
};
struct workload_spec {
    bool given = false;
    workload_phase write; // keys: write-side only
    std::vector<workload_phase> reads;
};

struct study {
    std::string name;
    std::string description;
    std::string source;           // file path, or "<builtin:stream-io>"
    std::string resolved_yaml;    // the study as resolved (defaults filled, --set applied), for the record
    std::vector<case_spec> cases; // expanded, in plan order
    std::string directory;        // where data files go; "" = fresh folder under $TMPDIR
    bool keep_files = false;
    std::string baseline; // a format label (pre- or post-expansion) or ""
    // `baseline:` as written: one label, or labels in order of preference;
    // drop_missing_optional_formats (checks.hpp) makes `baseline` the first
    // whose format runs.
    std::vector<std::string> baseline_choices;
    std::vector<published_speedup> published;
    std::vector<format_pair> pairs;
    workload_spec workload;
    schedule_mode schedule = schedule_mode::sequential;
    std::uint64_t shuffle_seed = 1; // schedule: shuffle
    isolation_mode isolation = isolation_mode::process;
    // When a phase's timing is called noisy (results/noise.hpp): its
    // coefficient of variation above noise_cv, or fewer samples than
    // noise_min_samples.
    double noise_cv = 0.10;
    unsigned noise_min_samples = 5;
    std::vector<output_spec> outputs;
    std::vector<std::string> plugin_path;
};

} // namespace formatbench

// Plan's estimates (estimate.hpp).
#include "run/estimate.hpp"

#include "results/summary.hpp"

#include "results/cost_model.hpp"
#include "results/figures.hpp"
#include "results/stats.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>

#include <sys/statvfs.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace formatbench {
namespace {

std::string option_or(const case_spec& c, const plugin* p, const std::string& name) {
    for (const auto& [k, v] : c.format.options)
        if (k == name) return v;
    if (p)
        for (const auto& o : p->options())
            if (o.name == name) return o.default_value;
    return "";
}

long long integer_or(const std::string& text, long long fallback) {
    try {
        return text.empty() ? fallback : std::stoll(text);
    } catch (const std::exception&) {
        return fallback;
    }
}

// The longest text of one value of `c`'s dtype the ascii plugin writes.
std::uint64_t ascii_value_chars(const case_spec& c, const plugin* p) {
    const long long width = integer_or(option_or(c, p, "width"), 0);
    const dtype d = c.dataset.type;
    std::uint64_t chars = 0;
    switch (d) {
    case FB_DTYPE_I64: chars = 20; break; // -9223372036854775808
    case FB_DTYPE_I32: chars = 11; break; // -2147483648
    case FB_DTYPE_U8: chars = 3; break;   // 255
    default: {
        const bool f64 = d == FB_DTYPE_F64;
        const std::string notation = option_or(c, p, "notation");
        const auto precision =
            static_cast<std::uint64_t>(std::max(0LL, integer_or(option_or(c, p, "precision"), 16)));
        const std::uint64_t exponent = f64 ? 5 : 4; // e-308, e+38
        if (notation == "fixed") {
            const bool unit = c.dataset.file.empty() && c.dataset.dist == distribution::uniform;
            // sign, integer digits (DBL_MAX has 309, FLT_MAX 39), point, decimals
            chars = unit ? 2 + precision : 1 + (f64 ? 309 : 39) + 1 + precision;
        } else if (notation == "scientific" || notation == "general") {
            chars = 1 + 1 + 1 + precision + exponent; // -d.ddd...e-308
        } else {
            chars = f64 ? 24 : 15; // -2.2250738585072014e-308, -1.17549435e-38
        }
    }
    }
    return std::max<std::uint64_t>(chars, static_cast<std::uint64_t>(std::max(0LL, width)));
}

// a * b, saturated.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
    return b && a > std::numeric_limits<std::uint64_t>::max() / b ? std::numeric_limits<std::uint64_t>::max()
                                                                  : a * b;
}

bool same_run_params(const run_params& a, const run_params& b) {
    for (const auto& f : run_fields())
        if (!f.same(a, b)) return false;
    return true;
}

// The run time of a case whose repetition takes `per` seconds. repeat:
// auto counts `auto_reps` repetitions (an earlier run's count of the same
// case, else auto_min_repetitions), at most max_time's worth.
double case_seconds(double per, const run_params& p, double auto_reps = auto_min_repetitions) {
    return repetitions_to_run(per, p, auto_reps) * per;
}

double case_seconds(const case_result& r, const run_params& p, double scale) {
    if (r.samples.empty()) return not_a_number;
    return case_seconds((r.figures.write.median_s + r.figures.read.median_s) * scale, p,
                        static_cast<double>(r.samples.size()));
}

// `r` and `c` are the same format and setting but for the count.
bool comparable(const case_result& r, const case_spec& c) {
    return r.status == case_status::ok && r.spec.format.label == c.format.label &&
           r.spec.format.plugin == c.format.plugin && r.spec.dataset.type == c.dataset.type &&
           same_run_params(r.spec.params, c.params);
}

// One repetition of `c` (write + read) from the linear cost-model fits of
// its group in `earlier`, when its count is within model_reach of both
// phases' valid ranges.
std::optional<double> model_repetition_s(const case_spec& c, const std::vector<case_result>& earlier,
                                         const std::vector<cost_fit>& fits) {
    const auto n = static_cast<double>(c.dataset.count);
    std::optional<double> write, read;
    for (const cost_fit& f : fits) {
        if (!f.linear || !comparable(earlier[f.first_case], c)) continue;
        if (n < static_cast<double>(f.valid_min_count) / model_reach ||
            n > static_cast<double>(f.valid_max_count) * model_reach)
            continue;
        auto& phase = f.write ? write : read;
        if (!phase) phase = f.fit.a + f.fit.b * n;
    }
    if (!write || !read) return std::nullopt;
    return *write + *read;
}

} // namespace

double repetitions_to_run(double phases_s, const run_params& p, double auto_reps) {
    const double per = phases_s;
    if (!std::isfinite(per)) return not_a_number;
    double reps = p.repeat;
    if (p.repeat == 0) {
        reps = std::max<double>(auto_min_repetitions, auto_reps);
        if (per > 0)
            reps = std::max<double>(auto_min_repetitions, std::min(reps, std::ceil(p.max_time / per)));
    }
    if (per > 0) reps = std::max(reps, std::ceil(p.min_time / per));
    double warm = p.warmup;
    if (per > 0) warm = std::max(warm, std::ceil(p.warmup_time / per));
    return reps + warm;
}

std::uint64_t file_size_bound(const case_spec& c, const plugin* p) {
    if (p && p->has(FB_CAP_NO_FILE)) return 0;
    const std::uint64_t payload = times(c.dataset.count, dtype_size(c.dataset.type));
    if (c.format.plugin == "ascii") {
        const std::uint64_t separator = std::max<std::uint64_t>(1, option_or(c, p, "separator").size());
        return times(c.dataset.count, ascii_value_chars(c, p) + separator);
    }
    const std::uint64_t slack = payload / 100 + (std::uint64_t{1} << 16);
    return payload > std::numeric_limits<std::uint64_t>::max() - slack
               ? std::numeric_limits<std::uint64_t>::max()
               : payload + slack;
}

std::optional<double> estimate_seconds(const case_spec& c, const std::vector<case_result>& earlier,
                                       std::string* source, const std::vector<cost_fit>* fits) {
    for (const case_result& r : earlier)
        if (r.spec.key == c.key && r.status == case_status::ok) {
            const double s = case_seconds(r, c.params, 1.0);
            if (std::isnan(s)) continue;
            if (source) *source = "same case";
            return s;
        }
    if (const auto per = model_repetition_s(c, earlier, fits ? *fits : fit_cost_models(earlier))) {
        const double s = case_seconds(*per, c.params);
        if (!std::isnan(s)) {
            if (source) *source = "cost model";
            return s;
        }
    }
    const case_result* nearest = nullptr;
    double best = std::numeric_limits<double>::infinity();
    for (const case_result& r : earlier) {
        if (!comparable(r, c) || r.spec.dataset.count == 0) continue;
        const double distance =
            std::fabs(std::log(static_cast<double>(r.spec.dataset.count) /
                               static_cast<double>(std::max<std::uint64_t>(1, c.dataset.count))));
        if (distance < best) best = distance, nearest = &r;
    }
    if (!nearest) return std::nullopt;
    const double scale =
        static_cast<double>(c.dataset.count) / static_cast<double>(nearest->spec.dataset.count);
    const double s = case_seconds(*nearest, c.params, scale);
    if (std::isnan(s)) return std::nullopt;
    if (source) *source = fmt::format("scaled from count {}", nearest->spec.dataset.count);
    return s;
}

std::string data_folder(const study& s) {
    if (!s.directory.empty()) return s.directory;
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

std::optional<std::uint64_t> free_bytes(const std::string& folder) {
    struct statvfs v {};
    if (::statvfs(folder.c_str(), &v) != 0) return std::nullopt;
    return times(static_cast<std::uint64_t>(v.f_bavail), static_cast<std::uint64_t>(v.f_frsize));
}

} // namespace formatbench

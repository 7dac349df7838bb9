// The cost model's fit and crossovers (cost_model.hpp).
#include "results/cost_model.hpp"

#include "base/suggest.hpp"
#include "results/stats.hpp"
#include "study/fields.hpp"
#include "study/identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace formatbench {

namespace {

// R^2 and the largest relative residual of t = a + b n (weights 1 / t^2).
linear_fit with_quality(const std::vector<double>& n, const std::vector<double>& t, double a, double b) {
    linear_fit f;
    f.a = a;
    f.b = b;
    double s = 0, sy = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const double w = 1 / (t[i] * t[i]);
        s += w;
        sy += w * t[i];
    }
    const double mean = sy / s;
    double residual = 0, total = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const double w = 1 / (t[i] * t[i]), e = t[i] - a - b * n[i];
        residual += w * e * e;
        total += w * (t[i] - mean) * (t[i] - mean);
        f.max_rel_residual = std::max(f.max_rel_residual, std::fabs(e) / t[i]);
    }
    f.r2 = total > 0 ? 1 - residual / total : 1.0;
    return f;
}

} // namespace

std::optional<linear_fit> fit_relative(const std::vector<double>& n, const std::vector<double>& t) {
    if (n.size() != t.size() || n.size() < 2) return std::nullopt;
    double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (!(t[i] > 0) || !std::isfinite(t[i]) || !std::isfinite(n[i])) return std::nullopt;
        const double w = 1 / (t[i] * t[i]);
        s += w;
        sx += w * n[i];
        sy += w * t[i];
        sxx += w * n[i] * n[i];
        sxy += w * n[i] * t[i];
    }
    const double det = s * sxx - sx * sx;
    if (!(std::fabs(det) > 1e-12 * s * sxx)) return std::nullopt; // counts all equal
    const double b = (s * sxy - sx * sy) / det;
    return with_quality(n, t, (sy - b * sx) / s, b);
}

std::optional<linear_fit> fit_relative_nonnegative(const std::vector<double>& n,
                                                   const std::vector<double>& t) {
    const auto free = fit_relative(n, t);
    if (!free || (free->a >= 0 && free->b >= 0)) return free;
    // On a = 0: minimise sum (1 - b n / t)^2, b = sum(n / t) / sum(n^2 / t^2);
    // on b = 0: minimise sum (1 - a / t)^2, a = sum(1 / t) / sum(1 / t^2).
    double p = 0, q = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const double x = free->a < 0 ? n[i] / t[i] : 1 / t[i];
        p += x;
        q += x * x;
    }
    if (!(q > 0)) return std::nullopt;
    return free->a < 0 ? with_quality(n, t, 0, p / q) : with_quality(n, t, p / q, 0);
}

std::optional<linear_range> widest_linear_range(const std::vector<double>& n, const std::vector<double>& t,
                                                double tolerance, std::size_t min_points) {
    if (n.size() != t.size()) return std::nullopt;
    min_points = std::max<std::size_t>(min_points, 2);
    for (std::size_t width = n.size(); width >= min_points; --width)
        for (std::size_t first = n.size() - width + 1; first-- > 0;) {
            const std::vector<double> rn(n.begin() + first, n.begin() + first + width),
                rt(t.begin() + first, t.begin() + first + width);
            const auto f = fit_relative_nonnegative(rn, rt);
            if (f && f->max_rel_residual <= tolerance) return linear_range{first, first + width - 1, *f};
        }
    return std::nullopt;
}

namespace {

// What a group shares: the case key without the data set's name and count.
std::string group_key(const case_identity& id) {
    std::string key;
    for (const auto& [name, value] : id)
        if (name != "dataset.name" && name != "dataset.count") key += name + "=" + value + ";";
    return key;
}

// The setting: dtype, data and run parameters (not the format).
std::string setting_key(const case_identity& id) {
    std::string key;
    for (const auto& [name, value] : id)
        if (name != "dataset.name" && name != "dataset.count" && name.rfind("format.", 0) != 0)
            key += name + "=" + value + ";";
    return key;
}

// The cases' identities; recomputed from their specs when some are not set
// (cases read back from a record or log carry none).
std::vector<case_identity> identities_of(const std::vector<case_result>& cases) {
    std::vector<case_spec> specs;
    bool missing = false;
    for (const case_result& c : cases) {
        specs.push_back(c.spec);
        missing |= c.spec.identity.empty();
    }
    if (missing) assign_identities(specs);
    std::vector<case_identity> out;
    for (case_spec& c : specs)
        out.push_back(std::move(c.identity));
    return out;
}

} // namespace

std::vector<cost_fit> fit_cost_models(const std::vector<case_result>& cases) {
    const std::vector<case_identity> ids = identities_of(cases);
    std::vector<std::string> order;
    std::map<std::string, std::vector<const case_result*>> groups;
    for (const case_result& c : cases) {
        if (c.status != case_status::ok || c.samples.empty()) continue;
        const std::string k = group_key(ids[static_cast<std::size_t>(&c - cases.data())]);
        if (!groups.count(k)) order.push_back(k);
        groups[k].push_back(&c);
    }
    // Groups of one label are told apart by what differs among them: the
    // dtype, run parameters (as row labels name them: "cold", "chunk 64KiB").
    auto name_of = [&](const case_spec& c) {
        std::vector<std::string> parts;
        bool dtype_differs = false;
        std::vector<bool> differs(run_fields().size(), false);
        for (const auto& k : order) {
            const case_spec& o = groups[k].front()->spec;
            if (o.format.label != c.format.label) continue;
            dtype_differs |= o.dataset.type != c.dataset.type;
            for (std::size_t i = 0; i < run_fields().size(); ++i)
                differs[i] = differs[i] || !run_fields()[i].same(o.params, c.params);
        }
        if (dtype_differs) parts.emplace_back(dtype_name(c.dataset.type));
        for (std::size_t i = 0; i < run_fields().size(); ++i)
            if (differs[i]) parts.push_back(run_fields()[i].label_prefix + run_fields()[i].text(c.params));
        return parts.empty() ? c.format.label : c.format.label + " [" + join(parts) + "]";
    };
    std::vector<cost_fit> out;
    for (const bool write : {true, false})
        for (const auto& k : order) {
            const auto& g = groups[k];
            // One point per count: the median of its cases' median times.
            std::map<std::uint64_t, std::vector<double>> by_count;
            for (const case_result* c : g)
                by_count[c->spec.dataset.count].push_back(write ? c->figures.write.median_s
                                                                : c->figures.read.median_s);
            if (by_count.size() < cost_model_min_points) continue;
            std::vector<double> n, t;
            std::vector<std::uint64_t> counts;
            for (const auto& [count, medians] : by_count) {
                counts.push_back(count);
                n.push_back(static_cast<double>(count));
                t.push_back(summarize(medians).median);
            }
            const case_spec& first = g.front()->spec;
            cost_fit fit;
            fit.label = name_of(first);
            fit.first_case = static_cast<std::size_t>(g.front() - cases.data());
            fit.setting = setting_key(ids[fit.first_case]);
            fit.write = write;
            fit.counts = counts.size();
            fit.min_count = counts.front();
            fit.max_count = counts.back();
            if (const auto r = widest_linear_range(n, t)) {
                fit.linear = true;
                fit.fit = r->fit;
                fit.points = r->last - r->first + 1;
                fit.valid_min_count = counts[r->first];
                fit.valid_max_count = counts[r->last];
            } else {
                // How far from a line: the best any range of the fewest counts got.
                double best = std::numeric_limits<double>::infinity();
                for (std::size_t i = 0; i + cost_model_min_points <= n.size(); ++i) {
                    const auto f = fit_relative_nonnegative(
                        std::vector<double>(n.begin() + i, n.begin() + i + cost_model_min_points),
                        std::vector<double>(t.begin() + i, t.begin() + i + cost_model_min_points));
                    if (f) best = std::min(best, f->max_rel_residual);
                }
                fit.fit.max_rel_residual = best;
            }
            out.push_back(fit);
        }
    return out;
}

std::optional<double> crossover_count(const linear_fit& f1, const linear_fit& f2) {
    if (f1.b == f2.b) return std::nullopt;
    const double n = (f2.a - f1.a) / (f1.b - f2.b);
    if (!(n > 0) || !std::isfinite(n)) return std::nullopt;
    return n;
}

std::vector<crossover> find_crossovers(const std::vector<cost_fit>& fits) {
    std::vector<crossover> out;
    for (std::size_t i = 0; i < fits.size(); ++i)
        for (std::size_t j = i + 1; j < fits.size(); ++j) {
            const cost_fit &p = fits[i], &q = fits[j];
            if (p.write != q.write || p.setting != q.setting || !p.linear || !q.linear) continue;
            // Only where both lines were seen to hold: outside a fit's valid
            // range the format follows another regime (or one not measured).
            const auto n = crossover_count(p.fit, q.fit);
            const double lo = static_cast<double>(std::max(p.valid_min_count, q.valid_min_count));
            const double hi = static_cast<double>(std::min(p.valid_max_count, q.valid_max_count));
            if (!n || *n < lo || *n > hi) continue;
            // Below n* the smaller fixed cost wins, above it the smaller cost per value.
            const bool p_small = p.fit.a < q.fit.a;
            out.push_back({p.write, p_small ? p.label : q.label, p_small ? q.label : p.label, *n});
        }
    return out;
}

} // namespace formatbench

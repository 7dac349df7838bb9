// The cost model's fit and crossovers (cost_model.hpp).
#include "results/cost_model.hpp"

#include "base/suggest.hpp"
#include "results/stats.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace formatbench {

std::optional<linear_fit> fit_relative(const std::vector<double>& n, const std::vector<double>& t) {
    if (n.size() != t.size() || n.size() < 2) return std::nullopt;
    double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (!(t[i] > 0) || !std::isfinite(n[i])) return std::nullopt;
        const double w = 1 / (t[i] * t[i]);
        s += w;
        sx += w * n[i];
        sy += w * t[i];
        sxx += w * n[i] * n[i];
        sxy += w * n[i] * t[i];
    }
    const double det = s * sxx - sx * sx;
    if (!(std::fabs(det) > 1e-12 * s * sxx)) return std::nullopt; // counts all equal
    linear_fit f;
    f.b = (s * sxy - sx * sy) / det;
    f.a = (sy - f.b * sx) / s;
    const double mean = sy / s;
    double residual = 0, total = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const double w = 1 / (t[i] * t[i]), e = t[i] - f.a - f.b * n[i];
        residual += w * e * e;
        total += w * (t[i] - mean) * (t[i] - mean);
        f.max_rel_residual = std::max(f.max_rel_residual, std::fabs(e) / t[i]);
    }
    f.r2 = total > 0 ? 1 - residual / total : 1.0;
    return f;
}

namespace {

// What a group shares: the case key without the data set's name and count.
std::string group_key(const case_spec& c) {
    std::string key;
    for (const auto& [name, value] : c.identity)
        if (name != "dataset.name" && name != "dataset.count") key += name + "=" + value + ";";
    return key;
}

// The setting: dtype, data and run parameters (not the format).
std::string setting_key(const case_spec& c) {
    std::string key;
    for (const auto& [name, value] : c.identity)
        if (name != "dataset.name" && name != "dataset.count" && name.rfind("format.", 0) != 0)
            key += name + "=" + value + ";";
    return key;
}

} // namespace

std::vector<cost_fit> fit_cost_models(const std::vector<case_result>& cases) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const case_result*>> groups;
    for (const case_result& c : cases) {
        if (c.status != case_status::ok || c.samples.empty()) continue;
        const std::string k = group_key(c.spec);
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
            std::set<std::uint64_t> counts;
            std::vector<double> n, t;
            for (const case_result* c : g) {
                counts.insert(c->spec.dataset.count);
                n.push_back(static_cast<double>(c->spec.dataset.count));
                t.push_back(summarize(write ? write_times(*c) : read_times(*c)).median);
            }
            if (counts.size() < 3) continue;
            const auto f = fit_relative(n, t);
            if (!f) continue;
            const case_spec& first = g.front()->spec;
            cost_fit fit;
            fit.label = name_of(first);
            fit.setting = setting_key(first);
            fit.write = write;
            fit.fit = *f;
            fit.points = counts.size();
            fit.min_count = *counts.begin();
            fit.max_count = *counts.rbegin();
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
            if (p.write != q.write || p.setting != q.setting) continue;
            // A negative fixed cost means the line does not describe the
            // small counts, where a crossover would be predicted.
            if (!(p.fit.a > 0) || !(q.fit.a > 0)) continue;
            const auto n = crossover_count(p.fit, q.fit);
            const double lo = static_cast<double>(std::max(p.min_count, q.min_count)) / 2;
            const double hi = static_cast<double>(std::min(p.max_count, q.max_count)) * 2;
            if (!n || *n < lo || *n > hi) continue;
            // Below n* the smaller fixed cost wins, above it the smaller cost per value.
            const bool p_small = p.fit.a < q.fit.a;
            out.push_back({p.write, p_small ? p.label : q.label, p_small ? q.label : p.label, *n});
        }
    return out;
}

} // namespace formatbench

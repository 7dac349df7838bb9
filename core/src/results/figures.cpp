// Derived figures (figures.hpp).
#include "results/figures.hpp"

#include "results/stats.hpp"
#include "study/fields.hpp"

#include <algorithm>
#include <unordered_map>

namespace formatbench {

double throughput_mb_s(std::uint64_t payload_bytes, double median_s) {
    return median_s > 0 ? static_cast<double>(payload_bytes) / 1e6 / median_s : not_a_number;
}

std::uint64_t phase_bytes(const case_result& c, bool write) {
    if (!write)
        for (const repetition& r : c.samples)
            if (r.read.latency) return r.read.latency->bytes;
    return c.payload_bytes;
}

double size_ratio(const case_result& c) {
    return c.file_bytes > 0 ? static_cast<double>(c.payload_bytes) / static_cast<double>(c.file_bytes)
                            : not_a_number;
}

double median_resident_fraction(const case_result& c) {
    std::vector<double> fractions;
    for (const repetition& r : c.samples)
        if (r.resident_fraction >= 0) fractions.push_back(r.resident_fraction);
    return fractions.empty() ? not_a_number : summarize(std::move(fractions)).median;
}

std::vector<std::pair<std::string, double>> metric_medians(const case_result& c, bool write) {
    std::vector<std::pair<std::string, std::vector<double>>> values;
    for (const repetition& rep : c.samples)
        for (const auto& metric : (write ? rep.write : rep.read).metrics) {
            // (a named pair, not a structured binding: clang 14 cannot capture one)
            auto it = std::find_if(values.begin(), values.end(),
                                   [&](const auto& v) { return v.first == metric.first; });
            if (it == values.end()) it = values.insert(values.end(), {metric.first, {}});
            it->second.push_back(metric.second);
        }
    std::vector<std::pair<std::string, double>> out;
    for (auto& [name, v] : values)
        out.emplace_back(name, summarize(std::move(v)).median);
    return out;
}

std::optional<rank_spread> rank_spread_medians(const case_result& c, bool write) {
    std::vector<double> lo, mid, hi;
    for (const repetition& rep : c.samples)
        if (const auto& r = (write ? rep.write : rep.read).ranks) {
            lo.push_back(r->min_s);
            mid.push_back(r->median_s);
            hi.push_back(r->max_s);
        }
    if (lo.empty()) return std::nullopt;
    return rank_spread{summarize(std::move(lo)).median, summarize(std::move(mid)).median,
                       summarize(std::move(hi)).median};
}

std::optional<latency_figures> latency_medians(const case_result& c) {
    std::vector<const phase_sample*> reads;
    for (const repetition& rep : c.samples)
        if (rep.read.latency) reads.push_back(&rep.read);
    if (reads.empty()) return std::nullopt;
    auto median = [&](auto get) {
        std::vector<double> v;
        for (const phase_sample* p : reads)
            v.push_back(get(*p));
        return summarize(std::move(v)).median;
    };
    latency_figures f;
    f.repetitions = reads.size();
    f.ops = median([](const phase_sample& p) { return static_cast<double>(p.latency->ops); });
    f.iops = median([](const phase_sample& p) { return p.iops(); });
    f.p50_ns = median([](const phase_sample& p) { return p.latency->p50_ns; });
    f.p90_ns = median([](const phase_sample& p) { return p.latency->p90_ns; });
    f.p99_ns = median([](const phase_sample& p) { return p.latency->p99_ns; });
    f.p999_ns = median([](const phase_sample& p) { return p.latency->p999_ns; });
    f.max_ns = median([](const phase_sample& p) { return p.latency->max_ns; });
    // Point by point over the repetitions whose CDF is complete (101 values).
    std::size_t points = 0;
    for (const phase_sample* p : reads)
        points = std::max(points, p->latency->cdf_ns.size());
    for (std::size_t i = 0; i < points; ++i) {
        std::vector<double> v;
        for (const phase_sample* p : reads)
            if (i < p->latency->cdf_ns.size()) v.push_back(p->latency->cdf_ns[i]);
        f.cdf_ns.push_back(summarize(std::move(v)).median);
    }
    return f;
}

std::vector<dataset_group> group_by_dataset(const std::vector<case_result>& cases) {
    std::vector<dataset_group> groups;
    std::unordered_map<std::string, std::size_t> by_name;
    for (const case_result& c : cases) {
        const auto [it, inserted] = by_name.emplace(c.spec.dataset.name, groups.size());
        if (inserted) groups.push_back({&c.spec.dataset, {}, {}});
        groups[it->second].cases.push_back(&c);
    }
    // Which fields vary among the rows of each label: against the label's
    // first row, once per group (row_label is then O(fields) a row).
    const auto& fields = run_fields();
    for (dataset_group& g : groups) {
        std::unordered_map<std::string, const case_result*> first;
        for (const case_result* c : g.cases) {
            auto& v = g.varied[c->spec.format.label];
            v.resize(fields.size(), false);
            const auto [at, inserted] = first.emplace(c->spec.format.label, c);
            if (inserted) continue;
            for (std::size_t i = 0; i < fields.size(); ++i)
                if (!fields[i].same(at->second->spec.params, c->spec.params)) v[i] = true;
        }
    }
    return groups;
}

bool label_matches(const format_spec& f, const std::string& baseline) {
    if (baseline.empty()) return false;
    if (f.label == baseline || f.base_label == baseline) return true;
    return f.base_label.empty() && f.label.size() > baseline.size() &&
           f.label.compare(0, baseline.size(), baseline) == 0 && f.label[baseline.size()] == ' ';
}

namespace {

bool same_measurement(const run_params& a, const run_params& b) {
    for (const auto& f : run_fields())
        if ((f.identity & (identity_always | identity_when_set)) && !f.same(a, b)) return false;
    return true;
}

} // namespace

const case_result* find_baseline(const std::vector<case_result>& all, const case_result& c,
                                 const std::string& baseline) {
    std::vector<const case_result*> candidates;
    for (const case_result& b : all)
        candidates.push_back(&b);
    return find_baseline(candidates, c, baseline);
}

const case_result* find_baseline(const std::vector<const case_result*>& candidates, const case_result& c,
                                 const std::string& baseline) {
    const case_result* best = nullptr;
    int best_score = -1;
    for (const case_result* candidate : candidates) {
        const case_result& b = *candidate;
        if (b.spec.dataset.name != c.spec.dataset.name || !label_matches(b.spec.format, baseline)) continue;
        const int score = (same_measurement(b.spec.params, c.spec.params) ? 2 : 0) +
                          (b.spec.format.label == baseline ? 1 : 0);
        if (score > best_score) best = &b, best_score = score;
    }
    return best;
}

std::vector<std::size_t> baselines_to_add(const study& s, const std::vector<bool>& selected) {
    if (s.baseline.empty() || selected.empty()) return {};
    std::vector<case_result> all(s.cases.size());
    for (std::size_t i = 0; i < s.cases.size(); ++i)
        all[i].spec = s.cases[i];
    std::vector<bool> needed(s.cases.size(), false);
    for (std::size_t i = 0; i < s.cases.size(); ++i)
        if (selected.at(i))
            if (const case_result* b = find_baseline(all, all[i], s.baseline))
                needed[static_cast<std::size_t>(b - all.data())] = true;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < s.cases.size(); ++i)
        if (needed[i] && !selected[i]) out.push_back(i);
    return out;
}

double speedup(const std::vector<double>& baseline_times, const std::vector<double>& times) {
    if (baseline_times.empty() || times.empty()) return not_a_number;
    const double b = summarize(baseline_times).median, t = summarize(times).median;
    return t > 0 ? b / t : not_a_number;
}

std::string row_label(const case_result& c, const dataset_group& g) {
    const run_params& p = c.spec.params;
    const run_params& first = g.cases.front()->spec.params;
    const auto varied = g.varied.find(c.spec.format.label);
    std::vector<std::string> parts;
    const auto& fields = run_fields();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto& f = fields[i];
        if (f.identity == identity_never) continue;
        const bool named = !f.same(p, first) || (varied != g.varied.end() && varied->second[i]);
        if (named) parts.push_back(f.label_prefix + f.text(p));
    }
    std::string label = c.spec.format.label;
    if (!parts.empty()) {
        label += " [";
        for (std::size_t i = 0; i < parts.size(); ++i)
            label += (i ? ", " : "") + parts[i];
        label += "]";
    }
    return label;
}

} // namespace formatbench

// The case summary, computed once (summary.hpp).
#include "results/summary.hpp"

#include "results/figures.hpp"
#include "results/stats.hpp"
#include "study/identity.hpp"
#include "study/work.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace formatbench {

double outside_s(const phase_sample& p) noexcept {
    const phase_accounting& a = p.accounting;
    if (!a.measured || !(p.wall_s > 0)) return 0;
    const bool own_cpus_full = a.cpus > 0 && p.user_s + p.sys_s >= 0.9 * a.cpus * p.wall_s;
    // Threads that wait at the same time lose the phase that time once: the
    // largest one thread's wait counts.
    const double wait = own_cpus_full ? 0 : a.thread_wait_s;
    return std::min(p.wall_s, a.steal_s + wait);
}

bool is_disturbed(const phase_sample& p) noexcept {
    return outside_s(p) > disturbed_fraction * p.wall_s;
}

interval median_interval(const std::vector<double>& sorted, double level) {
    const std::size_t n = sorted.size();
    const double nan = not_a_number;
    if (n == 0) return {nan, nan};
    // P(B <= j) for B ~ Binomial(n, 1/2), term by term in logarithms
    // (C(n, j) / 2^n underflows for large n otherwise).
    const double alpha = (1 - level) / 2, dn = static_cast<double>(n);
    double cdf = 0;
    std::size_t k = 0; // the interval is [x(k), x(n+1-k)], 1-based; 0: none
    for (std::size_t j = 0; j < n / 2; ++j) {
        const double dj = static_cast<double>(j);
        cdf += std::exp(std::lgamma(dn + 1) - std::lgamma(dj + 1) - std::lgamma(dn - dj + 1) -
                        dn * std::log(2.0));
        if (cdf > alpha) break;
        k = j + 1; // P(B <= k - 1) <= alpha
    }
    if (k == 0) return {nan, nan};
    return {sorted[k - 1], sorted[n - k]};
}

namespace {

double median_of(std::vector<double> v) {
    return v.empty() ? not_a_number : summarize(std::move(v)).median;
}

std::vector<std::string> findings(const phase_figures& p, bool write, double noise_cv,
                                  unsigned noise_min_samples, double precision) {
    std::vector<std::string> parts;
    if (p.imprecise)
        parts.push_back(fmt::format("median known within \u00b1{:.1f}% (95%), not the {:g}% asked",
                                    p.precision * 100, precision * 100));
    if (p.has_interval()) {
        // judged by the interval; the spread rules do not apply
    } else if (p.high_cv)
        parts.push_back(fmt::format("CV {:.1f}% is above {:g}%", p.cv * 100, noise_cv * 100));
    if (!p.has_interval() && p.outliers)
        parts.push_back(fmt::format("{} of {} samples {} (beyond 1.5 IQR)", p.outliers, p.used,
                                    p.outliers == 1 ? "is an outlier" : "are outliers"));
    if (!p.has_interval() && p.few_samples)
        parts.push_back(fmt::format("only {} sample{} (fewer than {})", p.used, p.used == 1 ? "" : "s",
                                    noise_min_samples));
    if (p.on_disturbed)
        parts.push_back(fmt::format("{} of {} samples disturbed (something else took the CPU); the "
                                    "estimate rests on the net times of all of them",
                                    p.disturbed, p.n));
    if (parts.empty()) return {};
    std::string line = write ? "write: " : "read: ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        line += (i ? "; " : "") + parts[i];
    return {line};
}

bool same_but_cache(const case_identity& a, const case_identity& b) {
    auto strip = [](const case_identity& id) {
        case_identity out;
        for (const auto& e : id)
            if (e.first != "run.cache") out.push_back(e);
        return out;
    };
    return strip(a) == strip(b);
}

// The speed-up with its interval: with 6 or more samples a side, the
// quotients of the ends of the two medians' 95% intervals by order
// statistics (a sort: a record of 10^5 cases is summarized in seconds);
// with fewer, the bootstrap interval.
speedup_estimate estimate_speedup(const std::vector<double>& baseline_times,
                                  const std::vector<double>& times) {
    const double value = speedup(baseline_times, times);
    if (baseline_times.size() < min_undisturbed || times.size() < min_undisturbed)
        return {value, bootstrap_speedup_interval(baseline_times, times)};
    std::vector<double> b = baseline_times, t = times;
    std::sort(b.begin(), b.end());
    std::sort(t.begin(), t.end());
    const interval ib = median_interval(b), it = median_interval(t);
    if (!(it.low > 0) || !(ib.low > 0)) return {value, {not_a_number, not_a_number}};
    return {value, {ib.low / it.high, ib.high / it.low}};
}

} // namespace

phase_figures summarize_phase(const std::vector<const phase_sample*>& samples, std::uint64_t bytes,
                              double noise_cv, unsigned noise_min_samples, double precision_target) {
    phase_figures f;
    f.n = samples.size();
    f.bytes = bytes;
    std::vector<const phase_sample*> clean;
    for (const phase_sample* p : samples) {
        if (is_disturbed(*p))
            ++f.disturbed;
        else
            clean.push_back(p);
        add_rank_accounting(f.total, p->accounting);
    }
    const bool use_clean = f.disturbed == 0 || clean.size() >= min_undisturbed;
    const std::vector<const phase_sample*>& used = use_clean ? clean : samples;
    f.used = used.size();
    f.on_disturbed = !use_clean;
    std::vector<double> user, sys;
    for (const phase_sample* p : used) {
        // Resting on disturbed samples: each one's net time, what it took
        // less what something outside took from it.
        const double outside = outside_s(*p);
        f.used_times.push_back(use_clean ? p->wall_s : p->wall_s - outside);
        f.used_outside_s.push_back(use_clean ? outside : 0);
        user.push_back(p->user_s);
        sys.push_back(p->sys_s);
    }
    const summary s = summarize(f.used_times);
    f.median_s = s.median;
    f.min_s = s.min;
    f.mean_s = s.mean;
    f.stddev_s = s.stddev;
    f.cv = s.cv;
    f.outliers = iqr_outliers(f.used_times);
    f.high_cv = s.n >= 2 && s.cv > noise_cv;
    f.few_samples = s.n < noise_min_samples;
    std::vector<double> sorted = f.used_times;
    std::sort(sorted.begin(), sorted.end());
    const interval ci = median_interval(sorted);
    f.ci_low_s = ci.low;
    f.ci_high_s = ci.high;
    f.precision = f.median_s > 0 ? (ci.high - ci.low) / 2 / f.median_s : not_a_number;
    f.imprecise = f.precision > precision_target; // false without an interval (NaN)
    f.throughput_mb_s = s.n > 0 ? throughput_mb_s(bytes, s.median) : not_a_number;
    f.user_s = median_of(std::move(user));
    f.sys_s = median_of(std::move(sys));
    return f;
}

void summarize_case(case_result& c, double noise_cv, unsigned noise_min_samples) {
    case_figures& f = c.figures;
    const auto baseline_index = f.baseline_index;
    const speedup_estimate ws = f.write_speedup, rs = f.read_speedup;
    const std::size_t pooled = f.write_pooled_n;
    f = case_figures{};
    f.computed = true;
    for (const bool write : {true, false}) {
        std::vector<const phase_sample*> samples;
        for (const repetition& r : c.samples)
            samples.push_back(write ? &r.write : &r.read);
        phase_figures& p = write ? f.write : f.read;
        p = summarize_phase(samples, phase_bytes(c, write), noise_cv, noise_min_samples,
                            c.spec.params.precision);
        p.metrics = metric_medians(c, write);
        p.ranks = rank_spread_medians(c, write);
        if (c.status == case_status::ok)
            for (std::string& line : findings(p, write, noise_cv, noise_min_samples, c.spec.params.precision))
                f.noise.push_back(std::move(line));
    }
    f.size_ratio = size_ratio(c);
    f.resident_fraction = median_resident_fraction(c);
    f.latency = latency_medians(c);
    // (kept until summarize_study computes them again)
    f.baseline_index = baseline_index;
    f.write_speedup = ws;
    f.read_speedup = rs;
    f.write_pooled_n = pooled;
}

std::optional<case_stop> enough_samples(const case_result& c, double elapsed_s, std::size_t max_repetitions) {
    const run_params& p = c.spec.params;
    const std::size_t n = c.samples.size();
    if (p.repeat > 0) {
        if (n >= p.repeat && elapsed_s >= p.min_time) return case_stop::repeat;
    } else if (n >= auto_min_repetitions && elapsed_s >= p.min_time) {
        auto precise = [&](const phase_figures& f) { return f.precision <= p.precision; };
        if (precise(c.figures.write) && precise(c.figures.read)) return case_stop::precision;
        if (elapsed_s >= p.max_time) return case_stop::budget;
    }
    if (n >= max_repetitions) return case_stop::limit;
    return std::nullopt;
}

std::vector<double> shared_write_times(const std::vector<case_result>& all, const case_result& c) {
    std::vector<double> out;
    bool self = false;
    for (const case_result& o : all) {
        if (o.status != case_status::ok && &o != &c) continue;
        if (&o == &c || (!c.spec.identity.empty() && same_but_cache(o.spec.identity, c.spec.identity))) {
            self |= &o == &c;
            out.insert(out.end(), o.figures.write.used_times.begin(), o.figures.write.used_times.end());
        }
    }
    if (!self) out = c.figures.write.used_times; // c is not one of `all`
    return out;
}

speedup_estimate pair_speedup(const std::vector<case_result>& all, const case_result& slower,
                              const case_result& faster, bool write) {
    if (&slower == &faster) return {1.0, {1.0, 1.0}};
    if (write) return estimate_speedup(shared_write_times(all, slower), shared_write_times(all, faster));
    return estimate_speedup(slower.figures.read.used_times, faster.figures.read.used_times);
}

std::string same_write_key(const case_spec& c) {
    // append, not (a + '\n' + b): GCC 12 warns falsely (-Wrestrict) on that.
    std::string key = c.dataset.name;
    key.append("\n").append(c.format.plugin).append("\n").append(canonical_options(c.format.options));
    return key.append("\n").append(work_key(c.params, work_side::write));
}

speedup_estimate shared_write_speedup(const case_result& slower, const case_result& faster) {
    if (&slower == &faster) return {1.0, {1.0, 1.0}};
    const phase_figures& s =
        slower.figures.shared_write.n ? slower.figures.shared_write : slower.figures.write;
    const phase_figures& f =
        faster.figures.shared_write.n ? faster.figures.shared_write : faster.figures.write;
    return estimate_speedup(s.used_times, f.used_times);
}

namespace {

// case_figures::shared_write for every case: summarized once per group of
// ok cases that wrote the same way; a case not ok has its own.
void summarize_shared_writes(std::vector<case_result>& cases, double noise_cv, unsigned noise_min_samples) {
    std::unordered_map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < cases.size(); ++i)
        if (cases[i].status == case_status::ok) groups[same_write_key(cases[i].spec)].push_back(i);
    auto summarize_write = [&](const std::vector<std::size_t>& members) {
        std::vector<const phase_sample*> samples;
        for (std::size_t j : members)
            for (const repetition& rep : cases[j].samples)
                samples.push_back(&rep.write);
        const case_result& c = cases[members.front()];
        return summarize_phase(samples, phase_bytes(c, true), noise_cv, noise_min_samples,
                               c.spec.params.precision);
    };
    // A case alone (most of a large record) has its own write: copied, not
    // summarized again.
    for (const auto& [key, members] : groups) {
        const phase_figures shared =
            members.size() == 1 ? cases[members.front()].figures.write : summarize_write(members);
        for (std::size_t j : members)
            cases[j].figures.shared_write = shared;
    }
    for (case_result& c : cases)
        if (c.status != case_status::ok) c.figures.shared_write = c.figures.write;
}

// shared_write_times for every case at once, in O(cases): the cases are
// grouped by their identity without the read cache.
std::vector<std::vector<double>> all_shared_write_times(const std::vector<case_result>& cases) {
    std::unordered_map<std::string, std::vector<std::size_t>> groups;
    std::vector<const std::vector<std::size_t>*> group_of(cases.size(), nullptr);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        if (cases[i].spec.identity.empty()) continue;
        case_identity id;
        for (const auto& e : cases[i].spec.identity)
            if (e.first != "run.cache") id.push_back(e);
        auto& g = groups[key_text(id)];
        g.push_back(i);
    }
    for (auto& [key, g] : groups)
        for (std::size_t i : g)
            group_of[i] = &g;
    std::vector<std::vector<double>> out(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const case_result& c = cases[i];
        if (!group_of[i]) {
            out[i] = c.figures.write.used_times;
            continue;
        }
        for (std::size_t j : *group_of[i]) {
            const case_result& o = cases[j];
            if (o.status != case_status::ok && j != i) continue;
            out[i].insert(out[i].end(), o.figures.write.used_times.begin(), o.figures.write.used_times.end());
        }
    }
    return out;
}

} // namespace

void summarize_cases(std::vector<case_result>& cases, double noise_cv, unsigned noise_min_samples,
                     const std::string& baseline) {
    for (case_result& c : cases)
        summarize_case(c, noise_cv, noise_min_samples);
    summarize_shared_writes(cases, noise_cv, noise_min_samples);
    const std::vector<std::vector<double>> pooled = all_shared_write_times(cases);
    // The cases that may be a baseline, by data set: find_baseline looks
    // only at them.
    std::unordered_map<std::string, std::vector<const case_result*>> candidates;
    for (const case_result& c : cases)
        if (label_matches(c.spec.format, baseline)) candidates[c.spec.dataset.name].push_back(&c);
    const std::vector<const case_result*> none;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        case_result& c = cases[i];
        case_figures& f = c.figures;
        f.baseline_index.reset();
        f.write_speedup = f.read_speedup = {not_a_number, {not_a_number, not_a_number}};
        f.write_pooled_n = pooled[i].size();
        const auto it = candidates.find(c.spec.dataset.name);
        const case_result* base = find_baseline(it == candidates.end() ? none : it->second, c, baseline);
        if (!base) continue;
        f.baseline_index = base->spec.index;
        if (base == &c) {
            const double one = c.samples.empty() ? not_a_number : 1.0;
            f.write_speedup = f.read_speedup = {one, {one, one}};
            continue;
        }
        const std::size_t b = static_cast<std::size_t>(base - cases.data());
        f.write_speedup = estimate_speedup(pooled[b], pooled[i]);
        f.read_speedup = estimate_speedup(base->figures.read.used_times, f.read.used_times);
    }
}

machine_state summarize_machine(const study_result& r) {
    machine_state m;
    m.cpus = r.context.cores;
    m.load_before = r.context.load_before;
    m.load_after = r.context.load_after;
    for (const case_result& c : r.cases) {
        if (c.status != case_status::ok) continue;
        for (const repetition& rep : c.samples)
            for (const phase_sample* p : {&rep.write, &rep.read}) {
                ++m.samples;
                m.disturbed += is_disturbed(*p);
                m.timed_s += p->wall_s;
                m.outside_s += outside_s(*p);
            }
    }
    // The load is recorded and said, but does not decide: it counts tasks
    // in uninterruptible sleep too and can stand far above the CPUs while
    // hardly a sample is disturbed. The samples' own accounting is what the
    // figures suffered.
    m.busy = m.samples > 0 && 4 * m.disturbed >= m.samples;
    return m;
}

std::optional<std::string> machine_state_line(const machine_state& m) {
    if (!m.busy) return std::nullopt;
    std::string load;
    if (m.load_before >= 0)
        load = fmt::format("load {:.2f} on {} CPUs when the run began{}; ", m.load_before, m.cpus,
                           m.load_after >= 0 ? fmt::format(", {:.2f} when it ended", m.load_after) : "");
    return fmt::format(
        "busy machine: {}{} of {} samples ({:.0f}%) disturbed, other processes took {:.1f}% of the timed "
        "time; estimates rest on the undisturbed samples where 6 or more were, the others are marked ~ and "
        "their speed-ups are not called significant; more repetitions do not remove this, a quieter "
        "machine does",
        load, m.disturbed, m.samples,
        100.0 * static_cast<double>(m.disturbed) / static_cast<double>(m.samples),
        m.timed_s > 0 ? 100 * m.outside_s / m.timed_s : 0.0);
}

void summarize_study(study_result& r) {
    summarize_cases(r.cases, r.spec.noise_cv, r.spec.noise_min_samples, r.spec.baseline);
}

} // namespace formatbench

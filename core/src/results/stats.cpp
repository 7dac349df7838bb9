// Sample statistics and the Mann-Whitney U test (see stats.hpp).
//
// The p-value of mann_whitney_p is two-sided. Two methods, chosen by the data:
//  - exact: when both samples have at most exact_limit values and no value
//    occurs twice in the pooled data, the null distribution of U is counted
//    exactly (every assignment of ranks is equally likely) with a small dynamic
//    programme; p = min(1, 2 * min(P(U <= u), P(U >= u))). Benchmarks usually
//    have 5-20 repetitions, where the normal approximation is poorest.
//  - normal approximation otherwise: z = (|U - n1 n2 / 2| - 1/2) / sigma with
//    the tie-corrected sigma^2 = n1 n2 / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1)))
//    and p = 2 * (1 - Phi(z)), Phi from boost::math::normal.
#include "results/stats.hpp"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace formatbench {
namespace {

// Largest sample size (per side) for which the exact distribution is used.
// C(40, 20) ~ 1.4e11 ways, which doubles count without rounding.
inline constexpr std::size_t exact_limit = 20;

// Number of rank assignments giving each value of U (0 .. n1*n2) for samples
// of sizes n1 and n2, by the recurrence f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u):
// the largest pooled value belongs either to the first sample (it then beats
// all j values of the second) or to the second.
std::vector<double> u_frequencies(std::size_t n1, std::size_t n2) {
    const std::size_t umax = n1 * n2;
    // table[i][j] is the frequency vector for sizes (i, j); keep one row of i.
    std::vector<std::vector<double>> prev(n2 + 1), cur(n2 + 1);
    for (std::size_t j = 0; j <= n2; ++j) { // i = 0: U = 0 only
        prev[j].assign(umax + 1, 0.0);
        prev[j][0] = 1.0;
    }
    for (std::size_t i = 1; i <= n1; ++i) {
        cur[0].assign(umax + 1, 0.0);
        cur[0][0] = 1.0; // j = 0: U = 0 only
        for (std::size_t j = 1; j <= n2; ++j) {
            cur[j].assign(umax + 1, 0.0);
            for (std::size_t u = 0; u <= i * j; ++u) {
                double v = cur[j - 1][u];
                if (u >= j) v += prev[j][u - j];
                cur[j][u] = v;
            }
        }
        std::swap(prev, cur);
    }
    return prev[n2];
}

// The median of v, reordering it.
double median_in_place(std::vector<double>& v) {
    const std::size_t n = v.size(), mid = n / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (n % 2) return upper;
    return std::midpoint(*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)), upper);
}

} // namespace

double quantile_sorted(const std::vector<double>& samples, double q) {
    if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double h = (static_cast<double>(samples.size()) - 1) * std::clamp(q, 0.0, 1.0);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, samples.size() - 1);
    return samples[lo] + (h - static_cast<double>(lo)) * (samples[hi] - samples[lo]);
}

double quantile(std::vector<double> samples, double q) {
    std::sort(samples.begin(), samples.end());
    return quantile_sorted(samples, q);
}

latency_summary summarize_latencies(std::vector<double> latencies_ns, std::uint64_t bytes,
                                    double clock_cost_ns) {
    latency_summary s;
    s.ops = latencies_ns.size();
    s.bytes = bytes;
    s.clock_cost_ns = clock_cost_ns;
    if (latencies_ns.empty()) return s;
    std::sort(latencies_ns.begin(), latencies_ns.end());
    s.min_ns = latencies_ns.front();
    s.max_ns = latencies_ns.back();
    double sum = 0;
    for (double x : latencies_ns)
        sum += x;
    s.mean_ns = sum / static_cast<double>(latencies_ns.size());
    s.p50_ns = quantile_sorted(latencies_ns, 0.50);
    s.p90_ns = quantile_sorted(latencies_ns, 0.90);
    s.p99_ns = quantile_sorted(latencies_ns, 0.99);
    s.p999_ns = quantile_sorted(latencies_ns, 0.999);
    s.cdf_ns.reserve(101);
    for (int k = 0; k <= 100; ++k)
        s.cdf_ns.push_back(quantile_sorted(latencies_ns, k / 100.0));
    return s;
}

std::size_t iqr_outliers(const std::vector<double>& samples) {
    if (samples.size() < 4) return 0;
    const double q1 = quantile(samples, 0.25), q3 = quantile(samples, 0.75), iqr = q3 - q1;
    return static_cast<std::size_t>(std::count_if(
        samples.begin(), samples.end(), [&](double x) { return x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr; }));
}

interval bootstrap_speedup_interval(const std::vector<double>& baseline, const std::vector<double>& times,
                                    std::size_t resamples, double level, std::uint64_t seed) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    if (baseline.empty() || times.empty() || resamples == 0) return {nan, nan};
    std::mt19937_64 rng(seed);
    std::vector<double> ratios, b(baseline.size()), t(times.size());
    ratios.reserve(resamples);
    for (std::size_t k = 0; k < resamples; ++k) {
        for (double& x : b)
            x = baseline[rng() % baseline.size()];
        for (double& x : t)
            x = times[rng() % times.size()];
        const double mb = median_in_place(b), mt = median_in_place(t);
        if (!(mb > 0) || !(mt > 0)) return {nan, nan};
        ratios.push_back(mb / mt);
    }
    return {quantile(ratios, (1 - level) / 2), quantile(std::move(ratios), (1 + level) / 2)};
}

summary summarize(std::vector<double> samples) {
    summary s;
    s.n = samples.size();
    if (samples.empty()) {
        // No samples (a failed case): nothing to report; NaN prints as "-"
        // and is written as null in JSON, never mistaken for a zero time.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        s.min = s.median = s.mean = s.stddev = s.cv = nan;
        return s;
    }
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    s.min = samples.front();
    // std::midpoint: (a + b) / 2 overflows for values near the largest double.
    s.median = n % 2 == 1 ? samples[n / 2] : std::midpoint(samples[n / 2 - 1], samples[n / 2]);
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
    if (n > 1) {
        // Two-pass sum of squared deviations: no cancellation for times that
        // are large compared with their spread.
        double ss = 0;
        for (double x : samples)
            ss += (x - s.mean) * (x - s.mean);
        s.stddev = std::sqrt(ss / static_cast<double>(n - 1));
    }
    s.cv = s.mean != 0 ? s.stddev / s.mean : std::numeric_limits<double>::quiet_NaN();
    return s;
}

double mann_whitney_p(const std::vector<double>& a_all, const std::vector<double>& b_all) {
    // A non-finite time (null in a record) has no rank: it is left out, so
    // the tie loop below always advances (NaN equals nothing, not even
    // itself).
    auto finite = [](const std::vector<double>& v) {
        std::vector<double> out;
        for (double x : v)
            if (std::isfinite(x)) out.push_back(x);
        return out;
    };
    const std::vector<double> a = finite(a_all), b = finite(b_all);
    const std::size_t n1 = a.size(), n2 = b.size();
    if (n1 == 0 || n2 == 0) return 1.0;

    // Pool, sort, assign mid-ranks to ties; accumulate the tie term.
    struct item {
        double value;
        bool first;
    };
    std::vector<item> pooled;
    pooled.reserve(n1 + n2);
    for (double x : a)
        pooled.push_back({x, true});
    for (double x : b)
        pooled.push_back({x, false});
    std::sort(pooled.begin(), pooled.end(), [](const item& l, const item& r) { return l.value < r.value; });
    const std::size_t n = pooled.size();
    double rank_sum_a = 0, tie_term = 0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && pooled[j].value == pooled[i].value)
            ++j;
        const double t = static_cast<double>(j - i);
        const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (std::size_t k = i; k < j; ++k)
            if (pooled[k].first) rank_sum_a += mid_rank;
        tie_term += t * t * t - t;
        i = j;
    }
    const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2), dn = static_cast<double>(n);
    const double u = rank_sum_a - d1 * (d1 + 1) / 2; // U of the first sample
    const double mu = d1 * d2 / 2;

    if (tie_term == 0 && n1 <= exact_limit && n2 <= exact_limit) {
        const std::vector<double> freq = u_frequencies(n1, n2);
        const double total = std::accumulate(freq.begin(), freq.end(), 0.0); // C(n1+n2, n1)
        const auto ui = static_cast<std::size_t>(std::llround(u));
        double lower = 0, upper = 0; // counts of U <= u and U >= u
        for (std::size_t k = 0; k < freq.size(); ++k) {
            if (k <= ui) lower += freq[k];
            if (k >= ui) upper += freq[k];
        }
        return std::min(1.0, 2 * std::min(lower, upper) / total);
    }

    const double variance = d1 * d2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
    if (!(variance > 0)) return 1.0; // every value equal: no evidence of a difference
    const double z = std::max(0.0, std::abs(u - mu) - 0.5) / std::sqrt(variance);
    const boost::math::normal standard;
    return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(standard, z)));
}

std::vector<double> write_times(const case_result& r) {
    std::vector<double> out;
    out.reserve(r.samples.size());
    for (const repetition& rep : r.samples)
        out.push_back(rep.write.wall_s);
    return out;
}

std::vector<double> read_times(const case_result& r) {
    std::vector<double> out;
    out.reserve(r.samples.size());
    for (const repetition& rep : r.samples)
        out.push_back(rep.read.wall_s);
    return out;
}

} // namespace formatbench

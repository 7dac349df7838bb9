// Noise rules and speed-up intervals (results/stats.hpp, results/noise.hpp)
// against hand-computed values: type-7 quartiles and Tukey's fences, CV and
// sample-count thresholds, the bootstrap interval pinned to values from an
// independent Python implementation of mt19937_64 (checked against the C++
// standard's 10000th-output value) and of the resampling, plus properties
// (the interval holds the point estimate and narrows with more samples),
// and the shared write phase of rows that differ only in cache.
#include "results/figures.hpp"
#include "results/noise.hpp"
#include "results/stats.hpp"
#include "results/summary.hpp"
#include "study/identity.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace formatbench;

namespace {

case_result timed(std::size_t index, const std::string& label, cache_mode cache, std::vector<double> writes,
                  std::vector<double> reads) {
    case_result r;
    r.spec.index = index;
    r.spec.dataset.name = "d";
    r.spec.format.label = r.spec.format.plugin = label;
    r.spec.params.cache = cache;
    for (std::size_t i = 0; i < writes.size(); ++i) {
        repetition rep;
        rep.write.wall_s = writes[i];
        rep.read.wall_s = reads[i];
        r.samples.push_back(rep);
    }
    return r;
}

const study_result& summarized(study_result& r) {
    summarize_study(r);
    return r;
}

// The figures of one phase of these wall times (no accounting: undisturbed).
phase_figures phase_of(const std::vector<double>& times, double noise_cv, unsigned noise_min_samples) {
    std::vector<phase_sample> samples(times.size());
    std::vector<const phase_sample*> ptrs;
    for (std::size_t i = 0; i < times.size(); ++i) {
        samples[i].wall_s = times[i];
        ptrs.push_back(&samples[i]);
    }
    return summarize_phase(ptrs, 0, noise_cv, noise_min_samples);
}

std::vector<std::string> findings(case_result c, double noise_cv, unsigned noise_min_samples) {
    summarize_case(c, noise_cv, noise_min_samples);
    return c.figures.noise;
}

} // namespace

TEST(Noise, QuartilesInterpolateLinearly) {
    // sorted 1 2 3 4 10: h = 4q; Q1 at h = 1 -> 2, Q3 at h = 3 -> 4
    EXPECT_DOUBLE_EQ(quantile({4, 1, 2, 10, 3}, 0.25), 2.0);
    EXPECT_DOUBLE_EQ(quantile({4, 1, 2, 10, 3}, 0.75), 4.0);
    // 1..8: Q1 at h = 1.75 -> 2.75, median at 3.5 -> 4.5
    EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4, 5, 6, 7, 8}, 0.25), 2.75);
    EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4, 5, 6, 7, 8}, 0.5), 4.5);
    EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

TEST(Noise, OutliersAreBeyondTukeysFences) {
    // Q1 2, Q3 4, IQR 2: fences [-1, 7]; 10 is out
    EXPECT_EQ(iqr_outliers({4, 1, 2, 10, 3}), 1u);
    // 1..7, 100: Q1 2.75, Q3 6.25, IQR 3.5: fences [-2.5, 11.5]; 100 is out
    EXPECT_EQ(iqr_outliers({1, 2, 3, 4, 5, 6, 7, 100}), 1u);
    // 7 sits on the fence of 1 2 3 4 7 (Q1 2, Q3 4: 4 + 3 = 7): not beyond it
    EXPECT_EQ(iqr_outliers({1, 2, 3, 4, 7}), 0u);
    EXPECT_EQ(iqr_outliers({1, 2, 3, 4, 7.01}), 1u);
    // Both sides: 0.1 and 50 around 10 11 12 13 14 (Q1 10, Q3 13 -> fences [5.5, 17.5])
    EXPECT_EQ(iqr_outliers({0.1, 10, 11, 12, 13, 14, 50}), 2u);
    EXPECT_EQ(iqr_outliers({1, 100, 1000}), 0u) << "fewer than 4 samples: no fences";
}

TEST(Noise, CvAndSampleThresholds) {
    // 9 11 9 11: mean 10, sample stddev sqrt(4/3) = 1.1547, CV 11.5%
    const phase_figures p = phase_of({9, 11, 9, 11}, 0.10, 5);
    EXPECT_EQ(p.n, 4u);
    EXPECT_NEAR(p.cv, 0.11547005383792516, 1e-12);
    EXPECT_TRUE(p.high_cv);
    EXPECT_TRUE(p.few_samples) << "4 < 5";
    EXPECT_EQ(p.outliers, 0u);
    const phase_figures q = phase_of({9, 11, 9, 11}, 0.12, 4);
    EXPECT_FALSE(q.high_cv) << "11.5% is not above 12%";
    EXPECT_FALSE(q.few_samples);
    EXPECT_FALSE(q.noisy());
    EXPECT_FALSE(phase_of({5}, 0.01, 1).high_cv) << "one sample has no CV";
}

TEST(Noise, FindingsNameThePhaseAndTheRule) {
    case_result c = timed(0, "x", cache_mode::warm, {1, 2, 3, 4, 10}, {1, 1, 1, 1, 1});
    const auto f = findings(c, 0.10, 5);
    ASSERT_EQ(f.size(), 1u) << "the read phase is steady";
    // write: mean 4, stddev sqrt(50/4) = 3.5355, CV 88.4%
    EXPECT_EQ(f[0], "write: CV 88.4% is above 10%; 1 of 5 samples is an outlier (beyond 1.5 IQR)");
    const auto few = findings(timed(0, "x", cache_mode::warm, {1, 1}, {2, 2}), 0.10, 3);
    ASSERT_EQ(few.size(), 2u);
    EXPECT_EQ(few[1], "read: only 2 samples (fewer than 3)");
    c.status = case_status::failed;
    EXPECT_TRUE(findings(c, 0.10, 5).empty()) << "a failed case is reported as failed, not as noisy";
}

TEST(Noise, BootstrapIntervalIsPinned) {
    // Values from /usr/bin/python3 with an independent mt19937_64 and the
    // same resampling (index = rng() % n, baseline side first, type-7
    // quantiles at 2.5% and 97.5% of 2000 ratios of medians).
    const interval a = bootstrap_speedup_interval({10, 11, 12, 13, 14}, {2, 2.1, 2.2, 1.9, 2.05});
    EXPECT_NEAR(a.low, 4.878048780487806, 1e-12);
    EXPECT_NEAR(a.high, 6.842105263157895, 1e-12);
    const interval b = bootstrap_speedup_interval({4e-3, 1e-3, 2e-3, 10e-3, 3e-3}, {0.5e-3, 0.5e-3, 0.5e-3});
    EXPECT_NEAR(b.low, 2.0, 1e-12);
    EXPECT_NEAR(b.high, 20.0, 1e-12);
    // Even sample counts: each resample's median is the midpoint of its two
    // middle values in order (a median taken from an unordered element moves
    // both ends of the interval a user reads as "5.3x [4.2, 8.3]").
    const interval even = bootstrap_speedup_interval({10, 13, 11, 16}, {2, 2.5, 1.5, 2.25, 3, 1.75});
    EXPECT_NEAR(even.low, 4.199761904761905, 1e-12);
    EXPECT_NEAR(even.high, 8.285714285714286, 1e-12);
    const interval none = bootstrap_speedup_interval({}, {1});
    EXPECT_TRUE(std::isnan(none.low) && std::isnan(none.high));
}

TEST(Noise, BootstrapIntervalHoldsTheEstimateAndNarrowsWithMoreSamples) {
    // The same spread (a sawtooth around 10 and 2) with 5 and with 50 samples.
    auto sample = [](double centre, std::size_t n) {
        std::vector<double> v;
        for (std::size_t i = 0; i < n; ++i)
            v.push_back(centre * (0.9 + 0.2 * static_cast<double>(i % 5) / 4));
        return v;
    };
    double last_width = INFINITY;
    for (std::size_t n : {5u, 20u, 50u}) {
        const auto b = sample(10, n), t = sample(2, n);
        const speedup_estimate e{speedup(b, t), bootstrap_speedup_interval(b, t)};
        EXPECT_NEAR(e.value, 5.0, 1e-12) << n;
        EXPECT_LE(e.ci.low, e.value) << n;
        EXPECT_GE(e.ci.high, e.value) << n;
        const double width = e.ci.high - e.ci.low;
        EXPECT_LT(width, last_width) << n << " samples";
        last_width = width;
    }
}

TEST(Noise, CacheRowsShareTheirWriteSamples) {
    // raw and zlib, each warm and cold: the write phase is the same
    // procedure in both (the cache step comes after it), so each pair's
    // write speed-up comes from the pooled writes of the pair.
    std::vector<case_result> all{timed(0, "raw", cache_mode::warm, {1, 1, 1}, {1, 1, 1}),
                                 timed(1, "raw", cache_mode::cold, {3, 3, 3}, {5, 5, 5}),
                                 timed(2, "zlib", cache_mode::warm, {2, 2, 2}, {2, 2, 2}),
                                 timed(3, "zlib", cache_mode::cold, {2, 2, 2}, {4, 4, 4})};
    std::vector<case_spec> specs;
    for (const auto& c : all)
        specs.push_back(c.spec);
    assign_identities(specs);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i].spec = specs[i];
    summarize_cases(all, 0.10, 1, "");
    EXPECT_EQ(shared_write_times(all, all[1]), (std::vector<double>{1, 1, 1, 3, 3, 3}));
    // pooled raw writes: median of 1 1 1 3 3 3 = 2; zlib 2: write speed-up 1 for warm and cold alike
    const speedup_estimate warm = pair_speedup(all, all[0], all[2], true),
                           cold = pair_speedup(all, all[1], all[3], true);
    EXPECT_DOUBLE_EQ(warm.value, 1.0);
    EXPECT_DOUBLE_EQ(cold.value, 1.0);
    EXPECT_EQ(warm.ci.low, cold.ci.low);
    EXPECT_EQ(warm.ci.high, cold.ci.high);
    // reads are not shared: 1/2 and 5/4
    EXPECT_DOUBLE_EQ(pair_speedup(all, all[0], all[2], false).value, 0.5);
    EXPECT_DOUBLE_EQ(pair_speedup(all, all[1], all[3], false).value, 1.25);
}

TEST(Noise, ShortRewarmsAreNamedUnderInterleaveAndShuffleOnly) {
    study_result r;
    r.spec.schedule = schedule_mode::interleave;
    // Re-warms of medians 2 + 1 = 3 ms and 30 + 30 = 60 ms (hand-computed).
    r.cases.push_back(timed(0, "fast", cache_mode::warm, {0.003, 0.002, 0.001}, {0.001, 0.001, 0.001}));
    r.cases.push_back(timed(1, "slow", cache_mode::warm, {0.030, 0.030, 0.030}, {0.030, 0.030, 0.030}));
    auto f = short_rewarm_finding(summarized(r));
    ASSERT_TRUE(f.has_value());
    EXPECT_NE(f->find("schedule interleave: 1 of 2 cases re-warm for less than 50 ms"), std::string::npos)
        << *f;
    EXPECT_NE(f->find("shortest: case 0, 'fast', 3 ms"), std::string::npos) << *f;
    EXPECT_NE(f->find("set warmup_time: 50ms"), std::string::npos) << *f;

    // A warmup_time of 50 ms makes the fast case's re-warm long enough.
    r.cases[0].spec.params.warmup_time = 0.05;
    EXPECT_FALSE(short_rewarm_finding(summarized(r)).has_value());
    r.cases[0].spec.params.warmup_time = 0.049;
    ASSERT_TRUE(short_rewarm_finding(summarized(r)).has_value());
    EXPECT_NE(short_rewarm_finding(summarized(r))->find("'fast', 49 ms"), std::string::npos)
        << *short_rewarm_finding(summarized(r));
    r.cases[0].spec.params.warmup_time = 0;

    // Both short: the shorter one is named.
    r.spec.schedule = schedule_mode::shuffle;
    r.cases[1] = timed(1, "faster", cache_mode::warm, {0.001}, {0.0005});
    f = short_rewarm_finding(summarized(r));
    ASSERT_TRUE(f.has_value());
    EXPECT_NE(f->find("schedule shuffle: 2 of 2 cases"), std::string::npos) << *f;
    EXPECT_NE(f->find("case 1, 'faster', 1.5 ms"), std::string::npos) << *f;

    // A failed case does not count; sequential never re-warms; one case
    // has no neighbour.
    r.cases[1].status = case_status::failed;
    f = short_rewarm_finding(summarized(r));
    ASSERT_TRUE(f.has_value());
    EXPECT_NE(f->find("1 of 2 cases"), std::string::npos) << *f;
    r.spec.schedule = schedule_mode::sequential;
    EXPECT_FALSE(short_rewarm_finding(summarized(r)).has_value());
    r.spec.schedule = schedule_mode::interleave;
    r.cases.pop_back();
    EXPECT_FALSE(short_rewarm_finding(summarized(r)).has_value());
}

// The machine's state (summary.hpp): busy when a quarter or more of the ok
// cases' samples were disturbed (the load is said, not counted); one line
// then says what was measured. By hand: 2 of 8 samples
// disturbed (wait 0.5 s of 1 s phases), 1.0 s of 8 s timed = 12.5%.
TEST(Noise, ABusyMachineIsSaidOnce) {
    study_result r;
    r.context.cores = 2;
    r.context.load_before = 1.5;
    r.context.load_after = 1.25;
    r.cases.push_back(timed(0, "a", cache_mode::warm, {1, 1}, {1, 1}));
    r.cases.push_back(timed(1, "b", cache_mode::warm, {1, 1}, {1, 1}));
    for (phase_sample* p : {&r.cases[0].samples[0].write, &r.cases[1].samples[1].read}) {
        p->accounting.measured = true;
        p->accounting.cpus = 2;
        p->accounting.wait_s = p->accounting.thread_wait_s = 0.5;
    }
    machine_state m = summarize_machine(r);
    EXPECT_EQ(m.samples, 8u);
    EXPECT_EQ(m.disturbed, 2u);
    EXPECT_TRUE(m.busy);
    const auto line = machine_state_line(m);
    ASSERT_TRUE(line);
    EXPECT_EQ(line->rfind("busy machine: load 1.50 on 2 CPUs when the run began, 1.25 when it ended; 2 of 8 "
                          "samples (25%) disturbed, other processes took 12.5% of the timed time",
                          0),
              0u)
        << *line;
    // One disturbed sample of 8 and a load below the CPUs: quiet, no line.
    r.cases[1].samples[1].read.accounting.wait_s = r.cases[1].samples[1].read.accounting.thread_wait_s = 0;
    m = summarize_machine(r);
    EXPECT_FALSE(m.busy);
    EXPECT_FALSE(machine_state_line(m));
    // A load far above the CPUs alone does not make it busy.
    r.context.load_before = r.context.load_after = 60;
    EXPECT_FALSE(summarize_machine(r).busy);
    r.cases[1].samples[1].read.accounting.wait_s = r.cases[1].samples[1].read.accounting.thread_wait_s = 0.5;
    EXPECT_TRUE(summarize_machine(r).busy);
    // And a busy machine's noise warning advises no repetitions.
    summarize_study(r);
    const noise_summary s = summarize_noise(r.cases, 5);
    const auto text = noise_summary_text(s, 0.10, 5, false, true);
    ASSERT_TRUE(text);
    EXPECT_NE(text->find("more repetitions do not steady"), std::string::npos) << *text;
    EXPECT_EQ(text->find("--set repeat="), std::string::npos) << *text;
}

// The cost model (results/cost_model.hpp): the relative-error weighted fit
// on exact points and on noisy ones (expected values from numpy, below), the
// non-negative fit, the valid range on synthetic timings made here from
// known costs, crossover counts computed by hand, and the grouping of a
// count sweep's cases by format.
#include "report/table.hpp"
#include "report/table_layout.hpp"
#include "results/cost_model.hpp"
#include "results/summary.hpp"
#include "study/identity.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace formatbench;

TEST(CostModel, ExactPointsGiveTheirLine) {
    // t = 40 us + 1.7 ns * n at 10^3 .. 10^6
    const std::vector<double> n{1e3, 1e4, 1e5, 1e6};
    std::vector<double> t;
    for (double x : n)
        t.push_back(40e-6 + 1.7e-9 * x);
    const auto f = fit_relative(n, t);
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->a, 40e-6, 40e-6 * 1e-9);
    EXPECT_NEAR(f->b, 1.7e-9, 1.7e-9 * 1e-9);
    EXPECT_NEAR(f->r2, 1.0, 1e-12);
    EXPECT_LT(f->max_rel_residual, 1e-12);
}

TEST(CostModel, NoisyPointsMatchNumpy) {
    // numpy: W = diag(1/t^2), X = [1, n]; (a, b) = solve(X'WX, X'Wt);
    // R^2 = 1 - sum w (t - f)^2 / sum w (t - sum(w t) / sum w)^2
    //   -> a 3.967826962104802e-05, b 1.744200495403266e-09,
    //      R^2 0.9891513633524754, max |t - f| / t 0.09846681875155157
    const auto f = fit_relative({1e3, 1e4, 1e5, 1e6}, {45e-6, 52e-6, 220e-6, 1.80e-3});
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->a, 3.967826962104802e-05, 1e-15);
    EXPECT_NEAR(f->b, 1.744200495403266e-09, 1e-19);
    EXPECT_NEAR(f->r2, 0.9891513633524754, 1e-9);
    EXPECT_NEAR(f->max_rel_residual, 0.09846681875155157, 1e-9);
}

TEST(CostModel, DegenerateInputsGiveNoFit) {
    EXPECT_FALSE(fit_relative({1e3}, {1e-3}));
    EXPECT_FALSE(fit_relative({1e3, 1e3, 1e3}, {1e-3, 2e-3, 3e-3})) << "one count";
    EXPECT_FALSE(fit_relative({1e3, 1e4}, {1e-3, 0})) << "a zero time";
}

TEST(CostModel, NonNegativeFitNeverGivesANegativeCost) {
    // t = 2 ns * n - 1 us: the free fit's fixed cost is -1 us (exact points).
    const std::vector<double> n{1e4, 1e5, 1e6, 1e7};
    std::vector<double> t;
    for (double x : n)
        t.push_back(2e-9 * x - 1e-6);
    const auto free = fit_relative(n, t);
    ASSERT_TRUE(free);
    EXPECT_NEAR(free->a, -1e-6, 1e-15);
    // Through the origin: b = sum(n / t) / sum((n / t)^2) = 1.970381e-9 (by
    // hand, python), largest residual at n = 10^4: |19 - 19.70| / 19 = 3.70%.
    const auto f = fit_relative_nonnegative(n, t);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->a, 0);
    EXPECT_NEAR(f->b, 1.970381431238452e-09, 1e-18);
    EXPECT_NEAR(f->max_rel_residual, 0.03704285854655356, 1e-9);
    // Falling times: b would be negative; a constant instead, a = sum(1/t) /
    // sum(1/t^2) = (1 + 1/2) / (1 + 1/4) = 1.2 (ms).
    const auto c = fit_relative_nonnegative({1e3, 1e4}, {2e-3, 1e-3});
    ASSERT_TRUE(c);
    EXPECT_EQ(c->b, 0);
    EXPECT_NEAR(c->a, 1.2e-3, 1e-15);
}

namespace {

// fit_cost_models over cases summarized as a run leaves them.
std::vector<cost_fit> fit_summarized(std::vector<case_result> cases) {
    summarize_cases(cases, 0.10, 5, "");
    return fit_cost_models(cases);
}

// Cases of one format "f" at the counts given, one sample each, write time
// t(n) and read time t(n) / 2, with identities assigned as the plan does.
std::vector<case_result> sweep(const std::vector<double>& counts, const std::function<double(double)>& t,
                               const std::string& label = "f") {
    std::vector<case_result> cases;
    for (double n : counts) {
        case_result r;
        r.spec.index = cases.size();
        r.spec.dataset.name = "d" + std::to_string(static_cast<long long>(n));
        r.spec.dataset.count = static_cast<std::uint64_t>(n);
        r.spec.format.label = r.spec.format.plugin = label;
        const double time = t(n); // once per count: t may draw noise
        repetition rep;
        rep.write.wall_s = time;
        rep.read.wall_s = time / 2;
        r.samples = {rep};
        cases.push_back(r);
    }
    std::vector<case_spec> specs;
    for (const auto& c : cases)
        specs.push_back(c.spec);
    assign_identities(specs);
    for (std::size_t i = 0; i < cases.size(); ++i)
        cases[i].spec = specs[i];
    return cases;
}

} // namespace

TEST(CostModel, ATableSplitForTheWidthRepeatsFormatAndPhase) {
    // At 60 columns the eight columns do not fit in one table; each part
    // must start with the format and the phase, or a part's write and read
    // rows of one format could not be told apart.
    const std::vector<double> counts{1000, 10000, 100000};
    const auto fits = fit_summarized(sweep(counts, [](double n) { return 50e-6 + 2e-9 * n; }));
    const auto tables = detail::lay_out_plain(detail::cost_model_table(fits), 60);
    ASSERT_GE(tables.size(), 2u);
    for (const auto& t : tables) {
        ASSERT_GE(t.header.size(), 3u);
        EXPECT_EQ(t.header[0], "format");
        EXPECT_EQ(t.header[1], "phase");
        ASSERT_EQ(t.rows.size(), 2u);
        EXPECT_EQ(t.rows[0][1], "write");
        EXPECT_EQ(t.rows[1][1], "read");
        EXPECT_LE(t.width(), 60u);
    }
}

TEST(CostModel, ValidRangeStopsWhereTheLineStopsHoldingAbove) {
    // t = 50 us + 2 ns * n up to n = 250000, then 50 us + 6 ns * n (the data
    // no longer fit a cache). From 250000 to 750000 the time grows 8.3x for
    // 3x the count, which no line a + b n with a, b >= 0 can follow, so the
    // valid range is 1000 .. 250000, 6 counts; a range said to reach
    // 2500000 would have users extrapolate 2 ns per value where it costs 6.
    const std::vector<double> counts{1000, 2500, 10000, 25000, 75000, 250000, 750000, 2500000};
    const auto cases = sweep(counts, [](double n) { return 50e-6 + (n <= 250000 ? 2e-9 : 6e-9) * n; });
    const auto fits = fit_summarized(cases);
    ASSERT_EQ(fits.size(), 2u);
    const cost_fit& w = fits[0];
    ASSERT_TRUE(w.linear);
    EXPECT_EQ(w.valid_min_count, 1000u);
    EXPECT_EQ(w.valid_max_count, 250000u);
    EXPECT_EQ(w.points, 6u);
    EXPECT_NEAR(w.fit.a, 50e-6, 1e-12);
    EXPECT_NEAR(w.fit.b, 2e-9, 1e-15);
    EXPECT_EQ(detail::cost_model_table(fits).rows[0][6], "1000..250000 (6)");
}

TEST(CostModel, ValidRangeRecoversKnownCostsAboveAFloor) {
    // t = 50 us + 2 ns * n, but never under a floor of 100 us (as min_time
    // or a set-up path makes small cases), times 1 +- 1% of deterministic
    // noise. The line meets the floor at n = 25000; below it the floor is
    // 30% or more above the line (n = 10^4: 100 vs 70 us), so the valid
    // range is 25000 .. 2500000, 5 counts.
    const double a = 50e-6, b = 2e-9;
    const std::vector<double> counts{250, 2500, 10000, 25000, 75000, 250000, 750000, 2500000};
    const std::vector<double> noise{1, -1, 0.5, -0.5, 0, 1, -1, 0.5};
    std::size_t i = 0;
    const auto cases =
        sweep(counts, [&](double n) { return std::max(100e-6, a + b * n) * (1 + 0.01 * noise[i++]); });
    const auto fits = fit_summarized(cases);
    ASSERT_EQ(fits.size(), 2u);
    const cost_fit& w = fits[0];
    ASSERT_TRUE(w.linear);
    EXPECT_NEAR(w.fit.a, a, 0.05 * a);
    EXPECT_NEAR(w.fit.b, b, 0.05 * b);
    EXPECT_EQ(w.valid_min_count, 25000u);
    EXPECT_EQ(w.valid_max_count, 2500000u);
    EXPECT_EQ(w.points, 5u);
    EXPECT_EQ(w.counts, 8u);
    EXPECT_EQ(w.min_count, 250u);
    EXPECT_EQ(w.max_count, 2500000u);
    EXPECT_LE(w.fit.max_rel_residual, cost_model_tolerance);
    EXPECT_GT(w.fit.r2, 0.99);
    // Every point over all counts, as before: the floor pulls the fixed
    // cost up and the line misses the small counts by far more than 15%.
    std::vector<double> t;
    for (const auto& c : cases)
        t.push_back(c.samples[0].write.wall_s);
    const auto all = fit_relative(counts, t);
    ASSERT_TRUE(all);
    EXPECT_GT(all->max_rel_residual, cost_model_tolerance);
    const auto table = detail::cost_model_table(fits);
    ASSERT_EQ(table.rows.size(), 2u);
    EXPECT_EQ(table.rows[0][6], "25000..2500000 (5)");
    EXPECT_EQ(table.rows[0][7], "250..2500000 (8)");
}

TEST(CostModel, NoLinearRangeSaysSoAndHasNoCrossover) {
    // t = 1 us * sqrt(n) over five decades: a line through any 3 consecutive
    // decades misses one by 36.5% (by hand, python).
    auto cases = sweep(
        {1e3, 1e4, 1e5, 1e6, 1e7}, [](double n) { return 1e-6 * std::sqrt(n); }, "sqrt");
    // A linear format, t = 1 ns n, equals it at n = 10^6, inside the counts.
    auto other = sweep(
        {1e3, 1e4, 1e5, 1e6, 1e7}, [](double n) { return 1e-9 * n; }, "line");
    for (auto& c : other) {
        c.spec.index += cases.size();
        cases.push_back(c);
    }
    std::vector<case_spec> specs;
    for (const auto& c : cases)
        specs.push_back(c.spec);
    assign_identities(specs);
    for (std::size_t i = 0; i < cases.size(); ++i)
        cases[i].spec = specs[i];
    const auto fits = fit_summarized(cases);
    ASSERT_EQ(fits.size(), 4u);
    const cost_fit& s = fits[0];
    EXPECT_EQ(s.label, "sqrt");
    EXPECT_FALSE(s.linear);
    EXPECT_EQ(s.points, 0u);
    EXPECT_EQ(s.valid_min_count, 0u);
    EXPECT_NEAR(s.fit.max_rel_residual, 0.365, 0.001) << "how far its best 3 counts are from a line";
    EXPECT_TRUE(fits[1].linear);
    EXPECT_TRUE(find_crossovers(fits).empty()) << "no crossover from a group without a linear range";
    const auto table = detail::cost_model_table(fits);
    EXPECT_EQ(table.rows[0][2], "-");
    EXPECT_EQ(table.rows[0][6], "no linear range");
    const auto lines = detail::crossover_lines({}, fits);
    ASSERT_EQ(lines.size(), 2u) << "write and read of sqrt";
    EXPECT_NE(lines[0].find("sqrt write: no linear range"), std::string::npos) << lines[0];
}

TEST(CostModel, NegativeInterceptIsNeverReported) {
    // t = 2 ns n - 1 us at 10^4 .. 10^7: linear with a = 0, never "-1 us".
    const auto fits = fit_summarized(sweep({1e4, 1e5, 1e6, 1e7}, [](double n) { return 2e-9 * n - 1e-6; }));
    ASSERT_EQ(fits.size(), 2u);
    for (const cost_fit& f : fits) {
        ASSERT_TRUE(f.linear);
        EXPECT_GE(f.fit.a, 0);
        EXPECT_GE(f.fit.b, 0);
    }
    for (const auto& row : detail::cost_model_table(fits).rows) {
        EXPECT_EQ(row[2], "0 \u00b5s");
        EXPECT_EQ(row[3].find('-'), std::string::npos) << row[3];
    }
}

TEST(CostModel, CrossoverByHand) {
    // raw 40 us + 1.7 ns/value, text 10 us + 44 ns/value:
    // n* = (10e-6 - 40e-6) / (1.7e-9 - 44e-9) = 30e-6 / 42.3e-9 = 709.2198...
    const linear_fit raw{40e-6, 1.7e-9, 1, 0}, text{10e-6, 44e-9, 1, 0};
    const auto n = crossover_count(raw, text);
    ASSERT_TRUE(n);
    EXPECT_NEAR(*n, 709.2198581560284, 1e-9);
    EXPECT_FALSE(crossover_count(raw, {60e-6, 44e-9, 1, 0})) << "raw is faster at every count";

    cost_fit a, b;
    a.label = "raw", b.label = "text";
    a.fit = raw, b.fit = text;
    a.linear = b.linear = true;
    a.valid_min_count = b.valid_min_count = 500;
    a.valid_max_count = b.valid_max_count = 1000000;
    const auto found = find_crossovers({a, b});
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].small, "text") << "the smaller fixed cost wins below n*";
    EXPECT_EQ(found[0].large, "raw");
    EXPECT_NEAR(found[0].count, 709.2198581560284, 1e-9);
    b.setting = "other dtype";
    EXPECT_TRUE(find_crossovers({a, b}).empty()) << "only fits of the same setting are compared";
    b.setting = a.setting;
    a.valid_min_count = 710; // n* 709 is just below raw's valid range: no extrapolation
    EXPECT_TRUE(find_crossovers({a, b}).empty());
    a.valid_min_count = 709; // and now inside both
    EXPECT_EQ(find_crossovers({a, b}).size(), 1u);
    b.valid_max_count = 700; // above text's valid range
    EXPECT_TRUE(find_crossovers({a, b}).empty());
    b.valid_max_count = 1000000;
    b.linear = false; // no linear range: no crossover
    EXPECT_TRUE(find_crossovers({a, b}).empty());
}

TEST(CostModel, FitsEachFormatOfACountSweep) {
    // raw and text at 3 counts each (exact lines), memory at 2 counts only.
    std::vector<case_result> cases;
    auto add = [&](const std::string& label, double n, double a, double b) {
        case_result r;
        r.spec.index = cases.size();
        r.spec.dataset.name = "d" + std::to_string(static_cast<long>(n));
        r.spec.dataset.count = static_cast<std::uint64_t>(n);
        r.spec.format.label = r.spec.format.plugin = label;
        repetition rep;
        rep.write.wall_s = a + b * n;
        rep.read.wall_s = (a + b * n) / 2;
        r.samples = {rep};
        cases.push_back(r);
    };
    for (double n : {1e2, 1e3, 1e5}) {
        add("raw", n, 40e-6, 1.7e-9);
        add("text", n, 10e-6, 44e-9);
    }
    add("memory", 1e3, 1e-6, 1e-10);
    add("memory", 1e5, 1e-6, 1e-10);
    std::vector<case_spec> specs;
    for (const auto& c : cases)
        specs.push_back(c.spec);
    assign_identities(specs);
    for (std::size_t i = 0; i < cases.size(); ++i)
        cases[i].spec = specs[i];
    const auto fits = fit_summarized(cases);
    ASSERT_EQ(fits.size(), 4u) << "raw and text, write and read; memory has 2 counts";
    EXPECT_EQ(fits[0].label, "raw");
    EXPECT_TRUE(fits[0].write);
    EXPECT_TRUE(fits[0].linear);
    EXPECT_NEAR(fits[0].fit.a, 40e-6, 1e-15);
    EXPECT_NEAR(fits[0].fit.b, 1.7e-9, 1e-20);
    EXPECT_EQ(fits[0].points, 3u);
    EXPECT_EQ(fits[0].valid_min_count, 100u);
    EXPECT_EQ(fits[0].valid_max_count, 100000u);
    EXPECT_EQ(fits[0].first_case, 0u);
    EXPECT_EQ(fits[1].label, "text");
    EXPECT_EQ(fits[1].first_case, 1u);
    EXPECT_FALSE(fits[2].write);
    EXPECT_NEAR(fits[2].fit.a, 20e-6, 1e-15) << "reads take half";
    const auto x = find_crossovers(fits);
    ASSERT_EQ(x.size(), 2u) << "write and read";
    EXPECT_NEAR(x[0].count, 709.2198581560284, 1e-6);
    EXPECT_NEAR(x[1].count, 709.2198581560284, 1e-6) << "halving both costs keeps n*";
}

TEST(CostModel, CasesReadBackWithoutIdentitiesAreGroupedByFormat) {
    // A record's cases come back without identities: they are recomputed,
    // so two formats are still two groups (not one mixed one).
    auto cases = sweep(
        {1e3, 1e4, 1e5}, [](double n) { return 40e-6 + 1.7e-9 * n; }, "raw");
    auto text = sweep(
        {1e3, 1e4, 1e5}, [](double n) { return 10e-6 + 44e-9 * n; }, "text");
    cases.insert(cases.end(), text.begin(), text.end());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        cases[i].spec.index = i;
        cases[i].spec.identity.clear();
    }
    const auto fits = fit_summarized(cases);
    ASSERT_EQ(fits.size(), 4u);
    EXPECT_EQ(fits[0].label, "raw");
    EXPECT_NEAR(fits[0].fit.a, 40e-6, 1e-15);
    EXPECT_EQ(fits[1].label, "text");
    EXPECT_EQ(fits[1].first_case, 3u);
    EXPECT_NEAR(fits[1].fit.b, 44e-9, 1e-18);
}

// The cost model (results/cost_model.hpp): the relative-error weighted fit
// on exact points and on noisy ones (expected values from numpy, below),
// crossover counts computed by hand, and the grouping of a count sweep's
// cases by format.
#include "results/cost_model.hpp"
#include "study/identity.hpp"

#include <gtest/gtest.h>

#include <cmath>

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
    a.min_count = b.min_count = 1000;
    a.max_count = b.max_count = 1000000;
    const auto found = find_crossovers({a, b});
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].small, "text") << "the smaller fixed cost wins below n*";
    EXPECT_EQ(found[0].large, "raw");
    EXPECT_NEAR(found[0].count, 709.2198581560284, 1e-9);
    b.setting = "other dtype";
    EXPECT_TRUE(find_crossovers({a, b}).empty()) << "only fits of the same setting are compared";
    b.setting = a.setting;
    a.min_count = 1500; // n* 709 is less than half the smallest count both ran at
    EXPECT_TRUE(find_crossovers({a, b}).empty());
    a.min_count = 1400; // and now within a factor 2
    EXPECT_EQ(find_crossovers({a, b}).size(), 1u);
    b.fit.a = -1e-6; // a negative fixed cost: the line says nothing about small counts
    b.fit.b = 2e-9;  // (n* would be 41e-6 / 0.3e-9 = 136667)
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
    for (double n : {1e3, 1e5, 1e7}) {
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
    const auto fits = fit_cost_models(cases);
    ASSERT_EQ(fits.size(), 4u) << "raw and text, write and read; memory has 2 counts";
    EXPECT_EQ(fits[0].label, "raw");
    EXPECT_TRUE(fits[0].write);
    EXPECT_NEAR(fits[0].fit.a, 40e-6, 1e-15);
    EXPECT_NEAR(fits[0].fit.b, 1.7e-9, 1e-20);
    EXPECT_EQ(fits[0].points, 3u);
    EXPECT_EQ(fits[0].min_count, 1000u);
    EXPECT_EQ(fits[0].max_count, 10000000u);
    EXPECT_EQ(fits[1].label, "text");
    EXPECT_FALSE(fits[2].write);
    EXPECT_NEAR(fits[2].fit.a, 20e-6, 1e-15) << "reads take half";
    const auto x = find_crossovers(fits);
    ASSERT_EQ(x.size(), 2u) << "write and read";
    EXPECT_NEAR(x[0].count, 709.2198581560284, 1e-6);
    EXPECT_NEAR(x[1].count, 709.2198581560284, 1e-6) << "halving both costs keeps n*";
}

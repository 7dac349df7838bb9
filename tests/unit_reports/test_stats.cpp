// Statistics against hand-computed values; Mann-Whitney p-values against an
// independent computation (see each test).
#include "results/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace formatbench;

TEST(Summarize, OddCount) {
    // {1,2,3,4,10}: median 3, mean 4, squared deviations 9+4+1+0+36 = 50,
    // variance 50/4 = 12.5, stddev sqrt(12.5), CV sqrt(12.5)/4.
    const summary s = summarize({10, 2, 4, 1, 3});
    EXPECT_EQ(s.n, 5u);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.mean, 4);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(12.5));
    EXPECT_DOUBLE_EQ(s.cv, std::sqrt(12.5) / 4);
}

TEST(Summarize, EvenCountMedianIsMidpoint) {
    // {1,2,3,4}: median 2.5, mean 2.5, variance (2.25+0.25+0.25+2.25)/3 = 5/3.
    const summary s = summarize({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.mean, 2.5);
    EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));
    EXPECT_DOUBLE_EQ(s.cv, std::sqrt(5.0 / 3.0) / 2.5);
}

TEST(Summarize, SingleSampleHasNoSpread) {
    const summary s = summarize({0.25});
    EXPECT_EQ(s.n, 1u);
    EXPECT_DOUBLE_EQ(s.min, 0.25);
    EXPECT_DOUBLE_EQ(s.median, 0.25);
    EXPECT_DOUBLE_EQ(s.mean, 0.25);
    EXPECT_DOUBLE_EQ(s.stddev, 0);
    EXPECT_DOUBLE_EQ(s.cv, 0);
}

TEST(Summarize, EmptyIsNaN) {
    const summary s = summarize({});
    EXPECT_EQ(s.n, 0u);
    EXPECT_TRUE(std::isnan(s.median));
    EXPECT_TRUE(std::isnan(s.mean));
    EXPECT_TRUE(std::isnan(s.stddev));
}

TEST(Summarize, LargeOffsetDoesNotCancel) {
    // Times of 1e9 +- 1: a one-pass sum of squares would lose the spread.
    const summary s = summarize({1e9 - 1, 1e9, 1e9 + 1});
    EXPECT_DOUBLE_EQ(s.stddev, 1);
}

// Exact p-values below were obtained independently with a Python 3 one-off
// (standard library only) that enumerates all C(n1+n2, n1) assignments of the
// pooled sorted values to the first sample with itertools.combinations,
// counts U for each and takes p = min(1, 2 min(P(U <= u), P(U >= u))).
TEST(MannWhitney, ExactSeparatedSamples) {
    // U = 0: only 1 of C(10,5) = 252 assignments is as extreme on each side: 2/252.
    EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252.0, 1e-15);
    EXPECT_NEAR(mann_whitney_p({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}), 2.0 / 252.0, 1e-15);
}

TEST(MannWhitney, ExactInterleaved) {
    // Enumeration: 0.6904761904761905 (U = 10).
    EXPECT_NEAR(mann_whitney_p({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}), 0.6904761904761905, 1e-12);
}

TEST(MannWhitney, ExactUnequalSizes) {
    // Enumeration: 0.013986013986013986 (U = 4, n1 = 6, n2 = 7).
    EXPECT_NEAR(mann_whitney_p({1.0, 2.5, 3.1, 4.2, 7.7, 8.1}, {5.0, 6.2, 9.3, 9.9, 10.4, 11.8, 12.0}),
                0.013986013986013986, 1e-12);
}

TEST(MannWhitney, ExactTimesLikeABenchmark) {
    // n1 = 8, n2 = 12 (C(20, 8) = 125970 assignments). Enumeration: 0.031420179407795505 (U = 20).
    EXPECT_NEAR(
        mann_whitney_p({0.101, 0.143, 0.152, 0.170, 0.188, 0.121, 0.199, 0.131},
                       {0.150, 0.160, 0.175, 0.181, 0.190, 0.205, 0.210, 0.139, 0.220, 0.230, 0.165, 0.240}),
        0.031420179407795505, 1e-12);
}

TEST(MannWhitney, ExactUpToTwentyOnEachSideWhateverTheTotal) {
    // The exact distribution is used while each side has at most 20 values,
    // whatever the two add up to. A rule on the total (n1 + n2 <= 20) would
    // give these 10 against 12 the normal approximation's 0.0377970839 (a
    // compare that says p 0.038 where the exact answer is 0.036).
    // Enumeration of all C(22, 10) = 646646 assignments: 0.03582794914064264 (U = 28).
    EXPECT_NEAR(mann_whitney_p({0.101, 0.143, 0.152, 0.170, 0.188, 0.121, 0.199, 0.131, 0.212, 0.108},
                               {0.150, 0.160, 0.175, 0.181, 0.190, 0.205, 0.215, 0.139, 0.220, 0.230, 0.165,
                                0.240}),
                0.03582794914064264, 1e-12);
    // 20 against 20, the largest exact case: counted in Python by rank-sum
    // subsets (a dynamic programme over the ranks 1..40, checked against the
    // enumeration above): 0.03751917500043437 (U = 123); the normal
    // approximation would say 0.03851496043112122.
    std::vector<double> a, b;
    for (int i = 0; i < 20; ++i) {
        a.push_back(1.00 + 0.013 * i);
        b.push_back(1.05 + 0.0137 * i);
    }
    EXPECT_NEAR(mann_whitney_p(a, b), 0.03751917500043437, 1e-12);
    // One more value on the first side: the normal approximation, Python
    // (formula below): 0.02406466364978602.
    a.push_back(0.9);
    EXPECT_NEAR(mann_whitney_p(a, b), 0.02406466364978602, 1e-12);
}

// Normal-approximation p-values below were obtained with a Python 3 one-off
// using only the standard library: mid-ranks, U = R1 - n1(n1+1)/2,
// var = n1 n2 / 12 ((N+1) - sum(t^3 - t) / (N(N-1))),
// z = max(0, |U - n1 n2 / 2| - 0.5) / sqrt(var), p = math.erfc(z / sqrt(2)).
TEST(MannWhitney, NormalApproximationWithTies) {
    // Ties (2, 3 and 4 twice, 5 twice) force the approximation. Python: 0.02126693710559971.
    EXPECT_NEAR(mann_whitney_p({1, 2, 2, 3, 4}, {3, 4, 5, 5, 6, 7}), 0.02126693710559971, 1e-12);
}

TEST(MannWhitney, NormalApproximationLargeSamples) {
    // n1 = 25, n2 = 22 (above the exact limit of 20). Python: 0.009586761541013669 (U = 153).
    std::vector<double> a, b;
    for (int i = 0; i < 25; ++i)
        a.push_back(i);
    for (int i = 0; i < 22; ++i)
        b.push_back(i + 7.5);
    EXPECT_NEAR(mann_whitney_p(a, b), 0.009586761541013669, 1e-12);
    EXPECT_NEAR(mann_whitney_p(b, a), 0.009586761541013669, 1e-12);
}

TEST(MannWhitney, DegenerateCases) {
    EXPECT_EQ(mann_whitney_p({}, {1, 2}), 1.0);
    EXPECT_EQ(mann_whitney_p({1, 2}, {}), 1.0);
    EXPECT_EQ(mann_whitney_p({3, 3, 3}, {3, 3}), 1.0); // all tied: no evidence
    EXPECT_EQ(mann_whitney_p({1, 2, 3}, {1, 2, 3}), 1.0);
}

TEST(MannWhitney, IdenticalDistributionsAreNotSignificant) {
    std::vector<double> a, b;
    for (int i = 0; i < 20; ++i)
        (i % 2 ? a : b).push_back(i);
    EXPECT_GT(mann_whitney_p(a, b), 0.5);
}

TEST(PhaseTimes, ExtractWallSeconds) {
    const auto phase = [](double wall, double user, double sys) {
        phase_sample p;
        p.wall_s = wall;
        p.user_s = user;
        p.sys_s = sys;
        return p;
    };
    case_result r;
    r.samples = {{phase(0.5, 0.4, 0.1), phase(0.25, 0.2, 0.05), -1},
                 {phase(0.6, 0, 0), phase(0.3, 0, 0), 0.5}};
    EXPECT_EQ(write_times(r), (std::vector<double>{0.5, 0.6}));
    EXPECT_EQ(read_times(r), (std::vector<double>{0.25, 0.3}));
}

// A time that is not finite (null in a record) has no rank: the test
// leaves it out instead of looping on NaN's ties forever.
TEST(Stats, MannWhitneyLeavesNonFiniteValuesOut) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(formatbench::mann_whitney_p({1, nan, 2, 3}, {4, 5, nan, 6}),
              formatbench::mann_whitney_p({1, 2, 3}, {4, 5, 6}));
    EXPECT_EQ(formatbench::mann_whitney_p({nan, nan}, {1, 2}), 1.0) << "a side with nothing to rank";
}

// The median of two values near the largest double: their midpoint, not
// the overflowed (a + b) / 2.
TEST(Stats, MedianOfHugeValuesDoesNotOverflow) {
    const double big = 1e308;
    EXPECT_EQ(formatbench::summarize({big, big}).median, big);
    EXPECT_EQ(formatbench::summarize({big, big * 1.5}).median, big * 1.25);
}

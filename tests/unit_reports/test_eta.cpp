// The remaining-time estimate of the progress output against hand-computed
// values (the rule: docs/cli.md, "Progress").
#include "report/eta.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace formatbench;

namespace {

// Cases of one group (one format) that have not started, by payload.
double remaining(const std::vector<finished_case>& finished, const std::vector<std::uint64_t>& bytes) {
    std::vector<pending_case> left;
    for (std::uint64_t b : bytes)
        left.push_back({b, {}, 0});
    return estimate_remaining_s(finished, left);
}

} // namespace

TEST(Eta, EqualSizesIsMeanTimesCasesLeft) {
    // 3 cases of 8 MB took 6 s: 2 s each; 4 cases of 8 MB left: 8 s.
    EXPECT_DOUBLE_EQ(remaining({{8000000, 1}, {8000000, 2}, {8000000, 3}},
                                          {8000000, 8000000, 8000000, 8000000}),
                     8);
}

TEST(Eta, OnePayloadScalesBySize) {
    // Two 2 MB cases took 4 s and 6 s: mean 5 s per case, mean payload 2 MB.
    // Left: 4 MB (5 * 4/2 = 10 s) and 1 MB (5 * 1/2 = 2.5 s).
    EXPECT_DOUBLE_EQ(remaining({{2000000, 4}, {2000000, 6}}, {4000000, 1000000}), 12.5);
}

TEST(Eta, FixedCostIsNotScaledUp) {
    // Cases cost 0.2 s + 10 ns per byte (set-up and min_time, then bytes).
    // Finished: 10 kB (0.2001 s) and 100 kB (0.201 s). Left: one 1 MB case,
    // which takes 0.2 + 0.01 = 0.21 s.
    const std::vector<finished_case> done{{10000, 0.2001}, {100000, 0.201}};
    const double eta = remaining(done, {1000000});
    EXPECT_NEAR(eta, 0.21, 1e-9);
    // The mean-time rule it replaces: mean 0.20055 s per case, mean payload
    // 55 kB, so 0.20055 * 10^6 / 55000 = 3.646 s, 17 times too much.
    const double proportional = (0.2001 + 0.201) / 2 * 1e6 / 55000;
    EXPECT_NEAR(proportional, 3.6464, 1e-4);
    EXPECT_LT(eta, proportional / 10);
}

TEST(Eta, SeveralCasesOfAPayloadAreAveraged) {
    // Two formats at each payload: 1 kB takes 1 s and 3 s (mean 2), 3 kB
    // takes 2 s and 6 s (mean 4): the line through the means is 1 s + 1 ms
    // per byte (both means exactly on it). Left: 2 kB -> 3 s, 5 kB -> 6 s.
    EXPECT_NEAR(remaining({{1000, 1}, {1000, 3}, {3000, 2}, {3000, 6}}, {2000, 5000}), 9, 1e-9);
}

TEST(Eta, NoPayloadFallsBackToMeanTime) {
    // Finished cases of 0 bytes: 3 s each, unscaled; 2 left: 6 s.
    EXPECT_DOUBLE_EQ(remaining({{0, 3}, {0, 3}}, {5, 7}), 6);
}

TEST(Eta, NothingFinishedOrNothingLeft) {
    EXPECT_TRUE(std::isnan(remaining({}, {100})));
    EXPECT_DOUBLE_EQ(remaining({{100, 5}}, {}), 0);
}

TEST(Eta, NoExtrapolationBeyondTenfold) {
    // Finished: 1 kB in 0.2 s and 2 kB in 0.3 s: 0.1 s + 0.1 ms per byte.
    // Left 5 kB and 20 kB: within 10x of 2 kB, 0.6 + 2.1 = 2.7 s.
    EXPECT_NEAR(remaining({{1000, 0.2}, {2000, 0.3}}, {5000, 20000}), 2.7, 1e-9);
    // A 10 MB case left is 5000 times the largest finished: unknown.
    EXPECT_TRUE(std::isnan(remaining({{1000, 0.2}, {2000, 0.3}}, {5000, 10000000})));
    EXPECT_TRUE(std::isnan(remaining({{1000, 0.2}, {1000, 0.2}}, {10001})));
}

TEST(Eta, EachFormatFromItsOwnCasesOnceOneHasRun) {
    // raw's 1 MB case took 0.1 s, zlib's 3 s. Left: a 2 MB raw case (0.2 s
    // from raw's own case), a 2 MB zlib case (6 s), and a 1 MB ascii case,
    // of a format that has not run: from every finished case (mean 1.55 s
    // per 1 MB): 1.55 s. 7.75 s in all; from all cases alike it would be
    // 3 x 3.1 = 9.3 s.
    const std::vector<finished_case> done{{1000000, 0.1, "raw"}, {1000000, 3, "zlib"}};
    EXPECT_NEAR(estimate_remaining_s(done, {{2000000, "raw", 0}, {2000000, "zlib", 0}, {1000000, "ascii", 0}}),
                0.2 + 6 + 1.55, 1e-9);
}

TEST(Eta, ARunningCaseCountsDown) {
    // zlib's 1 MB case took 3 s; a 2 MB zlib case has run 4 s of its 6:
    // 2 s left, and after 7 s none (not negative).
    const std::vector<finished_case> done{{1000000, 3, "zlib"}};
    EXPECT_NEAR(estimate_remaining_s(done, {{2000000, "zlib", 4}}), 2, 1e-12);
    EXPECT_EQ(estimate_remaining_s(done, {{2000000, "zlib", 7}, {1000000, "zlib", 0}}), 3);
}

TEST(Eta, AFormatsOwnCasesBeyondTenfoldFallBackToAll) {
    // raw ran only 1 kB (0.01 s); its 1 MB case is 1000x that, too far
    // for raw's own cases, but all cases reach 1 MB: the line through
    // (1 kB, 0.01 s) and zlib's (1 MB, 2 s) gives 2 s (raw's own 1 kB case
    // scaled by size would say 10 s).
    const std::vector<finished_case> done{{1000, 0.01, "raw"}, {1000000, 2, "zlib"}};
    EXPECT_NEAR(estimate_remaining_s(done, {{1000000, "raw", 0}}), 2, 1e-9);
}

// The remaining-time estimate of the progress output against hand-computed
// values (the rule: docs/cli.md, "Progress").
#include "report/eta.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace formatbench;

TEST(Eta, EqualSizesIsMeanTimesCasesLeft) {
    // 3 cases of 8 MB took 6 s: 2 s each; 4 cases of 8 MB left: 8 s.
    EXPECT_DOUBLE_EQ(
        estimate_remaining(6, {8000000, 8000000, 8000000}, {8000000, 8000000, 8000000, 8000000}).seconds, 8);
}

TEST(Eta, ScaledBySize) {
    // Finished: 1 MB and 3 MB in 10 s together: mean 5 s per case, mean
    // payload 2 MB. Left: 4 MB (5 * 4/2 = 10 s) and 1 MB (5 * 1/2 = 2.5 s).
    EXPECT_DOUBLE_EQ(estimate_remaining(10, {1000000, 3000000}, {4000000, 1000000}).seconds, 12.5);
}

TEST(Eta, NoPayloadFallsBackToMeanTime) {
    // Finished cases of 0 bytes: 3 s each, unscaled; 2 left: 6 s.
    EXPECT_DOUBLE_EQ(estimate_remaining(6, {0, 0}, {5, 7}).seconds, 6);
}

TEST(Eta, NothingFinishedOrNothingLeft) {
    EXPECT_TRUE(std::isnan(estimate_remaining(0, {}, {100}).seconds));
    EXPECT_DOUBLE_EQ(estimate_remaining(5, {100}, {}).seconds, 0);
}

TEST(Eta, NoExtrapolationBeyondTenfold) {
    // Finished: two 1 kB cases in 0.4 s (0.2 s each, mean payload 1 kB).
    // Left: 5 kB (0.2 * 5 = 1 s, within 10x) and 10 MB, counted as 10 kB
    // only (0.2 * 10 = 2 s): 3 s, a lower bound.
    const remaining_time t = estimate_remaining(0.4, {1000, 1000}, {5000, 10000000});
    EXPECT_DOUBLE_EQ(t.seconds, 3);
    EXPECT_TRUE(t.lower_bound);
    // Within 10x of the largest finished: exact scaling, no bound.
    const remaining_time u = estimate_remaining(0.4, {1000, 1000}, {10000});
    EXPECT_DOUBLE_EQ(u.seconds, 2);
    EXPECT_FALSE(u.lower_bound);
}

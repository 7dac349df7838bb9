// The remaining-time estimate of the progress output against hand-computed
// values (the rule: docs/cli.md, "Progress").
#include "report/eta.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace formatbench;

TEST(Eta, EqualSizesIsMeanTimesCasesLeft) {
    // 3 cases of 8 MB took 6 s: 2 s each; 4 cases of 8 MB left: 8 s.
    EXPECT_DOUBLE_EQ(
        estimate_remaining_s(6, {8000000, 8000000, 8000000}, {8000000, 8000000, 8000000, 8000000}), 8);
}

TEST(Eta, ScaledBySize) {
    // Finished: 1 MB and 3 MB in 10 s together: mean 5 s per case, mean
    // payload 2 MB. Left: 4 MB (5 * 4/2 = 10 s) and 1 MB (5 * 1/2 = 2.5 s).
    EXPECT_DOUBLE_EQ(estimate_remaining_s(10, {1000000, 3000000}, {4000000, 1000000}), 12.5);
}

TEST(Eta, NoPayloadFallsBackToMeanTime) {
    // Finished cases of 0 bytes: 3 s each, unscaled; 2 left: 6 s.
    EXPECT_DOUBLE_EQ(estimate_remaining_s(6, {0, 0}, {5, 7}), 6);
}

TEST(Eta, NothingFinishedOrNothingLeft) {
    EXPECT_TRUE(std::isnan(estimate_remaining_s(0, {}, {100})));
    EXPECT_DOUBLE_EQ(estimate_remaining_s(5, {100}, {}), 0);
}

TEST(Eta, NoExtrapolationBeyondTenfold) {
    // Finished: two 1 kB cases in 0.4 s (0.2 s each, mean payload 1 kB).
    // Left 5 kB and 10 kB: within 10x, 0.2 * 5 + 0.2 * 10 = 3 s.
    EXPECT_DOUBLE_EQ(estimate_remaining_s(0.4, {1000, 1000}, {5000, 10000}), 3);
    // A 10 MB case left is 10^4 times the largest finished: unknown.
    EXPECT_TRUE(std::isnan(estimate_remaining_s(0.4, {1000, 1000}, {5000, 10000000})));
    EXPECT_TRUE(std::isnan(estimate_remaining_s(0.4, {1000, 1000}, {10001})));
}

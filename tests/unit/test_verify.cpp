// verify_chunk (verify.hpp) called directly, with expected values worked
// out by hand: where a difference is found, the exact largest absolute and
// relative errors, NaN payloads and signs, signed zeros, infinities and
// integer dtypes, and accumulation over chunks.
#include "run/verify.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace fb = formatbench;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

double nan_with_payload(std::uint64_t payload) {
    std::uint64_t bits = 0x7ff8000000000000ull | payload;
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

template <class T>
fb::verification verify(fb_dtype type, const std::vector<T>& expected, const std::vector<T>& actual) {
    fb::verification v;
    fb::verify_chunk(type, expected.data(), actual.data(), expected.size(), 0, v);
    return v;
}

} // namespace

TEST(verify_chunk, identical_data_has_no_mismatch) {
    std::vector<double> x = {1.5, -2, 0, 1e300};
    auto v = verify(FB_DTYPE_F64, x, x);
    EXPECT_TRUE(v.checked);
    EXPECT_EQ(v.compared, 4u);
    EXPECT_EQ(v.mismatches, 0u);
    EXPECT_EQ(v.max_abs_error, 0.0);
    EXPECT_EQ(v.max_rel_error, 0.0);
}

TEST(verify_chunk, a_difference_at_the_first_a_middle_or_the_last_index_is_found) {
    const std::size_t n = 1001;
    for (std::size_t at : {std::size_t{0}, std::size_t{500}, n - 1}) {
        SCOPED_TRACE(at);
        std::vector<double> e(n, 4.0), a(n, 4.0);
        a[at] = 5.0; // abs error 1, relative 1/4
        auto v = verify(FB_DTYPE_F64, e, a);
        EXPECT_EQ(v.compared, n);
        EXPECT_EQ(v.mismatches, 1u);
        EXPECT_EQ(v.max_abs_error, 1.0);
        EXPECT_EQ(v.max_rel_error, 0.25);
    }
    // The same for every integer width and f32.
    for (std::size_t at : {std::size_t{0}, std::size_t{7}, std::size_t{15}}) {
        std::vector<std::uint8_t> e8(16, 200), a8(16, 200);
        a8[at] = 190;
        auto v8 = verify(FB_DTYPE_U8, e8, a8);
        EXPECT_EQ(v8.mismatches, 1u);
        EXPECT_EQ(v8.max_abs_error, 10.0);
        EXPECT_EQ(v8.max_rel_error, 0.05); // 10 / 200
        std::vector<std::int32_t> e32(16, -8), a32(16, -8);
        a32[at] = -10;
        auto v32 = verify(FB_DTYPE_I32, e32, a32);
        EXPECT_EQ(v32.mismatches, 1u);
        EXPECT_EQ(v32.max_abs_error, 2.0);
        EXPECT_EQ(v32.max_rel_error, 0.25); // 2 / |-8|
        std::vector<float> ef(16, 0.5f), af(16, 0.5f);
        af[at] = 0.75f;
        auto vf = verify(FB_DTYPE_F32, ef, af);
        EXPECT_EQ(vf.mismatches, 1u);
        EXPECT_EQ(vf.max_abs_error, 0.25);
        EXPECT_EQ(vf.max_rel_error, 0.5); // 0.25 / 0.5
    }
}

TEST(verify_chunk, largest_errors_are_exact_and_relative_to_the_expected_value) {
    // expected  actual   abs    rel
    //   10       11      1      0.1
    //   -2       -3      1      0.5
    //  100       97      3      0.03
    //    1        1      -      -
    std::vector<double> e = {10, -2, 100, 1}, a = {11, -3, 97, 1};
    auto v = verify(FB_DTYPE_F64, e, a);
    EXPECT_EQ(v.mismatches, 3u);
    EXPECT_EQ(v.max_abs_error, 3.0);
    EXPECT_EQ(v.max_rel_error, 0.5);
    // Relative to the expected value, not the actual one: expected 1, actual
    // 4 is a relative error of 3 (dividing by the actual value gives 0.75).
    auto w = verify(FB_DTYPE_F64, std::vector<double>{1}, std::vector<double>{4});
    EXPECT_EQ(w.max_rel_error, 3.0);
    // An expected zero makes any difference infinitely large relatively.
    auto z = verify(FB_DTYPE_F64, std::vector<double>{0}, std::vector<double>{1e-300});
    EXPECT_EQ(z.max_abs_error, 1e-300);
    EXPECT_EQ(z.max_rel_error, inf);
    // i64 beyond 2^53: the difference of two large values is still exact.
    std::vector<std::int64_t> ei = {std::int64_t{1} << 60}, ai = {(std::int64_t{1} << 60) + 4096};
    auto vi = verify(FB_DTYPE_I64, ei, ai);
    EXPECT_EQ(vi.mismatches, 1u);
    EXPECT_EQ(vi.max_abs_error, 4096.0);
}

TEST(verify_chunk, nan_and_signed_zero_rules) {
    // NaN against a NaN of another payload: a bitwise mismatch, no error.
    auto p = verify(FB_DTYPE_F64, std::vector<double>{nan_with_payload(1)},
                    std::vector<double>{nan_with_payload(2)});
    EXPECT_EQ(p.mismatches, 1u);
    EXPECT_EQ(p.max_abs_error, 0.0);
    EXPECT_EQ(p.max_rel_error, 0.0);
    // The same NaN bits: no mismatch at all.
    auto same = verify(FB_DTYPE_F64, std::vector<double>{nan_with_payload(3)},
                       std::vector<double>{nan_with_payload(3)});
    EXPECT_EQ(same.mismatches, 0u);
    // NaN against a number, either way round: infinite error.
    auto n1 = verify(FB_DTYPE_F64, std::vector<double>{nan_with_payload(0)}, std::vector<double>{1.0});
    auto n2 = verify(FB_DTYPE_F64, std::vector<double>{1.0}, std::vector<double>{nan_with_payload(0)});
    for (const auto& v : {n1, n2}) {
        EXPECT_EQ(v.mismatches, 1u);
        EXPECT_EQ(v.max_abs_error, inf);
        EXPECT_EQ(v.max_rel_error, inf);
    }
    // +0 against -0: a bitwise mismatch, zero error.
    auto z = verify(FB_DTYPE_F64, std::vector<double>{0.0}, std::vector<double>{-0.0});
    EXPECT_EQ(z.mismatches, 1u);
    EXPECT_EQ(z.max_abs_error, 0.0);
    EXPECT_EQ(z.max_rel_error, 0.0);
    // f32 follows the same rules.
    auto zf = verify(FB_DTYPE_F32, std::vector<float>{-0.0f}, std::vector<float>{0.0f});
    EXPECT_EQ(zf.mismatches, 1u);
    EXPECT_EQ(zf.max_abs_error, 0.0);
}

TEST(verify_chunk, infinities) {
    // Equal infinities match; +inf against -inf, or inf against a number,
    // is an infinite error.
    EXPECT_EQ(verify(FB_DTYPE_F64, std::vector<double>{inf}, std::vector<double>{inf}).mismatches, 0u);
    auto opposite = verify(FB_DTYPE_F64, std::vector<double>{inf}, std::vector<double>{-inf});
    EXPECT_EQ(opposite.mismatches, 1u);
    EXPECT_EQ(opposite.max_abs_error, inf);
    EXPECT_EQ(opposite.max_rel_error, inf); // not inf / inf
    auto finite = verify(FB_DTYPE_F64, std::vector<double>{1e308}, std::vector<double>{inf});
    EXPECT_EQ(finite.max_abs_error, inf);
    EXPECT_EQ(finite.max_rel_error, inf);
}

TEST(verify_chunk, chunks_accumulate_counts_and_keep_the_largest_errors) {
    fb::verification v;
    std::vector<double> e1 = {1, 2, 3}, a1 = {1, 2.5, 3}; // abs 0.5, rel 0.25
    std::vector<double> e2 = {8, 8}, a2 = {10, 8};        // abs 2, rel 0.25
    std::vector<double> e3 = {0.5}, a3 = {0.25};          // abs 0.25, rel 0.5
    fb::verify_chunk(FB_DTYPE_F64, e1.data(), a1.data(), 3, 0, v);
    fb::verify_chunk(FB_DTYPE_F64, e2.data(), a2.data(), 2, 3, v);
    fb::verify_chunk(FB_DTYPE_F64, e3.data(), a3.data(), 1, 5, v);
    EXPECT_EQ(v.compared, 6u);
    EXPECT_EQ(v.mismatches, 3u);
    EXPECT_EQ(v.max_abs_error, 2.0);
    EXPECT_EQ(v.max_rel_error, 0.5);
}

TEST(verify_chunk, integer_dtypes_compare_every_element) {
    std::vector<std::int64_t> e(100), a(100);
    for (int i = 0; i < 100; ++i)
        e[i] = a[i] = i * 1000 - 50000;
    a[0] += 1;
    a[99] -= 3;
    auto v = verify(FB_DTYPE_I64, e, a);
    EXPECT_EQ(v.compared, 100u);
    EXPECT_EQ(v.mismatches, 2u);
    EXPECT_EQ(v.max_abs_error, 3.0);
    // Element 0 expects -50000 (rel 1/50000), element 99 expects 49000 (rel 3/49000).
    EXPECT_DOUBLE_EQ(v.max_rel_error, 3.0 / 49000.0);
}

// ---- Against a tolerance (lossy formats) --------------------------------------------

TEST(verify_chunk, tolerance_counts_the_values_outside_it_and_keeps_the_worst_by_its_multiple) {
    // Tolerance abs 0.1 + rel 0.01 x |written|: allowed 0.11 for 1, 0.2 for
    // 10, 1.1 for 100. Errors: 0.05 (in), 0.3 (1.5x of 0.2: out), 2.2 (2x of
    // 1.1: out, the worst, though 0.3 of element 4 is not the largest
    // error), 0.1 for 0 (allowed 0.1: in, the limit is inclusive).
    fb::verification v;
    v.tolerance.abs = 0.1;
    v.tolerance.rel = 0.01;
    std::vector<double> e1 = {1, 10}, a1 = {1.05, 10.3};
    std::vector<double> e2 = {7, 100, 0}, a2 = {7, 102.2, 0.1};
    fb::verify_chunk(FB_DTYPE_F64, e1.data(), a1.data(), 2, 3, v);
    fb::verify_chunk(FB_DTYPE_F64, e2.data(), a2.data(), 3, 5, v);
    EXPECT_EQ(v.compared, 5u);
    EXPECT_EQ(v.mismatches, 4u);
    EXPECT_EQ(v.outside_tolerance, 2u);
    EXPECT_EQ(v.worst_index, 6u); // 100 is element 1 of the chunk that starts at 5
    EXPECT_EQ(v.worst_written, 100.0);
    EXPECT_EQ(v.worst_read, 102.2);
    EXPECT_NEAR(v.worst_error, 2.2, 1e-12);
    EXPECT_NEAR(v.worst_excess, 2.0, 1e-12);
    // The range of the values written (0 .. 100) and the squared errors:
    // 0.05^2 + 0.3^2 + 2.2^2 + 0.1^2 = 4.9425 over 5 values.
    EXPECT_EQ(v.written_min, 0.0);
    EXPECT_EQ(v.written_max, 100.0);
    EXPECT_NEAR(v.rmse(), std::sqrt(4.9425 / 5), 1e-12);
    EXPECT_NEAR(v.psnr_db(), 20 * std::log10(100 / std::sqrt(4.9425 / 5)), 1e-9);
    EXPECT_NE(fb::tolerance_failure(v).find("2 of 5 values read back are outside the tolerance (abs 0.1, rel "
                                            "0.01); the worst is element 6: 100 written, 102.2"),
              std::string::npos)
        << fb::tolerance_failure(v);
}

TEST(verify_chunk, tolerance_of_rel_only_allows_no_error_on_zero) {
    fb::verification v;
    v.tolerance.rel = 0.5;
    std::vector<double> e = {4, 0, 2}, a = {5, 1e-300, 2.5}; // 4 -> 5 is 0.25x of 2 allowed: in
    fb::verify_chunk(FB_DTYPE_F64, e.data(), a.data(), 3, 0, v);
    EXPECT_EQ(v.outside_tolerance, 1u);
    EXPECT_EQ(v.worst_index, 1u);
    EXPECT_EQ(v.worst_excess, inf);
    EXPECT_NE(fb::tolerance_failure(v).find("where it may have none"), std::string::npos);
}

TEST(verify_chunk, without_a_tolerance_nothing_is_judged_and_the_range_is_not_scanned) {
    std::vector<double> e = {1, 2}, a = {1, 3};
    auto v = verify(FB_DTYPE_F64, e, a);
    EXPECT_EQ(v.outside_tolerance, 0u);
    EXPECT_NEAR(v.rmse(), std::sqrt(1.0 / 2), 1e-15);
    EXPECT_TRUE(std::isnan(v.psnr_db())); // no range noted
}

TEST(verify_chunk, an_infinite_error_makes_the_rmse_infinite_and_is_outside_any_tolerance) {
    fb::verification v;
    v.tolerance.abs = 1e300;
    std::vector<double> e = {1, 2}, a = {1, std::numeric_limits<double>::quiet_NaN()};
    fb::verify_chunk(FB_DTYPE_F64, e.data(), a.data(), 2, 0, v);
    EXPECT_EQ(v.outside_tolerance, 1u);
    EXPECT_EQ(v.infinite_errors, 1u);
    EXPECT_EQ(v.rmse(), inf);
    EXPECT_EQ(v.psnr_db(), -inf);
}

TEST(verify_chunk, exact_values_within_a_tolerance_have_an_infinite_psnr) {
    fb::verification v;
    v.tolerance.abs = 1;
    std::vector<std::int32_t> e = {-5, 5};
    fb::verify_chunk(FB_DTYPE_I32, e.data(), e.data(), 2, 0, v);
    EXPECT_EQ(v.rmse(), 0.0);
    EXPECT_EQ(v.psnr_db(), inf);
    EXPECT_EQ(v.written_min, -5.0);
    EXPECT_EQ(v.written_max, 5.0);
}

// Plan's estimates (run/estimate.hpp) against hand-computed values: file
// size bounds of binary and ascii cases (width, notation, precision,
// separator, dtype, generated uniform data), and run times from an earlier
// run's samples (same key; else scaled by count; repeat, warm-up, min_time).
#include "results/summary.hpp"
#include "run/estimate.hpp"
#include "study/identity.hpp"

#include <gtest/gtest.h>

namespace fb = formatbench;

namespace {

fb::case_spec make_case(const std::string& plugin, fb::dtype type, std::uint64_t count,
                        fb::option_list options = {}, fb::distribution dist = fb::distribution::uniform) {
    fb::case_spec c;
    c.dataset.name = "d";
    c.dataset.type = type;
    c.dataset.count = count;
    c.dataset.dist = dist;
    c.format.label = c.format.plugin = plugin;
    c.format.options = std::move(options);
    return c;
}

fb::case_result with_times(fb::case_spec c, std::vector<double> writes, std::vector<double> reads) {
    fb::case_result r;
    r.spec = std::move(c);
    for (std::size_t i = 0; i < writes.size(); ++i) {
        fb::repetition rep;
        rep.write.wall_s = writes[i];
        rep.read.wall_s = reads[i];
        r.samples.push_back(rep);
    }
    fb::summarize_case(r, 0.10, 5); // as loading a record does
    return r;
}

} // namespace

TEST(estimate, binary_bound_is_payload_plus_one_percent_and_64_kib) {
    // 1000 x 8 = 8000; + 8000 / 100 + 65536
    EXPECT_EQ(fb::file_size_bound(make_case("raw", FB_DTYPE_F64, 1000), nullptr), 8000u + 80u + 65536u);
    // 10^7 x 4 = 4e7; + 4e5 + 65536
    EXPECT_EQ(fb::file_size_bound(make_case("zlib", FB_DTYPE_I32, 10000000), nullptr),
              40000000u + 400000u + 65536u);
}

TEST(estimate, ascii_bound_follows_dtype_notation_and_options) {
    // shortest f64: 24 characters (-2.2250738585072014e-308) + 1 separator
    EXPECT_EQ(fb::file_size_bound(make_case("ascii", FB_DTYPE_F64, 1000), nullptr), 25000u);
    // shortest f32: 15 (-1.17549435e-38) + 1
    EXPECT_EQ(fb::file_size_bound(make_case("ascii", FB_DTYPE_F32, 1000), nullptr), 16000u);
    // fixed, precision 16, generated uniform in [0, 1): "0." + 16 digits = 18, + 1
    EXPECT_EQ(
        fb::file_size_bound(
            make_case("ascii", FB_DTYPE_F64, 1000, {{"notation", "fixed"}, {"precision", "16"}}), nullptr),
        19000u);
    // fixed, precision 16, normal data: sign + 309 digits + point + 16 = 327, + 1
    EXPECT_EQ(
        fb::file_size_bound(make_case("ascii", FB_DTYPE_F64, 1000,
                                      {{"notation", "fixed"}, {"precision", "16"}}, fb::distribution::normal),
                            nullptr),
        328000u);
    // scientific, precision 8, f32: sign, digit, point, 8 digits, e+38 = 15, + 1
    EXPECT_EQ(fb::file_size_bound(
                  make_case("ascii", FB_DTYPE_F32, 1000, {{"notation", "scientific"}, {"precision", "8"}}),
                  nullptr),
              16000u);
    // i32: 11 (-2147483648), but width 20 wins; + 1
    EXPECT_EQ(fb::file_size_bound(make_case("ascii", FB_DTYPE_I32, 1000, {{"width", "20"}}), nullptr),
              21000u);
    // u8: 3 + a two-character separator
    EXPECT_EQ(fb::file_size_bound(make_case("ascii", FB_DTYPE_U8, 1000, {{"separator", ", "}}), nullptr),
              5000u);
}

TEST(estimate, time_from_the_same_case) {
    fb::case_spec c = make_case("raw", FB_DTYPE_F64, 1000);
    c.params.repeat = 5;
    c.params.warmup = 1;
    std::vector<fb::case_spec> cs{c};
    fb::assign_identities(cs);
    // medians: write 2, read 1: 3 s per repetition; (5 + 1) x 3 = 18 s
    const std::vector<fb::case_result> earlier{with_times(cs[0], {1, 2, 3}, {1, 1, 1})};
    std::string source;
    auto t = fb::estimate_seconds(cs[0], earlier, &source);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(*t, 18.0);
    EXPECT_EQ(source, "same case");
    // min_time 60 s needs 20 repetitions of 3 s: (20 + 1) x 3 = 63 s
    cs[0].params.min_time = 60;
    t = fb::estimate_seconds(cs[0], earlier, &source);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(*t, 63.0);
    // warmup_time 10 s needs 4 warm-up repetitions of 3 s: (20 + 4) x 3 = 72 s
    cs[0].params.warmup_time = 10;
    t = fb::estimate_seconds(cs[0], earlier, &source);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(*t, 72.0);
}

TEST(estimate, time_scaled_from_the_nearest_count_of_the_same_format) {
    std::vector<fb::case_spec> cs{
        make_case("raw", FB_DTYPE_F64, 1000), make_case("raw", FB_DTYPE_F64, 100000),
        make_case("raw", FB_DTYPE_F64, 4000), make_case("mmap", FB_DTYPE_F64, 4000)};
    cs[1].dataset.name = "d5";
    cs[2].dataset.name = "d4k";
    cs[3].dataset.name = "d4k";
    for (auto& c : cs)
        c.params.repeat = 1, c.params.warmup = 0;
    fb::assign_identities(cs);
    const std::vector<fb::case_result> earlier{with_times(cs[0], {1}, {1}), with_times(cs[1], {50}, {50})};
    std::string source;
    // 4000 is nearer 1000 than 100000 (by ratio): 2 s x 4 = 8 s
    auto t = fb::estimate_seconds(cs[2], earlier, &source);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(*t, 8.0);
    EXPECT_EQ(source, "scaled from count 1000");
    EXPECT_FALSE(fb::estimate_seconds(cs[3], earlier)) << "no mmap case to scale from";
}

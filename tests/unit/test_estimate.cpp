// Plan's estimates (run/estimate.hpp) against hand-computed values: file
// size bounds of binary and ascii cases (width, notation, precision,
// separator, dtype, generated uniform data), and run times from an earlier
// run's samples (same key; else scaled by count; repeat, warm-up, min_time).
#include "results/summary.hpp"
#include "run/calibrate.hpp"
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

// Plan's calibration (run/calibrate.hpp): hand-computed scaling of the
// parts of a case's time from calibration runs at reduced counts.
namespace {

// A whole-array case's point: every part on the write side (the read
// side's parts 0), which scales them all by the count alike.
fb::calibration_point point(std::uint64_t n, double setup, double rep, double phases, double tail) {
    fb::calibration_point p;
    p.count = n;
    p.read_elements = static_cast<double>(n);
    p.setup_s = setup;
    p.write_part_s = rep;
    p.write_s = phases;
    p.tail_s = tail;
    return p;
}

} // namespace

TEST(estimate, calibration_scales_each_part_along_the_line_through_two_counts) {
    fb::case_spec c = make_case("raw", FB_DTYPE_F64, 1000000);
    c.params.repeat = 5;
    c.params.warmup = 1;
    c.params.min_time = 0;
    // setup: 0.05 s at 4e5, 0.02 s at 1e5: 0.01 + 1e-7 n, 0.11 s at 1e6;
    // repetition: 0.2 and 0.05: 5e-7 n, 0.5 s; phases 0.08, 0.02: 0.2 s;
    // tail 0.01 at both: 0.01 s. (5 + 1) x 0.5 + 0.11 + 0.01 = 3.12 s.
    const std::vector<fb::calibration_point> two{point(400000, 0.05, 0.2, 0.08, 0.01),
                                                 point(100000, 0.02, 0.05, 0.02, 0.01)};
    EXPECT_NEAR(*fb::calibrated_seconds(c, two), 3.12, 1e-9);
    // min_time 2 s: ceil(2 / 0.2) = 10 repetitions + 1 warm-up: 0.11 + 11 x 0.5 + 0.01 = 5.62 s.
    c.params.min_time = 2;
    EXPECT_NEAR(*fb::calibrated_seconds(c, two), 5.62, 1e-9);
    // warmup_time 1 s: ceil(1 / 0.2) = 5 warm-ups: 0.11 + 15 x 0.5 + 0.01 = 7.62 s.
    c.params.warmup_time = 1;
    EXPECT_NEAR(*fb::calibrated_seconds(c, two), 7.62, 1e-9);
}

TEST(estimate, calibration_with_one_point_scales_in_proportion_and_clamps_a_falling_line) {
    fb::case_spec c = make_case("raw", FB_DTYPE_F64, 1000000);
    c.params.repeat = 5;
    c.params.warmup = 1;
    // One point at 4e5: every part x 2.5: 0.125 + 6 x 0.5 + 0.025 = 3.15 s.
    EXPECT_NEAR(*fb::calibrated_seconds(c, {point(400000, 0.05, 0.2, 0.08, 0.01)}), 3.15, 1e-9);
    // The repetition took longer at the smaller count (noise): slope 0, 0.2 s
    // at any count: 0.11 + 6 x 0.2 + 0.01 = 1.32 s.
    EXPECT_NEAR(*fb::calibrated_seconds(
                    c, {point(400000, 0.05, 0.2, 0.08, 0.01), point(100000, 0.02, 0.3, 0.02, 0.01)}),
                1.32, 1e-9);
    // Its own count: the point as measured, 0.05 + 6 x 0.2 + 0.01 = 1.26 s.
    c.dataset.count = 400000;
    EXPECT_NEAR(*fb::calibrated_seconds(c, {point(400000, 0.05, 0.2, 0.08, 0.01)}), 1.26, 1e-9);
    EXPECT_FALSE(fb::calibrated_seconds(c, {}));
}

TEST(estimate, calibration_scales_a_read_by_the_elements_it_reads) {
    // 256^3 f64, random 1 MiB blocks (131072 f64), 500 operations:
    // 65536000 elements read, whatever the count.
    fb::case_spec c = make_case("raw", FB_DTYPE_F64, 16777216);
    c.dataset.shape = {256, 256, 256};
    c.params.access = fb::access_mode::random;
    c.params.access_block = 1 << 20;
    c.params.access_ops = 500;
    c.params.repeat = 3;
    c.params.warmup = 1;
    EXPECT_EQ(fb::elements_read(c), 65536000.0);
    // Calibrated with 8 operations (1048576 elements) at 102^3 and 64^3:
    // read part 0.10 s and 0.12 s, the same x: their mean 0.11 s x 62.5 =
    // 6.875 s; timed read 0.02 and 0.02: 1.25 s. Write side: write part
    // 0.02 s at 1061208, 0.005 s at 262144: b = 0.015 / 799064, a =
    // 0.02 - b x 1061208 = 0.0000785...; at 16777216: a + b x 16777216.
    fb::calibration_point hi, lo;
    hi.count = 1061208, lo.count = 262144;
    hi.read_elements = lo.read_elements = 1048576;
    hi.write_part_s = 0.02, lo.write_part_s = 0.005;
    hi.read_part_s = 0.10, lo.read_part_s = 0.12;
    hi.write_s = lo.write_s = 0.001;
    hi.read_s = lo.read_s = 0.02;
    const double b = 0.015 / 799064.0, a = 0.02 - b * 1061208.0;
    const double write_part = a + b * 16777216.0;
    // 3 repetitions + 1 warm-up, no setup or tail.
    EXPECT_NEAR(*fb::calibrated_seconds(c, {hi, lo}), 4 * (write_part + 6.875), 1e-9);
    // Planes: 16 planes of 256 x 256 of the 256^3 field.
    fb::case_spec planes = make_case("raw", FB_DTYPE_F64, 16777216);
    planes.dataset.shape = {256, 256, 256};
    planes.params.access = fb::access_mode::plane;
    planes.params.access_ops = 16;
    EXPECT_EQ(fb::elements_read(planes), 16.0 * 65536);
    EXPECT_EQ(fb::elements_read(make_case("raw", FB_DTYPE_F64, 1000)), 1000.0);
}

TEST(estimate, calibration_data_sets_shrink_large_payloads_and_keep_shapes) {
    // 10^6 f64 is 8 MB: 2 MiB / 8 = 262144 values, and a quarter, 65536.
    fb::case_spec flat = make_case("raw", FB_DTYPE_F64, 1000000);
    auto sets = fb::calibration_datasets(flat);
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].count, 262144u);
    EXPECT_EQ(sets[1].count, 65536u);
    // Small enough, or read from a file: as it is, once.
    EXPECT_EQ(fb::calibration_datasets(make_case("raw", FB_DTYPE_F64, 1000)).size(), 1u);
    fb::case_spec from_file = flat;
    from_file.dataset.file = "data.npy";
    ASSERT_EQ(fb::calibration_datasets(from_file).size(), 1u);
    EXPECT_EQ(fb::calibration_datasets(from_file)[0].count, 1000000u);
    // 256^3: each extent / (2^24 / 2^18)^(1/3) = 4: 64^3; the quarter:
    // 256 / 256^(1/3) = 40.3: 40^3 = 64000.
    fb::case_spec cube = make_case("raw", FB_DTYPE_F64, 16777216);
    cube.dataset.shape = {256, 256, 256};
    sets = fb::calibration_datasets(cube);
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].shape, (std::vector<std::uint64_t>{64, 64, 64}));
    EXPECT_EQ(sets[0].count, 262144u);
    EXPECT_EQ(sets[1].shape, (std::vector<std::uint64_t>{40, 40, 40}));
    EXPECT_EQ(sets[1].count, 64000u);
    // No extent below 32 (or its own): [4, 256, 256] to 2^18 keeps 4 and 32+.
    fb::case_spec slab = make_case("raw", FB_DTYPE_F64, 4 * 256 * 256);
    slab.dataset.shape = {4, 512, 512};
    slab.dataset.count = 4 * 512 * 512;
    sets = fb::calibration_datasets(slab);
    // (2^20 / 2^18)^(1/3) = 1.587: 4 stays 4 (its own), 512 / 1.587 = 322.5: 323.
    EXPECT_EQ(sets[0].shape, (std::vector<std::uint64_t>{4, 323, 323}));
    // Random 1 MiB blocks: at least 8 blocks (8 MiB, 2^20 f64) and 2 (2^18).
    fb::case_spec blocks = cube;
    blocks.params.access = fb::access_mode::random;
    blocks.params.access_block = 1 << 20;
    sets = fb::calibration_datasets(blocks);
    ASSERT_EQ(sets.size(), 2u);
    // 256 / 16^(1/3) = 101.6: 102^3; the quarter, 265302 values: 256 / 3.98 = 64.3: 64^3.
    EXPECT_EQ(sets[0].count, 102u * 102u * 102u);
    EXPECT_EQ(sets[1].count, 64u * 64u * 64u);
}

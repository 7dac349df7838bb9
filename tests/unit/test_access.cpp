// Access patterns (study/access.hpp) and per-operation latency summaries
// (results/stats.hpp) against values computed by hand or by an independent
// implementation (the Python lines in the comments).
#include "results/stats.hpp"
#include "study/access.hpp"
#include "study/reader.hpp"

#include "base/splitmix.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace fb = formatbench;

namespace {

fb::dataset_spec f64_data(std::uint64_t count, std::vector<std::uint64_t> shape = {}) {
    fb::dataset_spec d;
    d.name = "d";
    d.type = FB_DTYPE_F64;
    d.count = count;
    d.shape = std::move(shape);
    return d;
}

fb::run_params pattern(fb::access_mode m, std::uint64_t block, std::uint64_t ops = 0) {
    fb::run_params p;
    p.access = m;
    p.access_block = block;
    p.access_ops = ops;
    return p;
}

std::vector<std::uint64_t> offsets(const std::vector<fb::access_range>& r) {
    std::vector<std::uint64_t> out;
    for (const auto& x : r)
        out.push_back(x.offset);
    return out;
}

} // namespace

// SplitMix64's published first output from state 0 (java.util.SplittableRandom(0).nextLong()).
TEST(access, splitmix64_is_the_published_generator) {
    EXPECT_EQ(fb::splitmix64(0, 0), 0xE220A8397B1DCDAFull);
}

// 100 f64 in blocks of 80 B = 10 elements: 10 whole blocks. The offsets,
// from an independent Python SplitMix64:
//   M=2**64-1; mix=lambda z:(lambda z:(lambda
//   z:z^(z>>31))(((z^(z>>27))*0x94D049BB133111EB)&M))(((z^(z>>30))*0xBF58476D1CE4E5B9)&M)
//   [(mix((seed+(k+1)*0x9E3779B97F4A7C15)&M)*10>>64)*10 for k in range(8)]
TEST(access, random_offsets_are_pinned_for_a_seed) {
    auto p = pattern(fb::access_mode::random, 80, 8);
    auto a = fb::check_access(p, f64_data(100));
    ASSERT_EQ(a.error, "");
    EXPECT_EQ(offsets(fb::access_ranges(a.geometry, 100)),
              (std::vector<std::uint64_t>{50, 70, 90, 40, 40, 70, 80, 50}));
    p.access_seed = 7;
    a = fb::check_access(p, f64_data(100));
    EXPECT_EQ(offsets(fb::access_ranges(a.geometry, 100)),
              (std::vector<std::uint64_t>{30, 0, 90, 50, 40, 20, 40, 30}));
    for (const auto& r : fb::access_ranges(a.geometry, 100))
        EXPECT_EQ(r.count, 10u);
}

TEST(access, random_defaults_to_1000_operations) {
    auto a = fb::check_access(pattern(fb::access_mode::random, 4096), f64_data(100000));
    ASSERT_EQ(a.error, "");
    EXPECT_EQ(a.geometry.ops, 1000u);
    EXPECT_EQ(a.geometry.block, 512u);
}

// 25 f64 in blocks of 64 B = 8 elements: 0, 8, 16 and a last block of 1.
TEST(access, sequential_reads_every_block_with_a_short_last_one) {
    auto a = fb::check_access(pattern(fb::access_mode::sequential, 64), f64_data(25));
    ASSERT_EQ(a.error, "");
    const auto r = fb::access_ranges(a.geometry, 25);
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(offsets(r), (std::vector<std::uint64_t>{0, 8, 16, 24}));
    EXPECT_EQ(r[3].count, 1u);
    // Block sizes round down to whole elements: 70 B is 8 f64.
    EXPECT_EQ(fb::check_access(pattern(fb::access_mode::sequential, 70), f64_data(25)).geometry.block, 8u);
    EXPECT_NE(fb::check_access(pattern(fb::access_mode::sequential, 64, 5), f64_data(25))
                  .error.find("access_ops 5 is more than the 4 blocks"),
              std::string::npos);
}

// 100 f64, blocks of 4 elements every 24 elements: 0, 24, 48, 72, 96 fit
// (96 + 4 = 100); by default all five.
TEST(access, strided_offsets_by_hand) {
    auto p = pattern(fb::access_mode::strided, 32);
    p.access_stride = 192;
    auto a = fb::check_access(p, f64_data(100));
    ASSERT_EQ(a.error, "");
    EXPECT_EQ(offsets(fb::access_ranges(a.geometry, 100)), (std::vector<std::uint64_t>{0, 24, 48, 72, 96}));
    p.access_ops = 6;
    EXPECT_NE(fb::check_access(p, f64_data(100)).error.find("at most 5"), std::string::npos);
    p.access_stride = 0;
    p.access_ops = 0;
    EXPECT_NE(fb::check_access(p, f64_data(100)).error.find("needs access_stride"), std::string::npos);
}

// Planes of shape [3, 4, 6] along axis 2: index floor(x * 6 / 2^64), the
// same Python with *6 instead of *10 (no block scaling): [3, 4, 5, 2, 2].
TEST(access, plane_indices_by_hand) {
    fb::run_params p;
    p.access = fb::access_mode::plane;
    p.access_axis = 2;
    p.access_ops = 5;
    auto a = fb::check_access(p, f64_data(72, {3, 4, 6}));
    ASSERT_EQ(a.error, "");
    EXPECT_EQ(fb::access_planes(a.geometry), (std::vector<std::uint64_t>{3, 4, 5, 2, 2}));
    p.access_ops = 0; // default: min(1000, extent)
    EXPECT_EQ(fb::check_access(p, f64_data(72, {3, 4, 6})).geometry.ops, 6u);
    p.access_axis = 3;
    EXPECT_NE(fb::check_access(p, f64_data(72, {3, 4, 6})).error.find("access_axis 3 is not an axis"),
              std::string::npos);
    p.access_axis = 0;
    EXPECT_NE(fb::check_access(p, f64_data(72)).error.find("needs a data set with a shape"),
              std::string::npos);
}

TEST(access, a_block_smaller_than_an_element_or_larger_than_the_data_is_refused) {
    EXPECT_NE(fb::check_access(pattern(fb::access_mode::random, 4), f64_data(10))
                  .error.find("smaller than one f64"),
              std::string::npos);
    EXPECT_NE(fb::check_access(pattern(fb::access_mode::random, 4096), f64_data(10)).error.find("more than"),
              std::string::npos);
}

// Linear interpolation between closest ranks (numpy.percentile's default),
// by hand: sorted {10, 20, 30, 40, 1000}, rank h = 4p: p90 at h = 3.6 is
// 40 + 0.6 x 960 = 616; p99 at 3.96 is 961.6; p99.9 at 3.996 is 996.16.
TEST(latency, percentiles_of_a_scripted_list_by_hand) {
    const auto s = fb::summarize_latencies({40, 10, 30, 20, 1000}, 5 * 4096, 25);
    EXPECT_EQ(s.ops, 5u);
    EXPECT_EQ(s.bytes, 5u * 4096);
    EXPECT_DOUBLE_EQ(s.min_ns, 10);
    EXPECT_DOUBLE_EQ(s.max_ns, 1000);
    EXPECT_DOUBLE_EQ(s.mean_ns, 220);
    EXPECT_DOUBLE_EQ(s.p50_ns, 30);
    EXPECT_DOUBLE_EQ(s.p90_ns, 616);
    EXPECT_NEAR(s.p99_ns, 961.6, 1e-9);
    EXPECT_NEAR(s.p999_ns, 996.16, 1e-9);
    EXPECT_DOUBLE_EQ(s.clock_cost_ns, 25);
    ASSERT_EQ(s.cdf_ns.size(), 101u);
    EXPECT_DOUBLE_EQ(s.cdf_ns[0], 10);
    EXPECT_DOUBLE_EQ(s.cdf_ns[25], 20);
    EXPECT_DOUBLE_EQ(s.cdf_ns[100], 1000);
    fb::phase_sample p;
    p.latency = s;
    EXPECT_DOUBLE_EQ(p.iops(), 1e9 / 220);
}

TEST(shape, count_is_the_product_or_must_equal_it) {
    auto s = fb::load_study_text("datasets: [{shape: [3, 4, 5]}]\nformats: [memory]\n", "<t>");
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases[0].dataset.count, 60u);
    EXPECT_EQ(s.cases[0].dataset.shape, (std::vector<std::uint64_t>{3, 4, 5}));
    EXPECT_EQ(s.cases[0].dataset.name, "f64-uniform-3x4x5");
    try {
        fb::load_study_text("datasets: [{shape: [3, 4, 5], count: 61}]\nformats: [memory]\n", "<t>");
        FAIL() << "a count other than the shape's product was accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("shape [3, 4, 5] holds 60 elements, but count is 61"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(fb::load_study_text("datasets: [{shape: [3, 0]}]\nformats: [memory]\n", "<t>"),
                 std::exception);
    EXPECT_THROW(fb::load_study_text("datasets: [{shape: 7}]\nformats: [memory]\n", "<t>"), std::exception);
}

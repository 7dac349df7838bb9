// The MPI arithmetic without MPI: each rank's slice and paths
// (rank_plan.hpp) and how the ranks' reports become one figure
// (rank_aggregate.hpp), against hand-computed values.
#include "base/error.hpp"
#include "run/communicator.hpp"
#include "run/rank_aggregate.hpp"
#include "run/rank_plan.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace fb = formatbench;

namespace {

fb::case_spec make_case(fb::layout_mode layout, fb::scaling_mode scaling, unsigned shift,
                        std::uint64_t count) {
    fb::case_spec c;
    c.dataset.count = count;
    c.params.layout = layout;
    c.params.scaling = scaling;
    c.params.read_rank_shift = shift;
    return c;
}

fb::rank_report at(double started, double wall, double user = 0) {
    fb::rank_report r;
    r.report.started = started;
    r.report.sample.wall_s = wall;
    r.report.sample.user_s = user;
    return r;
}

TEST(rank_slice, weak_gives_each_rank_count_values_strong_divides_them) {
    using fb::scaling_mode;
    EXPECT_EQ(fb::rank_slice(scaling_mode::weak, 100, 0, 3).offset, 0u);
    EXPECT_EQ(fb::rank_slice(scaling_mode::weak, 100, 2, 3).offset, 200u);
    EXPECT_EQ(fb::rank_slice(scaling_mode::weak, 100, 2, 3).count, 100u);
    // 10 over 3 ranks: 4, 3, 3 at 0, 4, 7.
    const std::pair<std::uint64_t, std::uint64_t> want[] = {{0, 4}, {4, 3}, {7, 3}};
    for (unsigned r = 0; r < 3; ++r) {
        const auto s = fb::rank_slice(scaling_mode::strong, 10, r, 3);
        EXPECT_EQ(s.offset, want[r].first) << r;
        EXPECT_EQ(s.count, want[r].second) << r;
    }
    // Fewer values than ranks: the last ranks get none.
    EXPECT_EQ(fb::rank_slice(scaling_mode::strong, 2, 3, 4).count, 0u);
    EXPECT_EQ(fb::rank_slice(scaling_mode::strong, 2, 3, 4).offset, 2u);
}

TEST(plan_rank, paths_per_layout_and_the_rank_read_back) {
    using fb::layout_mode;
    using fb::scaling_mode;
    auto per_rank =
        fb::plan_rank(make_case(layout_mode::file_per_rank, scaling_mode::weak, 1, 50), {1, 3}, "d/f");
    EXPECT_EQ(per_rank.write_path, "d/f.1");
    EXPECT_EQ(per_rank.read_path, "d/f.2");
    EXPECT_EQ(per_rank.remove_path, "d/f.1");
    EXPECT_EQ(per_rank.write.offset, 50u);
    EXPECT_EQ(per_rank.read.offset, 100u); // rank 2's slice
    EXPECT_EQ(per_rank.total, 150u);
    EXPECT_FALSE(per_rank.shared);
    // The shift wraps: rank 2 of 3 with shift 4 reads rank (2 + 4) mod 3 = 0.
    auto wrap = fb::plan_rank(make_case(layout_mode::file_per_rank, scaling_mode::weak, 4, 50), {2, 3}, "f");
    EXPECT_EQ(wrap.read_path, "f.0");
    EXPECT_EQ(wrap.read.offset, 0u);
    auto shared1 =
        fb::plan_rank(make_case(layout_mode::shared_file, scaling_mode::strong, 0, 9), {1, 2}, "f");
    EXPECT_EQ(shared1.write_path, "f");
    EXPECT_EQ(shared1.remove_path, ""); // rank 0 removes the shared file
    EXPECT_TRUE(shared1.shared);
    EXPECT_EQ(shared1.write.offset, 5u);
    EXPECT_EQ(shared1.write.count, 4u);
    EXPECT_EQ(shared1.total, 9u);
    EXPECT_EQ(shared1.widest, 5u); // rank 0's 5 of 9: every rank streams by it
    EXPECT_EQ(shared1.where.rank, 1u);
    EXPECT_EQ(shared1.where.size, 2u);
    auto shared0 =
        fb::plan_rank(make_case(layout_mode::shared_file, scaling_mode::strong, 0, 9), {0, 2}, "f");
    EXPECT_EQ(shared0.remove_path, "f");
    EXPECT_EQ(shared0.widest, 5u);
    EXPECT_EQ(per_rank.widest, 50u);
    // One process: the case's own path, whatever the layout.
    auto alone = fb::plan_rank(make_case(layout_mode::file_per_rank, scaling_mode::weak, 3, 7), {0, 1}, "f");
    EXPECT_EQ(alone.write_path, "f");
    EXPECT_EQ(alone.read.offset, 0u);
    EXPECT_EQ(alone.total, 7u);
    EXPECT_THROW(fb::plan_rank(make_case(layout_mode::file_per_rank, scaling_mode::weak, 0, UINT64_MAX / 2),
                               {0, 3}, "f"),
                 fb::usage_error);
}

TEST(combine_phase, aggregate_is_first_start_to_last_end) {
    // Rank 0: 10.0 .. 12.0; rank 1: 10.5 .. 11.5; rank 2: 10.2 .. 13.2.
    std::vector<fb::rank_report> r = {at(10.0, 2.0, 1.0), at(10.5, 1.0, 0.5), at(10.2, 3.0, 0.25)};
    r[0].report.sample.metrics = {{"bytes", 10}, {"codec_s", 1}};
    r[2].report.sample.metrics = {{"codec_s", 2}, {"chunks", 4}};
    const fb::phase_sample p = fb::combine_phase(r);
    EXPECT_DOUBLE_EQ(p.wall_s, 3.2);
    EXPECT_DOUBLE_EQ(p.user_s, 1.75);
    ASSERT_TRUE(p.ranks);
    EXPECT_DOUBLE_EQ(p.ranks->min_s, 1.0);
    EXPECT_DOUBLE_EQ(p.ranks->median_s, 2.0);
    EXPECT_DOUBLE_EQ(p.ranks->max_s, 3.0);
    const std::vector<std::pair<std::string, double>> metrics = {
        {"bytes", 10}, {"codec_s", 3}, {"chunks", 4}};
    EXPECT_EQ(p.metrics, metrics);
    // Two ranks: the median is the mean of the two.
    const fb::phase_sample two = fb::combine_phase({at(0, 1.0), at(0.25, 2.0)});
    EXPECT_DOUBLE_EQ(two.ranks->median_s, 1.5);
    EXPECT_DOUBLE_EQ(two.wall_s, 2.25);
    // One rank: its own sample, no spread.
    const fb::phase_sample one = fb::combine_phase({at(5.0, 0.5)});
    EXPECT_DOUBLE_EQ(one.wall_s, 0.5);
    EXPECT_FALSE(one.ranks);
}

TEST(combine_steps, one_failing_rank_fails_all_and_is_named) {
    std::vector<fb::rank_report> r(3);
    EXPECT_TRUE(fb::combine_steps(r).ok());
    r[1].step = {fb::case_status::crashed, "plugin process killed by signal 11"};
    fb::step_result s = fb::combine_steps(r);
    EXPECT_EQ(s.status, fb::case_status::crashed);
    EXPECT_EQ(s.error, "rank 1: plugin process killed by signal 11");
    // Every failing rank's message is kept, in rank order; the status is
    // the first failing rank's.
    r[2].step = {fb::case_status::failed, "later"};
    s = fb::combine_steps(r);
    EXPECT_EQ(s.status, fb::case_status::crashed);
    EXPECT_EQ(s.error, "rank 1: plugin process killed by signal 11; rank 2: later");
    // An interrupted rank stops every rank, whatever failed elsewhere.
    r[2].step = {fb::case_status::skipped, "interrupted"};
    EXPECT_EQ(fb::combine_steps(r).status, fb::case_status::skipped);
    // A rank that only stopped because another failed is named last: rank
    // 0 stopped at a meeting, rank 1's plugin failed.
    std::vector<fb::rank_report> stopped(2);
    stopped[0].step = {fb::case_status::failed, fb::another_rank_failed};
    stopped[1].step = {fb::case_status::timeout, "case did not finish within its timeout"};
    s = fb::combine_steps(stopped);
    EXPECT_EQ(s.status, fb::case_status::timeout);
    EXPECT_EQ(s.error, "rank 1: case did not finish within its timeout");
    stopped[1].step = {fb::case_status::failed, fb::another_rank_failed};
    EXPECT_EQ(fb::combine_steps(stopped).error, std::string("ranks 0-1: ") + fb::another_rank_failed);
    // A rank that only stopped is left out beside those that failed.
    std::vector<fb::rank_report> three(3);
    three[0].step = {fb::case_status::failed, "mpiio: disk full at byte 0"};
    three[1].step = {fb::case_status::failed, fb::another_rank_failed};
    three[2].step = {fb::case_status::failed, "mpiio: disk full at byte 800"};
    EXPECT_EQ(fb::combine_steps(three).error,
              "rank 0: mpiio: disk full at byte 0; rank 2: mpiio: disk full at byte 800");
    // Alone, the error is the rank's own.
    std::vector<fb::rank_report> alone(1);
    alone[0].step = {fb::case_status::failed, "x"};
    EXPECT_EQ(fb::combine_steps(alone).error, "x");
}

TEST(combine_steps, ranks_with_the_same_message_share_it) {
    std::vector<fb::rank_report> r(7);
    for (std::size_t i : {0, 1, 2, 3, 5})
        r[i].step = {fb::case_status::failed, "same"};
    r[6].step = {fb::case_status::failed, "other"};
    const fb::step_result s = fb::combine_steps(r);
    EXPECT_EQ(s.status, fb::case_status::failed);
    EXPECT_EQ(s.error, "ranks 0-3, 5: same; rank 6: other");
}

TEST(combine_verify, counts_add_and_the_largest_error_stays) {
    std::vector<fb::rank_report> r(2);
    for (auto& x : r)
        x.report.verify.checked = true;
    r[0].report.verify.compared = 5;
    r[0].report.verify.mismatches = 1;
    r[0].report.verify.max_abs_error = 0.5;
    r[1].report.verify.compared = 7;
    r[1].report.verify.mismatches = 2; // both ranks differ: 1 + 2, not the larger
    r[1].report.verify.max_abs_error = 0.25;
    r[1].report.verify.max_rel_error = 2;
    fb::verification v = fb::combine_verify(r);
    EXPECT_TRUE(v.checked);
    EXPECT_EQ(v.compared, 12u);
    EXPECT_EQ(v.mismatches, 3u);
    EXPECT_EQ(v.max_abs_error, 0.5);
    EXPECT_EQ(v.max_rel_error, 2);
    // NaN (a finite value where a NaN was expected) wins in either order.
    r[0].report.verify.max_abs_error = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(std::isnan(fb::combine_verify(r).max_abs_error));
    std::swap(r[0], r[1]);
    EXPECT_TRUE(std::isnan(fb::combine_verify(r).max_abs_error));
    r[1].report.verify.checked = false;
    EXPECT_FALSE(fb::combine_verify(r).checked);
}

// The first mismatch of a case is the lowest global element index any rank
// found wrong, whichever rank found it, and a rank without mismatches has
// no say (its first_mismatch_index is 0 and means nothing). If it were
// taken from the highest rank, or the first rank that had mismatches, the
// user would read "the first at element 7000" (or 5000) where element 1200
// was already wrong.
TEST(combine_verify, first_mismatch_is_the_lowest_index_of_any_rank) {
    std::vector<fb::rank_report> r(4);
    for (auto& x : r) {
        x.report.verify.checked = true;
        x.report.verify.compared = 2500;
    }
    // Rank 0 reads elements 5000.., rank 1 none wrong, rank 2 1200.., rank 3 7000.. (read_rank_shift).
    r[0].report.verify.mismatches = 3;
    r[0].report.verify.first_mismatch_index = 5000;
    r[2].report.verify.mismatches = 1;
    r[2].report.verify.first_mismatch_index = 1200;
    r[3].report.verify.mismatches = 2;
    r[3].report.verify.first_mismatch_index = 7000;
    fb::verification v = fb::combine_verify(r);
    EXPECT_EQ(v.mismatches, 6u);
    EXPECT_EQ(v.first_mismatch_index, 1200u);
    // The lowest index on the last rank, rank 0's default 0 without mismatches.
    r[0].report.verify.mismatches = 0;
    r[0].report.verify.first_mismatch_index = 0;
    r[3].report.verify.first_mismatch_index = 300;
    v = fb::combine_verify(r);
    EXPECT_EQ(v.mismatches, 3u);
    EXPECT_EQ(v.first_mismatch_index, 300u);
}

TEST(combine_facts, per_rank_files_add_a_shared_file_counts_once) {
    const std::vector<fb::case_facts> f = {{100, 5}, {120, 9}};
    EXPECT_EQ(fb::combine_facts(f, false).file_bytes, 220u);
    EXPECT_EQ(fb::combine_facts(f, true).file_bytes, 120u);
    EXPECT_EQ(fb::combine_facts(f, true).peak_rss_bytes, 9);
    EXPECT_DOUBLE_EQ(fb::combine_resident({}), -1);
}

} // namespace

TEST(combine_phase, latencies_are_those_of_every_rank_s_operations) {
    // Rank 0: 100 operations, percentiles 100, 101, ..., 200 ns (p99.9 at
    // 199.9); rank 1: 300 operations, 300 .. 400 ns (p99.9 at 399.9). All
    // 400 together, by hand: a quarter are rank 0's, all below 300 ns.
    //  p10: 0.25 x f0 = 0.10, f0 = 0.4: 140 ns;
    //  p50: 0.25 + 0.75 x f1 = 0.50, f1 = 1/3: 333.33 ns;
    //  p90: f1 = 0.8667: 386.67 ns;
    //  p99.9: f1 = 0.998667, between rank 1's p99 (399) and p99.9 (399.9): 399.867 ns;
    //  mean (150 x 100 + 350 x 300) / 400 = 300 ns; ops 400, bytes summed.
    // Without them an access pattern under mpirun shows no latency, no IOPS
    // and a read MB/s of the whole payload.
    std::vector<fb::rank_report> ranks(2);
    auto curve = [](double from, std::uint64_t ops, std::uint64_t bytes) {
        fb::latency_summary l;
        l.ops = ops;
        l.bytes = bytes;
        for (int k = 0; k <= 100; ++k)
            l.cdf_ns.push_back(from + k);
        l.min_ns = from;
        l.max_ns = from + 100;
        l.p50_ns = from + 50;
        l.p90_ns = from + 90;
        l.p99_ns = from + 99;
        l.p999_ns = from + 99.9;
        l.mean_ns = from + 50;
        return l;
    };
    ranks[0].report.sample.latency = curve(100, 100, 409600);
    ranks[1].report.sample.latency = curve(300, 300, 1228800);
    const auto l = fb::combine_latency(ranks);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->ops, 400u);
    EXPECT_EQ(l->bytes, 1638400u);
    EXPECT_EQ(l->min_ns, 100);
    EXPECT_EQ(l->max_ns, 400);
    EXPECT_NEAR(l->mean_ns, 300, 1e-9);
    ASSERT_EQ(l->cdf_ns.size(), 101u);
    EXPECT_NEAR(l->cdf_ns[10], 140, 1e-6);
    EXPECT_NEAR(l->p50_ns, 1000.0 / 3, 1e-6);
    EXPECT_NEAR(l->p90_ns, 300 + 260.0 / 3, 1e-6);
    EXPECT_NEAR(l->p999_ns, 399 + 0.9 * (0.999 - 0.25 - 0.75 * 0.99) / 0.75 / 0.009, 1e-6);
    EXPECT_EQ(fb::combine_phase(ranks).latency->ops, 400u) << "the phase carries them";
    // One rank: its own figures, unchanged.
    ranks.pop_back();
    EXPECT_EQ(fb::combine_latency(ranks)->p50_ns, 150);
    ranks[0].report.sample.latency.reset();
    EXPECT_FALSE(fb::combine_latency(ranks)) << "no pattern, no latency";
}

// The verdict per workload (report/verdict.hpp, work_groups.hpp,
// tradeoff.hpp, recommend.hpp) on hand-made result sets: rows ranked only
// against rows that did the same work, a workload's one recommendation,
// and the trade-off of size against time. Every expected sentence was
// computed by hand from the samples below (the computations are in the
// comments).
//
// Six samples a case, {0.96, 0.98, 1, 1, 1.02, 1.04} x m: the median is m
// and its 95% interval by order statistics is [x(1), x(6)] = [0.96m, 1.04m]
// (coverage 1 - 2/64 = 0.969). Three rows pooled (18 samples): the
// interval is [x(5), x(14)] = [0.98m, 1.02m] (P(B <= 4) = 4048/2^18 =
// 0.0154; with k = 6 the coverage would drop to 0.904). A factor's
// interval is [low(slower) / high(faster), high(slower) / low(faster)].
#include "report/recommend.hpp"
#include "report/tradeoff.hpp"
#include "report/verdict.hpp"
#include "results/summary.hpp"
#include "study/identity.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace formatbench;
using namespace formatbench::detail;

namespace {

std::vector<double> six(double m) {
    return {0.96 * m, 0.98 * m, m, m, 1.02 * m, 1.04 * m};
}

case_result make_case(std::size_t index, const std::string& label, const std::string& plugin, double write_s,
                      double read_s, std::uint64_t file_bytes, run_params p = {}) {
    case_result c;
    c.spec.index = index;
    c.spec.dataset.name = "field";
    c.spec.dataset.count = 1000000;
    c.spec.format.label = label;
    c.spec.format.base_label = label;
    c.spec.format.plugin = plugin;
    c.spec.params = p;
    const std::vector<double> w = six(write_s), r = six(read_s);
    for (std::size_t i = 0; i < w.size(); ++i) {
        repetition rep;
        rep.write.wall_s = rep.write.user_s = w[i];
        rep.read.wall_s = rep.read.user_s = r[i];
        c.samples.push_back(rep);
    }
    c.payload_bytes = 8000000;
    c.file_bytes = file_bytes;
    c.verify.checked = c.verify.lossless_expected = true;
    c.verify.compared = 1000000;
    return c;
}

// What a lossy format's verification records: every value differs, by at most 1e-6.
verification lossy_verify() {
    verification v;
    v.checked = true;
    v.compared = v.mismatches = 1000000;
    v.max_abs_error = v.max_rel_error = 1e-6;
    return v;
}

run_params reads(access_mode a, cache_mode cache) {
    run_params p;
    p.access = a;
    p.cache = cache;
    if (a == access_mode::random) p.access_ops = 500;
    return p;
}

// raw and npy read random 4 KiB blocks warm and cold (labels raw, npy) and
// the whole array warm (labels raw-whole, npy-whole: the same plugins and
// options). Every case wrote the same way. The study's baseline is raw.
study_result access_set() {
    study_result r;
    r.spec.baseline = "raw";
    const run_params rw = reads(access_mode::random, cache_mode::warm);
    const run_params rc = reads(access_mode::random, cache_mode::cold);
    const run_params ww = reads(access_mode::whole, cache_mode::warm);
    r.cases.push_back(make_case(0, "raw", "raw", 0.100, 0.010, 8000000, rw));
    r.cases.push_back(make_case(1, "raw", "raw", 0.100, 0.050, 8000000, rc));
    r.cases.push_back(make_case(2, "npy", "npy", 0.120, 0.008, 8000128, rw));
    r.cases.push_back(make_case(3, "npy", "npy", 0.120, 0.060, 8000128, rc));
    r.cases.push_back(make_case(4, "raw-whole", "raw", 0.100, 0.040, 8000000, ww));
    r.cases.push_back(make_case(5, "npy-whole", "npy", 0.120, 0.030, 8000128, ww));
    return r;
}

std::vector<std::string> lines_of(study_result& r) {
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    return verdict_lines(r, groups.front());
}

workload_phase phase(double weight, std::vector<std::pair<std::string, std::string>> keys) {
    workload_phase w;
    w.weight = weight;
    for (const auto& [key, value] : keys) {
        const field<run_params>* f = find_field(run_fields(), key);
        (*f->parse(value))(w.params);
        w.keys.push_back(key);
    }
    return w;
}

} // namespace

// One ranking per group of the same work: the write once (every case wrote
// the same way: each format's three rows pooled, under both its labels);
// the reads per access pattern and cache state. Failing, a user would read
// "read: npy [random, warm] is fastest ... faster than the next, raw-whole"
// (a block read ranked against a whole read) or a cold read beside a warm one.
TEST(verdict_groups, ranks_only_rows_that_did_the_same_work) {
    study_result r = access_set();
    const std::vector<std::string> lines = lines_of(r);
    const std::vector<std::string> want = {
        // write: raw 0.100 (18 samples: [0.098, 0.102]) against npy 0.120
        // ([0.1176, 0.1224]): 1.2x [0.1176 / 0.102, 0.1224 / 0.098] =
        // [1.153, 1.249]; raw is the baseline.
        "write: raw / raw-whole is fastest, 100 ms, and is the baseline; 1.20x [1.15, 1.25] faster than the "
        "next, npy / npy-whole (significant).",
        // random warm: npy 8 ms against the baseline raw 10 ms: 1.25x
        // [0.96 x 10 / (1.04 x 8), 1.04 x 10 / (0.96 x 8)] = [1.154, 1.354];
        // no third format to be the next.
        "read [random, warm]: npy is fastest, 8.00 ms; 1.25x [1.15, 1.35] faster than the baseline, raw.",
        // random cold: raw 50 ms against npy 60 ms: 1.2x [0.96 x 60 /
        // (1.04 x 50), 1.04 x 60 / (0.96 x 50)] = [1.108, 1.300].
        "read [random, cold]: raw is fastest, 50.0 ms, and is the baseline; 1.20x [1.11, 1.30] faster than "
        "the next, npy (significant).",
        // whole warm: npy-whole 30 ms against raw-whole 40 ms (not the
        // baseline: its label is raw-whole): 1.333x [1.231, 1.444].
        "read [whole, warm]: npy-whole is fastest, 30.0 ms; 1.33x [1.23, 1.44] faster than the next, "
        "raw-whole (significant).",
        // No trade-off: npy's file is 128 bytes (0.0016%) bigger.
    };
    EXPECT_EQ(lines, want);
}

// A study without access patterns or cache states is one group: no
// heading, as before. Failing, the stream-io verdict would read
// "write [warm]: ..." or lose its sentence.
TEST(verdict_groups, one_group_has_no_heading) {
    study_result r;
    r.cases.push_back(make_case(0, "raw", "raw", 0.010, 0.005, 8000000));
    r.cases.push_back(make_case(1, "mmap", "mmap", 0.020, 0.004, 8000000));
    const std::vector<std::string> lines = lines_of(r);
    ASSERT_EQ(lines.size(), 2u);
    // 0.020 / 0.010 = 2x [0.96 x 20 / (1.04 x 10), 1.04 x 20 / (0.96 x 10)] = [1.846, 2.167].
    EXPECT_EQ(lines[0],
              "write: raw is fastest, 10.0 ms; 2.00x [1.85, 2.17] faster than the next, mmap (significant).");
    // 0.005 / 0.004 = 1.25x [1.154, 1.354].
    EXPECT_EQ(lines[1],
              "read: mmap is fastest, 4.00 ms; 1.25x [1.15, 1.35] faster than the next, raw (significant).");
}

// A stated workload picks the format with the least expected time for its
// mix, and another mix picks another. Failing, a user who reads random
// blocks warm 100 times per write would be told to take raw (or the
// reverse), or see an interval that is not the hand-computed one.
TEST(verdict_workload, picks_the_least_expected_time_of_the_mix) {
    study_result r = access_set();
    r.spec.workload.given = true;
    r.spec.workload.write = phase(1, {});
    r.spec.workload.reads = {phase(100, {{"access", "random"}, {"cache", "warm"}})};
    summarize_study(r);
    auto g = group_by_dataset(r.cases).front();
    // raw: 1 x 0.100 + 100 x 0.010 = 1.100 s; npy: 0.120 + 100 x 0.008 =
    // 0.920 s. Runner-up raw: 1.1 / 0.92 = 1.196x, between (0.098 + 100 x
    // 0.0096) / (0.1224 + 100 x 0.00832) = 1.058 / 0.9544 = 1.109 and
    // (0.102 + 100 x 0.0104) / (0.1176 + 100 x 0.00768) = 1.142 / 0.8856 =
    // 1.290.
    EXPECT_EQ(
        recommendation_lines(r, g),
        (std::vector<std::string>{
            "workload (1 write, 100 reads [random, warm]): pick npy / npy-whole, 920 ms expected for the "
            "mix, file 8.00 MB; the runner-up, raw / raw-whole, takes 1.20x [1.11, 1.29] as long "
            "(significant)."}));
    // Mostly writes, reads cold: raw 10 x 0.100 + 10 x 0.050 = 1.50 s; npy
    // 1.20 + 0.60 = 1.80 s: 1.2x, between (1.176 + 0.576) / (1.02 + 0.52) =
    // 1.138 and (1.224 + 0.624) / (0.98 + 0.48) = 1.266.
    r.spec.workload.write = phase(10, {});
    r.spec.workload.reads = {phase(10, {{"access", "random"}, {"cache", "cold"}})};
    EXPECT_EQ(
        recommendation_lines(r, g),
        (std::vector<std::string>{
            "workload (10 writes, 10 reads [random, cold]): pick raw / raw-whole, 1.50 s expected for the "
            "mix, file 8.00 MB; the runner-up, npy / npy-whole, takes 1.20x [1.14, 1.27] as long "
            "(significant)."}));
    // The verdict ends with it.
    EXPECT_EQ(verdict_lines(r, g).back(), recommendation_lines(r, g).back());
}

// Formats that cannot serve the mix are named with the reason. Failing, a
// user would be told to take a format that never read cold, or one whose
// write failed, or a lossy one nobody said was good enough.
TEST(verdict_workload, names_the_formats_it_cannot_pick) {
    study_result r = access_set();
    // zstd: fastest of all, but read random blocks only warm.
    r.cases.push_back(
        make_case(6, "zstd", "zstd", 0.050, 0.002, 2000000, reads(access_mode::random, cache_mode::warm)));
    case_result broken =
        make_case(7, "broken", "broken", 0.010, 0.001, 8000000, reads(access_mode::random, cache_mode::cold));
    broken.status = case_status::failed;
    broken.error = "write: No space left on device";
    r.cases.push_back(broken);
    // zfp: fast and small, but lossy with no tolerance stated.
    case_result zfp =
        make_case(8, "zfp", "zfp", 0.010, 0.001, 1000000, reads(access_mode::random, cache_mode::cold));
    zfp.verify = lossy_verify();
    r.cases.push_back(zfp);
    r.spec.workload.given = true;
    r.spec.workload.write = phase(10, {});
    r.spec.workload.reads = {phase(10, {{"access", "random"}, {"cache", "cold"}})};
    summarize_study(r);
    const auto g = group_by_dataset(r.cases).front();
    const auto lines = recommendation_lines(r, g);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(
        lines[0].rfind("workload (10 writes, 10 reads [random, cold]): pick raw / raw-whole, 1.50 s", 0), 0u)
        << lines[0];
    EXPECT_EQ(lines[1],
              "Not eligible for the mix: zstd (has no case for the read [random, cold]), broken (failed "
              "in the write), zfp (lossy (max error 1e-06) with no tolerance: state one to admit it).");
}

// The Pareto front of file size against time, write and read, and the
// dominated formats. Failing, a user would not learn what zstd-3's smaller
// file costs, or be left to pick zlib-1, which is bigger and slower than
// zstd-3.
TEST(verdict_tradeoff, names_the_front_and_the_dominated_formats) {
    study_result r;
    //                                   write s  read s   file bytes
    r.cases.push_back(make_case(0, "raw", "raw", 0.010, 0.0050, 8000000));
    r.cases.push_back(make_case(1, "lz4", "lz4", 0.011, 0.0060, 5600000));     // 70% of raw's file
    r.cases.push_back(make_case(2, "zstd-3", "zstd", 0.023, 0.0080, 4720000)); // 59%
    r.cases.push_back(
        make_case(3, "zlib-1", "zlib", 0.030, 0.0120, 5000000));           // bigger and slower than zstd-3
    r.cases.push_back(make_case(4, "npy", "npy", 0.012, 0.0051, 8000128)); // raw's size within 1%
    const std::vector<std::string> lines = lines_of(r);
    ASSERT_EQ(lines.size(), 4u);
    // write by time: raw, lz4 (1.1x), npy, zstd-3 (2.3x), zlib-1. npy is
    // not smaller than lz4 (the smallest faster file): dominated by it;
    // zlib-1 (5.00 MB) not smaller than zstd-3 (4.72 MB).
    EXPECT_EQ(lines[1],
              "write trade-off: raw is fastest, file 8.00 MB; lz4 saves 30% of the space for 1.10x the "
              "write time; zstd-3 saves 41% of the space for 2.30x the write time. Slower than a format "
              "whose file is no bigger (within 1%), so no one should pick them: npy (than lz4), zlib-1 "
              "(than zstd-3).");
    // read by time: raw 5.0, npy 5.1 (same size as raw: dominated), lz4
    // 6.0 (1.2x), zstd-3 8.0 (1.6x), zlib-1 12.0 (dominated by zstd-3).
    EXPECT_EQ(lines[3],
              "read trade-off: raw is fastest, file 8.00 MB; lz4 saves 30% of the space for 1.20x the "
              "read time; zstd-3 saves 41% of the space for 1.60x the read time. Slower than a format "
              "whose file is no bigger (within 1%), so no one should pick them: npy (than raw), zlib-1 "
              "(than zstd-3).");
    const auto groups = group_by_dataset(r.cases);
    const auto writes = work_groups(groups.front(), work_side::write);
    ASSERT_EQ(writes.size(), 1u);
    const pareto p = pareto_front(writes.front());
    ASSERT_EQ(p.front.size(), 3u);
    EXPECT_EQ(p.front[2]->name, "zstd-3");
}

// A lossy format on the front says its error. Failing, a user would see
// zfp's 75% saving without the error that buys it.
TEST(verdict_tradeoff, says_the_error_of_a_lossy_format) {
    study_result r;
    r.cases.push_back(make_case(0, "raw", "raw", 0.010, 0.0050, 8000000));
    case_result zfp = make_case(1, "zfp", "zfp", 0.015, 0.0060, 2000000);
    zfp.verify = lossy_verify();
    r.cases.push_back(zfp);
    const std::vector<std::string> lines = lines_of(r);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1],
              "write trade-off: raw is fastest, file 8.00 MB; zfp saves 75% of the space for 1.50x the "
              "write time (max error 1e-06).");
}

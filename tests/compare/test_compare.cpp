// Unit tests of compare (core/src/results/compare.hpp) on synthetic records:
// matching by key and by options, ratios, geometric mean, unmatched and not
// comparable cases, the unreliable flag and the threshold gate.
#include "base/error.hpp"
#include "report/compare_output.hpp"
#include "results/compare.hpp"
#include "results/load.hpp"
#include "results/summary.hpp"
#include "synthetic.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

using namespace formatbench;
using formatbench::test::make_case;
using formatbench::test::make_result;

namespace {

// compare_results on two record summarized as the runner or a loaded
// record leaves them (results/summary.hpp).
comparison compare_summarized(study_result base, study_result next, const compare_options& o) {
    summarize_study(base);
    summarize_study(next);
    return compare_results(base, next, o);
}

const case_comparison* find(const comparison& c, const std::string& label) {
    for (const auto& k : c.cases)
        if (k.label == label) return &k;
    return nullptr;
}

} // namespace

TEST(Compare, IdenticalRecordsShowNoChange) {
    const study_result a =
        make_result({make_case("d", "raw", 0.01, 0.002), make_case("d", "zlib", 0.2, 0.05)});
    compare_options o;
    o.threshold = 0.05;
    const comparison c = compare_summarized(a, a, o);
    ASSERT_EQ(c.cases.size(), 2u);
    EXPECT_TRUE(c.only_base.empty());
    EXPECT_TRUE(c.only_new.empty());
    for (const auto& k : c.cases) {
        EXPECT_EQ(k.kind, match_kind::key);
        EXPECT_DOUBLE_EQ(k.write.ratio, 1.0);
        EXPECT_DOUBLE_EQ(k.read.ratio, 1.0);
        EXPECT_GT(k.write.p, 0.9);
        EXPECT_FALSE(k.slower());
        EXPECT_FALSE(k.unreliable);
    }
    EXPECT_DOUBLE_EQ(c.geomean_write, 1.0);
    EXPECT_DOUBLE_EQ(c.geomean_read, 1.0);
    EXPECT_FALSE(c.gate_fails());
}

TEST(Compare, PlantedSlowdownIsFlaggedAndGated) {
    const study_result base =
        make_result({make_case("d", "raw", 0.01, 0.002), make_case("d", "zlib", 0.2, 0.05)});
    const study_result next =
        make_result({make_case("d", "raw", 0.012, 0.002), make_case("d", "zlib", 0.2, 0.05)});
    compare_options o;
    o.threshold = 0.05;
    const comparison c = compare_summarized(base, next, o);
    const case_comparison* raw = find(c, "raw");
    ASSERT_NE(raw, nullptr);
    EXPECT_NEAR(raw->write.ratio, 1.2, 1e-12);
    EXPECT_LT(raw->write.p, 1e-4); // every new sample is above every base sample: exact p = 2 / C(24, 12)
    EXPECT_TRUE(raw->write.slower);
    EXPECT_FALSE(raw->read.slower);
    EXPECT_TRUE(raw->slower());
    EXPECT_FALSE(find(c, "zlib")->slower());
    EXPECT_EQ(c.slower_count(), 1u);
    EXPECT_TRUE(c.gate_fails());
    // geomean of write ratios 1.2 and 1.0
    EXPECT_NEAR(c.geomean_write, std::sqrt(1.2), 1e-12);

    o.threshold = 0.25; // 20% is within a 25% threshold
    EXPECT_FALSE(compare_summarized(base, next, o).gate_fails());
    o.threshold.reset(); // no threshold: verdict still given, never gates
    const comparison no_gate = compare_summarized(base, next, o);
    EXPECT_EQ(no_gate.slower_count(), 1u);
    EXPECT_FALSE(no_gate.gate_fails());
}

TEST(Compare, SignificantButSmallChangeIsNotBeyondThreshold) {
    const study_result base = make_result({make_case("d", "raw", 0.010, 0.002)});
    const study_result next = make_result({make_case("d", "raw", 0.0102, 0.002)}); // +2%, clearly significant
    compare_options o;
    o.threshold = 0.05;
    const comparison c = compare_summarized(base, next, o);
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_LT(c.cases.at(0).write.p, 0.05);
    EXPECT_FALSE(c.cases.at(0).write.slower);
    EXPECT_FALSE(c.gate_fails());
    o.threshold = 0.01;
    EXPECT_TRUE(compare_summarized(base, next, o).gate_fails());
}

TEST(Compare, NotSignificantIsNotSlowerEvenWhenTheRatioIsLarge) {
    // Overlapping samples: base 1, 2, 3 ... new 1.5, 2.5, ...: medians differ, U test does not reject.
    study_result base = make_result({make_case("d", "raw", 1, 1, 3)});
    study_result next = make_result({make_case("d", "raw", 1, 1, 3)});
    base.cases[0].samples[0].write.wall_s = 1;
    base.cases[0].samples[1].write.wall_s = 2;
    base.cases[0].samples[2].write.wall_s = 3;
    next.cases[0].samples[0].write.wall_s = 1.5;
    next.cases[0].samples[1].write.wall_s = 2.5;
    next.cases[0].samples[2].write.wall_s = 3.5;
    compare_options o;
    o.threshold = 0.05;
    const comparison c = compare_summarized(base, next, o);
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_NEAR(c.cases[0].write.ratio, 1.25, 1e-12);
    EXPECT_GT(c.cases[0].write.p, 0.05);
    EXPECT_FALSE(c.cases[0].write.slower);
    EXPECT_TRUE(c.cases[0].unreliable); // 3 < 9 repetitions
    EXPECT_EQ(c.unreliable_count(), 1u);
}

TEST(Compare, FasterIsReportedNotGated) {
    const study_result base = make_result({make_case("d", "raw", 0.01, 0.002)});
    const study_result next = make_result({make_case("d", "raw", 0.005, 0.002)});
    compare_options o;
    o.threshold = 0.05;
    const comparison c = compare_summarized(base, next, o);
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_TRUE(c.cases[0].write.faster);
    EXPECT_FALSE(c.cases[0].slower());
    EXPECT_FALSE(c.gate_fails());
    EXPECT_NEAR(c.geomean_write, 0.5, 1e-12);
}

TEST(Compare, GeometricMean) {
    EXPECT_DOUBLE_EQ(geometric_mean({2.0, 8.0}), 4.0);
    EXPECT_NEAR(geometric_mean({2.0, 0.5}), 1.0, 1e-15);
    EXPECT_NEAR(geometric_mean({3.0, NAN, -1.0}), 3.0, 1e-15); // non-finite and non-positive ignored
    EXPECT_TRUE(std::isnan(geometric_mean({})));
}

TEST(Compare, UnmatchedCasesAreListedOnBothSides) {
    const study_result base =
        make_result({make_case("d", "raw", 0.01, 0.002), make_case("d", "mmap", 0.01, 0.002)});
    const study_result next =
        make_result({make_case("d", "raw", 0.01, 0.002), make_case("e", "raw", 0.01, 0.002)});
    const comparison c = compare_summarized(base, next, {});
    ASSERT_EQ(c.cases.size(), 1u);
    ASSERT_EQ(c.only_base.size(), 1u);
    EXPECT_EQ(c.only_base[0].label, "mmap");
    ASSERT_EQ(c.only_new.size(), 1u);
    EXPECT_EQ(c.only_new[0].dataset, "e");
    std::ostringstream table;
    write_comparison(c, "table", table);
    EXPECT_NE(table.str().find("only in base: d / mmap"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("only in new: e / raw"), std::string::npos) << table.str();
}

TEST(Compare, ChangedOptionUnderTheSameLabelIsMatchedWithANote) {
    const study_result base = make_result({make_case("d", "mis", 0.01, 0.002, 12, {{"slowdown", "0"}})});
    const study_result next = make_result({make_case("d", "mis", 0.012, 0.0024, 12, {{"slowdown", "20"}})});
    const comparison c = compare_summarized(base, next, {});
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_TRUE(c.only_base.empty());
    EXPECT_EQ(c.cases[0].kind, match_kind::options_differ);
    EXPECT_EQ(c.cases[0].note, "options: slowdown=0 -> slowdown=20");
    EXPECT_TRUE(c.cases[0].write.slower);
    EXPECT_TRUE(c.cases[0].read.slower);
}

TEST(Compare, AmbiguousOptionMatchIsNotGuessed) {
    const study_result base = make_result({make_case("d", "mis", 0.01, 0.002, 12, {{"a", "1"}}),
                                           make_case("d", "mis", 0.01, 0.002, 12, {{"a", "2"}})});
    const study_result next = make_result({make_case("d", "mis", 0.01, 0.002, 12, {{"a", "3"}})});
    const comparison c = compare_summarized(base, next, {});
    EXPECT_TRUE(c.cases.empty());
    EXPECT_EQ(c.only_base.size(), 2u);
    EXPECT_EQ(c.only_new.size(), 1u);
}

TEST(Compare, FailedCasesAreNotComparable) {
    case_result failed = make_case("d", "zlib", 0.2, 0.05, 0);
    failed.status = case_status::crashed;
    failed.error = "signal 11";
    const study_result base =
        make_result({make_case("d", "raw", 0.01, 0.002), make_case("d", "zlib", 0.2, 0.05)});
    const study_result next = make_result({make_case("d", "raw", 0.01, 0.002), failed});
    compare_options o;
    o.threshold = 0.05;
    const comparison c = compare_summarized(base, next, o);
    ASSERT_EQ(c.cases.size(), 2u);
    const case_comparison* z = find(c, "zlib");
    ASSERT_NE(z, nullptr);
    EXPECT_FALSE(z->comparable);
    EXPECT_EQ(z->not_comparable_reason, "new crashed: signal 11");
    EXPECT_FALSE(z->slower());
    EXPECT_EQ(c.comparable_count(), 1u);
    EXPECT_DOUBLE_EQ(c.geomean_write, 1.0);
    EXPECT_FALSE(c.gate_fails());
    std::ostringstream json_text;
    write_comparison(c, "json", json_text);
    const auto j = nlohmann::json::parse(json_text.str());
    EXPECT_EQ(j["cases"][1]["comparable"], false);
    EXPECT_EQ(j["cases"][1]["verdict"], "not comparable");
    EXPECT_EQ(j["comparable"], 1);
}

TEST(Compare, Renderings) {
    const study_result base = make_result({make_case("d", "raw", 0.01, 0.002)});
    const study_result next = make_result({make_case("d", "raw", 0.012, 0.002)});
    compare_options o;
    o.threshold = 0.05;
    comparison c = compare_summarized(base, next, o);
    c.base_source = "a.json";
    c.new_source = "b.json";
    std::ostringstream t, m, j;
    write_comparison(c, "table", t);
    write_comparison(c, "markdown", m);
    write_comparison(c, "json", j);
    EXPECT_NE(t.str().find("+20.0%"), std::string::npos) << t.str();
    EXPECT_NE(t.str().find("write SLOWER"), std::string::npos) << t.str();
    EXPECT_NE(t.str().find("RESULT: significantly slower beyond the threshold"), std::string::npos);
    EXPECT_NE(m.str().find("| d | raw |"), std::string::npos) << m.str();
    const auto parsed = nlohmann::json::parse(j.str());
    EXPECT_NEAR(parsed["cases"][0]["write"]["ratio"].get<double>(), 1.2, 1e-12);
    EXPECT_EQ(parsed["gate_fails"], true);
    EXPECT_NEAR(parsed["threshold"].get<double>(), 0.05, 1e-15);
    EXPECT_THROW(write_comparison(c, "html", t), usage_error);
}

TEST(Compare, ForeignTextIsEscapedInTheTableAndTheMarkdown) {
    // A label with an escape sequence, a newline that would forge a row and
    // a Markdown link: the terminal table gets no ESC byte and no extra
    // row, the Markdown no link.
    const std::string label = "\x1b[31mred\n| forged | row |[x](javascript:alert(1))";
    const study_result base = make_result({make_case("d", label, 0.01, 0.002)});
    const study_result next = make_result({make_case("d", label, 0.012, 0.002)});
    comparison c = compare_summarized(base, next, {});
    std::ostringstream t, m;
    write_comparison(c, "table", t);
    write_comparison(c, "markdown", m);
    EXPECT_EQ(t.str().find('\x1b'), std::string::npos) << t.str();
    EXPECT_EQ(t.str().find("\n| forged"), std::string::npos) << t.str();
    EXPECT_NE(t.str().find("\\x1b[31mred\\n| forged"), std::string::npos) << t.str();
    EXPECT_EQ(m.str().find('\x1b'), std::string::npos) << m.str();
    EXPECT_EQ(m.str().find("]("), std::string::npos) << m.str();
    EXPECT_EQ(m.str().find("\n| forged"), std::string::npos) << m.str();
}

TEST(Compare, ParseThreshold) {
    EXPECT_DOUBLE_EQ(parse_threshold("5%"), 0.05);
    EXPECT_DOUBLE_EQ(parse_threshold("0.05"), 0.05);
    EXPECT_DOUBLE_EQ(parse_threshold("0%"), 0.0);
    EXPECT_DOUBLE_EQ(parse_threshold("12.5%"), 0.125);
    EXPECT_THROW(parse_threshold("five"), usage_error);
    EXPECT_THROW(parse_threshold(""), usage_error);
    EXPECT_THROW(parse_threshold("-1%"), usage_error);
    EXPECT_THROW(parse_threshold("5%%"), usage_error);
    EXPECT_THROW(parse_threshold("5 %"), usage_error);
}

TEST(Compare, LoadResultsFileErrorsAreUsageErrors) {
    EXPECT_THROW(load_results_file("/nonexistent/x.json"), usage_error);
}

// The threshold gates on the ratio's interval, not on the ratio: base
// samples 1 + k/1024 (k = -5..6), new samples `scale` times those, so the
// median ratio is `scale` and every resampled ratio of medians lies within
// [scale x lo, scale x hi] with lo = (1 - 5/1024) / (1 + 6/1024) and hi its
// inverse (by hand: the smallest and largest medians of a resample are the
// extreme samples).
TEST(Compare, ThresholdGatesOnTheInterval) {
    auto with_times = [](double scale) {
        case_result c = make_case("d", "raw", 1, 1);
        for (int k = -5; k <= 6; ++k) {
            auto& s = c.samples[static_cast<std::size_t>(k + 5)];
            s.write.wall_s = s.read.wall_s = scale * (1 + k / 1024.0);
        }
        return make_result({c});
    };
    const double lo = (1 - 5 / 1024.0) / (1 + 6 / 1024.0);
    const study_result base = with_times(1.0);
    compare_options o;
    o.threshold = parse_threshold("25%");
    ASSERT_EQ(*o.threshold, 0.25);
    // A ratio of exactly 1.25 whose interval reaches below 1.25: not slower.
    const comparison at = compare_summarized(base, with_times(1.25), o);
    ASSERT_EQ(at.cases.size(), 1u);
    EXPECT_EQ(at.cases[0].write.ratio, 1.25);
    EXPECT_LT(at.cases[0].write.p, 1e-4);
    EXPECT_LT(at.cases[0].write.ratio_low, 1.25);
    EXPECT_FALSE(at.cases[0].write.slower);
    EXPECT_FALSE(at.gate_fails());
    // Every resampled ratio above 1.25: slower, and the gate fails.
    const comparison above = compare_summarized(base, with_times(1.25 / lo * (1 + 1e-9)), o);
    ASSERT_EQ(above.cases.size(), 1u);
    EXPECT_GT(above.cases[0].write.ratio_low, 1.25);
    EXPECT_TRUE(above.cases[0].write.slower);
    EXPECT_TRUE(above.gate_fails());
    // Faster: the whole interval below 1 / 1.25 = 0.8.
    const comparison faster = compare_summarized(base, with_times(0.8), o);
    EXPECT_FALSE(faster.cases[0].write.faster);
    EXPECT_TRUE(compare_summarized(base, with_times(0.8 * lo * (1 - 1e-9)), o).cases[0].write.faster);
    // p must be below alpha too: the same ratio with alpha 0 is never flagged.
    o.alpha = 0;
    EXPECT_FALSE(compare_summarized(base, with_times(2.0), o).gate_fails());
}

// A record of one case of 12 samples at scale x (1 + k/1024) whose phases
// each lost the fraction `lost` of their time to other processes.
namespace {
study_result lossy_record(double scale, double lost) {
    case_result c = make_case("d", "raw", 1, 1, 12);
    for (std::size_t k = 0; k < c.samples.size(); ++k) {
        auto& s = c.samples[k];
        s.write.wall_s = s.read.wall_s = scale * (1 + static_cast<double>(k) / 1024.0);
        for (phase_sample* p : {&s.write, &s.read}) {
            p->accounting.measured = true;
            p->accounting.cpus = 2;
            p->accounting.wait_s = p->accounting.thread_wait_s = lost * p->wall_s;
        }
    }
    return make_result({c});
}
} // namespace

// A disturbed side is judged net of its disturbance: new samples that all
// waited for a CPU for a fraction of each phase give an estimate of their
// net times, so the change is only what that lost time cannot explain. By
// hand: 2x slower, 10% lost -> 1.8x: slower; 1.3x slower, 30% lost ->
// 0.91x: not slower.
TEST(Compare, DisturbedPhasesAreJudgedNetOfTheirLostTime) {
    compare_options o;
    o.threshold = parse_threshold("5%");
    const comparison clean = compare_summarized(lossy_record(1, 0), lossy_record(1.3, 0), o);
    EXPECT_TRUE(clean.cases[0].write.slower);
    EXPECT_EQ(clean.base_disturbed + clean.new_disturbed, 0u);
    const comparison big = compare_summarized(lossy_record(1, 0), lossy_record(2, 0.1), o);
    EXPECT_TRUE(big.cases[0].write.disturbed);
    EXPECT_TRUE(big.cases[0].write.slower) << "2x less 10% is still 1.8x";
    EXPECT_NEAR(big.cases[0].write.ratio, 1.8, 1e-12);
    const comparison c = compare_summarized(lossy_record(1, 0), lossy_record(1.3, 0.3), o);
    EXPECT_NEAR(c.cases[0].write.ratio, 0.91, 1e-12);
    EXPECT_TRUE(c.cases[0].write.disturbed);
    EXPECT_FALSE(c.cases[0].write.slower) << "1.3x less 30% is 0.91x";
    EXPECT_FALSE(c.gate_fails());
    EXPECT_EQ(c.new_disturbed, 2u);
    EXPECT_EQ(c.base_disturbed, 0u);
    std::ostringstream t;
    write_comparison(c, "table", t);
    EXPECT_NE(t.str().find("write and read disturbed: judged net of it"), std::string::npos) << t.str();
    EXPECT_NE(t.str().find("disturbed: 0 of 2 phases of base and 2 of new"), std::string::npos) << t.str();
}

// The net-of-disturbance bound alone: every new sample lost 1.9% of its
// time to other processes, below the 2% that makes a sample disturbed, so
// the estimate is the plain median and its interval clears the limit: by
// hand, 12 samples at 1.065 x (1 + k/1024) against 1 x (1 + k/1024): the
// interval of the ratio starts near 1.065 x 1.003 / 1.009 = 1.059 > 1.05,
// but net of the lost 1.9% near 1.059 x 0.981 = 1.039 < 1.05: the lost time
// explains the change, and it is not called slower.
TEST(Compare, LostTimeBelowTheDisturbedLineStillExplainsAChange) {
    compare_options o;
    o.threshold = parse_threshold("5%");
    const comparison clean = compare_summarized(lossy_record(1, 0), lossy_record(1.065, 0), o);
    EXPECT_GT(clean.cases[0].write.ratio_low, 1.05);
    EXPECT_TRUE(clean.cases[0].write.slower) << "1.065x with nothing lost is slower";
    const comparison lost = compare_summarized(lossy_record(1, 0), lossy_record(1.065, 0.019), o);
    EXPECT_FALSE(lost.cases[0].write.disturbed) << "1.9% is below the 2% line";
    EXPECT_NEAR(lost.cases[0].write.ratio, clean.cases[0].write.ratio, 1e-12) << "the estimate is not netted";
    EXPECT_GT(lost.cases[0].write.ratio_low, 1.05);
    EXPECT_LT(lost.cases[0].write.slower_low, 1.05);
    EXPECT_FALSE(lost.cases[0].write.slower) << "net of the lost 1.9% the change is below 5%";
    EXPECT_FALSE(lost.gate_fails());
}

// Ten cases of which nine moved by a few percent either way in a noisy
// pair of runs and one by 30%: the run-to-run spread (1.4826 x MAD of the
// log ratios; by hand 1.4826 x 0.0444 = 0.0658, so changes within
// exp(3 x 0.0658) = +21.8% are not called) keeps the small moves from
// being called, not the large one.
TEST(Compare, RunToRunSpreadKeepsSmallMovesFromBeingCalled) {
    const std::vector<double> moves = {1.06, 0.95, 1.04, 0.97, 1.05, 0.94, 1.03, 0.96, 1.0, 1.30};
    std::vector<case_result> b, n;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        b.push_back(make_case("d", "f" + std::to_string(i), 1, 1));
        n.push_back(make_case("d", "f" + std::to_string(i), moves[i], moves[i]));
    }
    compare_options o;
    o.threshold = parse_threshold("2%");
    const comparison c = compare_summarized(make_result(b), make_result(n), o);
    std::vector<double> logs;
    for (double m : moves)
        for (int k = 0; k < 2; ++k)
            logs.push_back(std::log(m));
    std::sort(logs.begin(), logs.end());
    const double centre = (logs[9] + logs[10]) / 2;
    std::vector<double> dev;
    for (double x : logs)
        dev.push_back(std::abs(x - centre));
    std::sort(dev.begin(), dev.end());
    EXPECT_NEAR(c.run_spread, 1.4826 * (dev[9] + dev[10]) / 2, 1e-12);
    EXPECT_NEAR(c.run_spread, 0.0658, 5e-4);
    std::size_t slower = 0;
    for (const case_comparison& k : c.cases)
        slower += k.slower();
    EXPECT_EQ(slower, 1u) << "only the 30% move is beyond 3 x the spread";
    EXPECT_TRUE(find(c, "f9")->slower());
}

namespace {

// A case read under a pattern whose every repetition has p99 = `p99_ns`.
case_result with_p99(case_result c, double p99_ns) {
    c.spec.params.access = access_mode::random;
    for (repetition& r : c.samples) {
        latency_summary l;
        l.ops = 100;
        l.p50_ns = p99_ns / 10, l.p99_ns = p99_ns, l.max_ns = p99_ns * 2, l.mean_ns = p99_ns / 5;
        r.read.latency = l;
    }
    return c;
}

} // namespace

TEST(CompareLatency, P99RatioIsNewOverBase) {
    const study_result base = test::make_result({with_p99(test::make_case("d", "raw", 1.0, 1.0), 100)});
    const study_result next = test::make_result({with_p99(test::make_case("d", "raw", 1.0, 1.0), 200)});
    const comparison c = compare_summarized(base, next, {});
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_EQ(c.cases[0].base_p99_ns, 100);
    EXPECT_EQ(c.cases[0].new_p99_ns, 200);
    EXPECT_DOUBLE_EQ(c.cases[0].p99_ratio, 2.0);
    std::ostringstream table, js;
    write_comparison(c, "table", table);
    EXPECT_NE(table.str().find("p99 ratio"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("2.00"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("p99 ratio = new / base"), std::string::npos) << table.str();
    write_comparison(c, "json", js);
    const auto j = nlohmann::json::parse(js.str());
    EXPECT_DOUBLE_EQ(j["cases"][0]["read_p99"]["ratio"].get<double>(), 2.0);
}

TEST(CompareLatency, WithoutLatencyThereIsNoP99) {
    // A record of schema 3 has no latency: the comparison is as before.
    const study_result base = test::make_result({test::make_case("d", "raw", 1.0, 1.0)});
    const study_result next = test::make_result({test::make_case("d", "raw", 1.0, 1.0)});
    const comparison c = compare_summarized(base, next, {});
    ASSERT_EQ(c.cases.size(), 1u);
    EXPECT_TRUE(std::isnan(c.cases[0].p99_ratio));
    std::ostringstream table;
    write_comparison(c, "table", table);
    EXPECT_EQ(table.str().find("p99"), std::string::npos) << table.str();
}

// compare is linear in the cases (bench/compare_scale times 10^5): 10^4
// cases in 100 data sets are matched and compared, each once.
TEST(Compare, TenThousandCasesFinish) {
    std::vector<case_result> b, n;
    for (std::size_t i = 0; i < 10000; ++i) {
        const std::string d = "d" + std::to_string(i % 100), label = "f" + std::to_string(i / 100);
        b.push_back(make_case(d, label, 1e-3, 1e-3));
        n.push_back(make_case(d, label, 1.01e-3, 1e-3));
    }
    const comparison c = compare_summarized(make_result(b), make_result(n), {});
    EXPECT_EQ(c.cases.size(), 10000u);
    EXPECT_TRUE(c.only_base.empty() && c.only_new.empty());
    EXPECT_NEAR(c.geomean_write, 1.01, 1e-9);
}

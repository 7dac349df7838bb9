// The console's layout (report/table_layout.hpp, report/terminal_text.hpp),
// the verdict (report/verdict.hpp) and the noise summary (results/noise.hpp)
// on hand-made results. The console's golden files (golden/console-W.txt)
// were written once from this fixture and checked by hand, line by line:
// every figure against the samples below, every line within W columns;
// they are never rewritten by a test.
#include "base/error.hpp"
#include "report/reporters.hpp"
#include "report/table_layout.hpp"
#include "report/terminal_text.hpp"
#include "report/verdict.hpp"
#include "results/noise.hpp"
#include "results/summary.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

using namespace formatbench;
using namespace formatbench::detail;

namespace {

case_spec spec_of(std::size_t index, const std::string& label, const std::string& plugin) {
    case_spec c;
    c.index = index;
    c.key = "f64-uniform-1e6|" + label;
    c.dataset.name = "f64-uniform-1e6";
    c.dataset.type = FB_DTYPE_F64;
    c.dataset.count = 1000000;
    c.format.label = label;
    c.format.base_label = label;
    c.format.plugin = plugin;
    return c;
}

std::vector<repetition> reps(const std::vector<double>& w, const std::vector<double>& r) {
    std::vector<repetition> out;
    for (std::size_t i = 0; i < w.size(); ++i)
        out.push_back({{w[i], w[i], 0}, {r[i], r[i], 0}, -1});
    return out;
}

case_result ok_case(std::size_t index, const std::string& label, std::vector<double> w, std::vector<double> r,
                    std::uint64_t file_bytes = 8000000) {
    case_result c;
    c.spec = spec_of(index, label, label);
    c.samples = reps(w, r);
    c.payload_bytes = 8000000;
    c.file_bytes = file_bytes;
    c.verify = {true, 1000000, 0, 0, 0, true};
    return c;
}

// Five samples spread evenly around a median m: 0.96m .. 1.04m, so the CV
// is sqrt((0.04^2 + 0.02^2 + 0 + 0.02^2 + 0.04^2) / 4) = 3.16% and no
// sample is beyond 1.5 IQR (quartiles 0.98m and 1.02m).
std::vector<double> around(double m) {
    return {0.96 * m, 0.98 * m, m, 1.02 * m, 1.04 * m};
}

// The seed's experiment in miniature: the gfortran baseline (a long label),
// text, raw, mmap, the memory bound (no file) and a failed case.
study_result fixture() {
    study_result r;
    r.context.host = "testhost";
    r.context.cpu_model = "Example CPU";
    r.context.cores = 2;
    r.context.formatbench_version = "0.1.0";
    r.context.date = "2026-12-03T08:00:00Z";
    r.spec.name = "stream-io";
    r.spec.baseline = "gfortran (f0.16) / list-directed";
    r.cases.push_back(ok_case(0, "gfortran (f0.16) / list-directed", around(0.30), around(0.20), 18000000));
    r.cases.push_back(ok_case(1, "ascii-fixed16", around(0.030), around(0.020), 18000000));
    r.cases.push_back(ok_case(2, "raw", around(0.0010), around(0.00050)));
    r.cases.push_back(ok_case(3, "mmap", around(0.0020), around(0.00040)));
    r.cases.push_back(ok_case(4, "memory", {0.0005, 0.0005, 0.0005, 0.0005, 0.0005},
                              {0.0004, 0.0004, 0.0004, 0.0004, 0.0004}, 0));
    case_result broken;
    broken.spec = spec_of(5, "broken", "broken");
    broken.status = case_status::failed;
    broken.error = "plugin 'broken': write: No space left on device (/tmp/fb/data.bin)";
    r.cases.push_back(broken);
    return r;
}

std::string console(study_result r, std::size_t width, std::vector<std::string> columns = {}) {
    summarize_study(r); // as the runner leaves a record
    render_options style;
    style.width = width;
    style.columns = std::move(columns);
    std::ostringstream out;
    make_console_reporter(style)->write(r, out);
    return out.str();
}

std::string golden(const std::string& name) {
    std::ifstream in(std::string(FB_GOLDEN_DIR) + "/" + name, std::ios::binary);
    EXPECT_TRUE(in) << name;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

} // namespace

TEST(terminal_text, width_counts_code_points) {
    EXPECT_EQ(display_width("abc"), 3u);
    EXPECT_EQ(display_width("\u00b11.2%"), 5u); // ± is two bytes, one column
    EXPECT_EQ(display_width("460 \u00b5s"), 6u);
}

TEST(terminal_text, shortens_in_the_middle) {
    EXPECT_EQ(shorten_middle("raw", 12), "raw");
    // 20 columns: 10 from the start, the ellipsis, 9 from the end.
    EXPECT_EQ(shorten_middle("gfortran (f0.16) / list-directed", 20), "gfortran (\u2026-directed");
    EXPECT_EQ(display_width(shorten_middle("gfortran (f0.16) / list-directed", 20)), 20u);
    EXPECT_EQ(shorten_middle("abcdef", 4), "ab\u2026f");
    // A two-byte code point is never cut: "µµµµµµ" to 3 is "µ…µ".
    EXPECT_EQ(shorten_middle("\u00b5\u00b5\u00b5\u00b5\u00b5\u00b5", 3), "\u00b5\u2026\u00b5");
}

TEST(terminal_text, wraps_words_and_keeps_long_words_whole) {
    EXPECT_EQ(wrap_words("one two three four", 9, "  "),
              (std::vector<std::string>{"one two", "  three", "  four"}));
    EXPECT_EQ(wrap_words("a /very/long/path b", 6), (std::vector<std::string>{"a", "/very/long/path", "b"}));
    EXPECT_EQ(wrap_words("unchanged line", 0), (std::vector<std::string>{"unchanged line"}));
    EXPECT_EQ(wrap_at("host h | CPU x | 2 cores", " | ", 16, "  "),
              (std::vector<std::string>{"host h | CPU x |", "  2 cores"}));
}

// The golden tables: the same results at 80, 100 and 200 columns.
TEST(console_layout, matches_the_golden_files) {
    for (const std::size_t width : {80u, 100u, 200u}) {
        const std::string text = console(fixture(), width);
        const std::string name = "console-" + std::to_string(width) + ".txt";
        // FB_UPDATE_GOLDEN=1: write the files anew (then read the diff before committing).
        if (const char* update = std::getenv("FB_UPDATE_GOLDEN"); update && *update == '1')
            std::ofstream(std::string(FB_GOLDEN_DIR) + "/" + name, std::ios::binary) << text;
        EXPECT_EQ(text, golden(name)) << text;
        for (const std::string& l : lines_of(text))
            EXPECT_LE(display_width(l), width) << l;
    }
}

TEST(console_layout, unlimited_width_keeps_labels_and_intervals_in_the_main_table) {
    const std::string text = console(fixture(), 0);
    EXPECT_NE(text.find(" gfortran (f0.16) / list-directed  "), std::string::npos) << text;
    // raw against the baseline: 0.30 / 0.0010 = 300x, its interval beside it.
    EXPECT_NE(text.find("300x ["), std::string::npos) << text;
}

TEST(console_layout, columns_all_is_the_wide_table) {
    const std::string text = console(fixture(), 0, {"all"});
    const auto lines = lines_of(text);
    auto header = std::find_if(lines.begin(), lines.end(),
                               [](const std::string& l) { return l.rfind(" format", 0) == 0; });
    ASSERT_NE(header, lines.end()) << text;
    for (const char* h :
         {"write MB/s", "read MB/s", "file", "ratio", "check", "write speed-up", "read speed-up", "status"})
        EXPECT_NE(header->find(h), std::string::npos) << h << "\n" << text;
    // One table: no details table's second header.
    EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                            [](const std::string& l) { return l.rfind(" format", 0) == 0; }),
              1)
        << text;
    // The spread joined to the time: "300 ms ±3.2%" (around()).
    EXPECT_NE(text.find("300 ms \u00b13.2%"), std::string::npos) << text;
}

TEST(console_layout, chosen_columns_in_their_order_and_legend_of_those_only) {
    const std::string text = console(fixture(), 100, {"read", "format", "file"});
    EXPECT_NE(text.find(" format                               read     file\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("speed-up"), std::string::npos) << text; // neither column nor legend line
    EXPECT_EQ(text.find("MB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("file: bytes on disk"), std::string::npos) << text;
}

TEST(console_layout, column_ids_are_checked) {
    EXPECT_NO_THROW(check_column_ids({"format", "write-speedup"}, "--columns"));
    EXPECT_NO_THROW(check_column_ids({"all"}, "--columns"));
    try {
        check_column_ids({"write-speedpu"}, "--columns");
        FAIL();
    } catch (const usage_error& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean 'write-speedup'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(check_column_ids({"all", "write"}, "--columns"), usage_error);
    EXPECT_THROW(check_column_ids({"read", "read"}, "--columns"), usage_error);
}

// The verdict on results whose intervals are known without bootstrapping:
// every resample's median ratio lies between min(slower)/max(faster) and
// max(slower)/min(faster), for around() 0.923 and 1.083 times the ratio.
TEST(verdict, names_the_fastest_and_says_whether_it_is_significant) {
    study_result r = fixture();
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    const auto v = dataset_verdict(r, groups.front());
    ASSERT_EQ(v.size(), 2u);
    // write: raw (1.0 ms) is fastest; baseline 0.30 / 0.0010 = 300x, its
    // interval within [277, 325]; next mmap 2.0 / 1.0 = 2x within [1.85,
    // 2.17]: significant.
    EXPECT_EQ(v[0].fastest->spec.format.label, "raw");
    EXPECT_NEAR(v[0].against_baseline.value, 300, 1e-9);
    EXPECT_GE(v[0].against_baseline.low, 300 * 0.96 / 1.04 - 1e-9);
    EXPECT_LE(v[0].against_baseline.high, 300 * 1.04 / 0.96 + 1e-9);
    EXPECT_EQ(v[0].against_next.slower->spec.format.label, "mmap");
    EXPECT_NEAR(v[0].against_next.value, 2, 1e-9);
    EXPECT_GE(v[0].against_next.low, 2 * 0.96 / 1.04 - 1e-9);
    EXPECT_TRUE(v[0].against_next.significant());
    // read: mmap (0.40 ms) before raw (0.50 ms): 1.25x, within [1.15, 1.35].
    EXPECT_EQ(v[1].fastest->spec.format.label, "mmap");
    EXPECT_NEAR(v[1].against_next.value, 1.25, 1e-9);
    EXPECT_TRUE(v[1].against_next.significant());
    // memory keeps no file: left out, and said so.
    ASSERT_EQ(v[0].left_out.size(), 1u);
    const auto lines = verdict_lines(r, groups.front());
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].rfind("write: raw is fastest, 1.00 ms; 300x [", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("faster than the baseline, gfortran (f0.16) / list-directed, and 2.00x ["),
              std::string::npos)
        << lines[0];
    EXPECT_NE(lines[0].find("faster than the next, mmap (significant)."), std::string::npos) << lines[0];
    EXPECT_NE(lines[2].find("memory keeps no file"), std::string::npos) << lines[2];
}

TEST(verdict, a_difference_inside_the_noise_is_not_significant) {
    study_result r = fixture();
    r.cases.resize(2);
    // The same five samples on both sides, in another order: the ratio of
    // medians is 1 and a resample can land on either side of it.
    r.cases[0].samples = reps({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5});
    r.cases[1].samples = reps({5, 3, 1, 4, 2}, {2, 4, 1, 5, 3});
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    const auto v = dataset_verdict(r, groups.front());
    ASSERT_EQ(v.size(), 2u);
    EXPECT_NEAR(v[0].against_next.value, 1, 1e-12);
    EXPECT_FALSE(v[0].against_next.significant());
    EXPECT_LT(v[0].against_next.low, 1);
    EXPECT_GT(v[0].against_next.high, 1);
    const auto lines = verdict_lines(r, groups.front());
    EXPECT_NE(lines[0].find("(not significant: the interval includes 1)"), std::string::npos) << lines[0];
    // A narrow interval around 1: around() on both sides, so the interval
    // lies within [0.96 / 1.04, 1.04 / 0.96] = [0.923, 1.083] and, the two
    // sides being the same samples, on both sides of 1.
    r.cases[0].samples = reps(around(1), around(1));
    r.cases[1].samples = reps(around(1), around(1));
    summarize_study(r);
    const auto narrow = dataset_verdict(r, group_by_dataset(r.cases).front());
    EXPECT_GE(narrow[0].against_next.low, 0.96 / 1.04 - 1e-12);
    EXPECT_LE(narrow[0].against_next.high, 1.04 / 0.96 + 1e-12);
    EXPECT_FALSE(narrow[0].against_next.significant());
}

TEST(verdict, prints_published_speedups_beside_this_run) {
    study_result r = fixture();
    r.spec.published.push_back({"raw", "gfortran (f0.16) / list-directed", 62.5, 325, "the Fortran tip"});
    r.spec.published.push_back({"nosuch", "raw", 2, 2, "x"}); // not in this data set: no line
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    const auto lines = verdict_lines(r, groups.front());
    ASSERT_EQ(lines.size(), 4u);
    // read: 0.20 / 0.00050 = 400x.
    EXPECT_EQ(lines[3].rfind("raw against gfortran (f0.16) / list-directed: 300x [", 0), 0u) << lines[3];
    EXPECT_NE(lines[3].find("faster to write and 400x ["), std::string::npos) << lines[3];
    EXPECT_NE(lines[3].find("; the Fortran tip measured 62.5x to write and 325x to read."), std::string::npos)
        << lines[3];
}

// `pairs:` one format against another, whichever is faster: the factor
// that is more than 1 in the word that fits, its interval around it.
TEST(verdict, prints_each_pair_in_the_direction_it_goes) {
    study_result r = fixture();
    r.spec.pairs.push_back({"ascii-fixed16", "raw"});
    r.spec.pairs.push_back({"mmap", "raw"});
    r.spec.pairs.push_back({"nosuch", "raw"}); // not in this data set: no line
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    const auto lines = verdict_lines(r, groups.front());
    ASSERT_EQ(lines.size(), 5u);
    // ascii-fixed16: write 0.030 s against raw's 0.0010 s = 30x the time,
    // read 0.020 s against 0.00050 s = 40x.
    EXPECT_EQ(lines[3].rfind("ascii-fixed16 against raw: 30.0x [", 0), 0u) << lines[3];
    EXPECT_NE(lines[3].find("] slower to write; 40.0x ["), std::string::npos) << lines[3];
    EXPECT_NE(lines[3].find("] slower to read."), std::string::npos) << lines[3];
    // mmap: write 0.0020 s = 2x raw's time, read 0.00040 s against 0.00050 s
    // = 1.25x faster.
    EXPECT_EQ(lines[4].rfind("mmap against raw: 2.00x [", 0), 0u) << lines[4];
    EXPECT_NE(lines[4].find("] slower to write; 1.25x ["), std::string::npos) << lines[4];
    EXPECT_NE(lines[4].find("] faster to read."), std::string::npos) << lines[4];
    // Each interval holds its factor: the slower side's is inverted with it
    // (the samples lie within 4% of their medians on both sides, so within
    // [0.96 / 1.04, 1.04 / 0.96] of the factor).
    for (const std::string& line : {lines[3], lines[4]}) {
        std::size_t at = 0;
        for (int k = 0; k < 2; ++k) {
            const std::size_t x = line.find("x [", at);
            ASSERT_NE(x, std::string::npos) << line;
            const std::size_t start = line.rfind(' ', x) + 1;
            const double value = std::stod(line.substr(start, x - start));
            const double low = std::stod(line.substr(x + 3));
            const double high = std::stod(line.substr(line.find(", ", x) + 2));
            EXPECT_LE(low, value) << line;
            EXPECT_GE(high, value) << line;
            EXPECT_GE(low, value * 0.96 / 1.04 * 0.99) << line;
            EXPECT_LE(high, value * 1.04 / 0.96 * 1.01) << line;
            at = x + 3;
        }
    }
    // A median of 0 (a read faster than the clock) gives no factor, said
    // so rather than printed as a number.
    r.cases[3].samples = reps(around(0.0020), {0, 0, 0, 0, 0});
    summarize_study(r);
    const auto zero = verdict_lines(r, group_by_dataset(r.cases).front());
    ASSERT_EQ(zero.size(), 5u);
    EXPECT_NE(zero[4].find("slower to write; no factor (a median time is 0 or missing) to read."),
              std::string::npos)
        << zero[4];
}

TEST(verdict, the_next_is_not_the_baseline_named_already) {
    study_result r = fixture();
    // write: raw 1.0 ms, the baseline 1.5 ms, mmap 2.0 ms, ascii 30 ms. The
    // baseline is second: "faster than the next" must name mmap (2.0 / 1.0
    // = 2x), not the baseline again (a user would read 1.5x twice and never
    // learn how raw does against mmap).
    r.cases[0].samples = reps(around(0.0015), around(0.20));
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    const auto v = dataset_verdict(r, groups.front());
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].fastest->spec.format.label, "raw");
    ASSERT_NE(v[0].against_baseline.slower, nullptr);
    EXPECT_EQ(v[0].against_baseline.slower->spec.format.label, "gfortran (f0.16) / list-directed");
    EXPECT_NEAR(v[0].against_baseline.value, 1.5, 1e-9);
    ASSERT_NE(v[0].against_next.slower, nullptr);
    EXPECT_EQ(v[0].against_next.slower->spec.format.label, "mmap");
    EXPECT_NEAR(v[0].against_next.value, 2, 1e-9);
    const auto lines = verdict_lines(r, groups.front());
    EXPECT_NE(lines[0].find("faster than the next, mmap"), std::string::npos) << lines[0];
}

TEST(verdict, none_with_fewer_than_two_formats_that_keep_a_file) {
    study_result r = fixture();
    r.cases = {r.cases[2], r.cases[4]}; // raw and memory
    summarize_study(r);
    const auto groups = group_by_dataset(r.cases);
    EXPECT_TRUE(verdict_lines(r, groups.front()).empty());
}

// Counts by hand: the fixture's ok cases have CVs of 2-6% and no outliers;
// three cases are made noisy below, each in one way.
TEST(noise_summary, counts_each_reason_and_names_the_worst) {
    study_result r = fixture();
    // raw write: CV of {1, 1, 1, 2, 2} ms = stddev 0.5477 / mean 1.4 = 39.1%.
    r.cases[2].samples = reps({0.001, 0.001, 0.001, 0.002, 0.002}, around(0.0005));
    // mmap read: one outlier (1.0 ms among 0.40 ms: beyond Q3 + 1.5 IQR).
    r.cases[3].samples = reps(around(0.0020), {0.00040, 0.00041, 0.00039, 0.00040, 0.0010});
    // ascii: three samples, fewer than 5, in both phases.
    r.cases[1].samples = reps({0.0288, 0.030, 0.0312}, {0.0192, 0.020, 0.0208});
    summarize_study(r);
    const noise_summary s = summarize_noise(r.cases, 5);
    EXPECT_EQ(s.phases, 10u); // five ok cases
    EXPECT_EQ(s.noisy, 4u);   // raw write, mmap read, ascii write and read
    EXPECT_EQ(s.high_cv, 2u); // raw write; mmap read's outlier makes its CV 43% too
    EXPECT_EQ(s.with_outliers, 1u);
    EXPECT_EQ(s.few_samples, 2u);
    // The worst: mmap read, CV = stddev {0.39, 0.40, 0.40, 0.41, 1.0} / mean
    // 0.52 = sqrt(0.2882 / 4) / 0.52 = 0.26842 / 0.52 = 51.6%.
    ASSERT_NE(s.worst, nullptr);
    EXPECT_EQ(s.worst->spec.format.label, "mmap");
    EXPECT_FALSE(s.worst_write);
    // Its spread from the quartiles: Q1 0.40, Q3 0.41, (0.01 / 1.349) / 0.40
    // = 1.85%, so 1.96 x 1.2533 x 0.0185 / sqrt(5) is within 5% already:
    // the outlier inflates the CV, not the median's uncertainty.
    EXPECT_EQ(s.repeat, 5u);
    const auto text = noise_summary_text(s, 0.10, 5, false);
    ASSERT_TRUE(text);
    EXPECT_EQ(
        text->rfind("4 of 10 phases are noisy (~ in the table): 2 with a CV above 10%, 1 with outliers "
                    "beyond 1.5 IQR, 2 with fewer than 5 samples. The worst: 'mmap' read, CV 51.6% over 5 "
                    "samples, 1 outlier. Its median is within \u00b15% (95%) already over 5 samples",
                    0),
        0u)
        << *text;
}

TEST(noise_summary, suggests_the_repetitions_that_steady_the_median) {
    study_result r = fixture();
    // raw write alone noisy: {1, 1, 1, 2, 2} ms, quartiles 1 and 2 ms, so the
    // relative spread is (1 / 1.349) / 1 = 0.7413 and N = ceil((1.96 x
    // 1.2533 x 0.7413 / 0.05)^2) = 1327; min_time = 1327 x (1 + 0.5) ms = 1.99 s, typed as 2s.
    r.cases[2].samples = reps({0.001, 0.001, 0.001, 0.002, 0.002}, around(0.0005));
    summarize_study(r);
    const noise_summary s = summarize_noise(r.cases, 5);
    EXPECT_EQ(s.noisy, 1u);
    EXPECT_EQ(s.high_cv, 1u);
    EXPECT_EQ(s.worst->spec.format.label, "raw");
    EXPECT_EQ(s.repeat, 1327u);
    EXPECT_NEAR(s.min_time_s, 1327 * 0.0015, 1e-9);
    const auto text = noise_summary_text(s, 0.10, 5, false);
    ASSERT_TRUE(text);
    EXPECT_NE(text->find("run about 1327 repetitions: --set repeat=1327 or --set min_time=2s."),
              std::string::npos)
        << *text;
}

TEST(noise_summary, nothing_to_say_for_steady_phases) {
    study_result r = fixture();
    summarize_study(r);
    const noise_summary s = summarize_noise(r.cases, 5);
    EXPECT_EQ(s.phases, 10u);
    EXPECT_EQ(s.noisy, 0u);
    EXPECT_FALSE(noise_summary_text(s, 0.10, 5, false));
}

// Four plugin-metrics rows whose labels differ only in their middle: cut in
// the middle to the width they would read alike. By hand: each table
// repeats the label, and the widest, with "write compressed_bytes" (22),
// leaves 60 - 1 - 2 - 22 = 35 columns for it; cut after 17 and 16 columns
// the ends "B, ops 500, warm]" and "iB, ops 500, warm]" still read alike
// for 4KiB and 1MiB, after 15 "KiB, ops 500, warm]" does not.
TEST(console_layout, shortened_labels_still_tell_the_rows_apart) {
    results_table t;
    t.header = {"format", "write codec_s", "write compressed_bytes", "read codec_s"};
    t.numeric = {false, true, true, true};
    for (const char* block : {"4KiB", "1MiB"})
        for (const char* cache : {"warm", "cold"})
            t.rows.push_back(
                {std::string("zstd-frames [random, block ") + block + ", ops 500, " + cache + "]", "203 ms",
                 "126 MB", "151 ms"});
    const auto tables = lay_out_plain(t, 60);
    ASSERT_GE(tables.size(), 2u);
    for (const auto& table : tables) {
        std::set<std::string> labels;
        for (const auto& row : table.rows)
            labels.insert(row[0]);
        EXPECT_EQ(labels.size(), 4u) << "rows that cannot be told apart";
        for (const std::string& line : table_lines(table, nullptr))
            EXPECT_LE(display_width(line), 60u) << line;
    }
    EXPECT_EQ(tables[0].rows[0][0], "zstd-frames [ra\u2026KiB, ops 500, warm]");
    // Labels that differ at their ends are cut in the middle as before, to
    // 40 - 1 - 2 - 22 = 15 columns.
    results_table u = t;
    for (std::size_t i = 0; i < u.rows.size(); ++i)
        u.rows[i][0] =
            std::to_string(i) + "-a-very-long-format-label-that-goes-on-and-on-" + std::to_string(i);
    const auto cut = lay_out_plain(u, 40);
    EXPECT_EQ(cut.front().rows[0][0], "0-a-ver\u2026nd-on-0");
}

// Tests of the pieces the report's charts are made of: text width
// estimates and wrapping, the palette, axis ticks and their labels, and the
// facet plan of small multiples. Expected values are worked out by hand
// (widths from DejaVu Sans' advance widths, 2048 units per em: '1' and '0'
// are 1303 units = 0.637 em rounded up; tick positions from the definition
// of each scale).
#include "report/axis.hpp"
#include "report/facets.hpp"
#include "report/palette.hpp"
#include "report/text_metrics.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace formatbench;
using namespace formatbench::svg;

namespace {

std::vector<double> values(const scale& s) {
    std::vector<double> v;
    for (const tick& t : s.ticks)
        v.push_back(t.value);
    return v;
}

std::vector<std::string> labels(const scale& s) {
    std::vector<std::string> v;
    for (const tick& t : s.ticks)
        v.push_back(t.label.plain());
    return v;
}

} // namespace

TEST(TextMetrics, WidthsAreDejaVuSansAdvances) {
    EXPECT_NEAR(text_width("10", 10), 2 * 6.37, 1e-9);
    EXPECT_NEAR(text_width("m", 20), 19.5, 1e-9);              // 975/1000 em
    EXPECT_NEAR(text_width("m", 20, true), 20.84, 1e-9);       // bold: 1042
    EXPECT_NEAR(text_width("\u00b5s", 10), 6.36 + 5.21, 1e-9); // micro sign, s
    EXPECT_NEAR(text_width("\u4e2d", 10), 10, 1e-9);           // unknown: one em
    EXPECT_NEAR(text_width("10" + superscript("5"), 10), 12.74 + 0.7 * 6.37, 1e-9);
    EXPECT_NEAR(text_width(std::string("a\xff"), 10), 6.13 + 10, 1e-9); // a malformed byte counts as one em
}

TEST(TextMetrics, WrapsAtSpacesAndBreaksLongWords) {
    // "aaaa" = 4 x 6.13 = 24.52 px at 10 px; a space is 3.18.
    const std::vector<rich_text> lines = wrap_text("aaaa aaaa aaaa", 10, 52.3);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].plain(), "aaaa aaaa"); // 24.52 + 3.18 + 24.52 = 52.22 fits
    EXPECT_EQ(lines[1].plain(), "aaaa");
    const std::vector<rich_text> broken = wrap_text("aaaaaaaaaa", 10, 25);
    ASSERT_EQ(broken.size(), 3u); // 4 + 4 + 2 characters
    EXPECT_EQ(broken[0].plain() + broken[1].plain() + broken[2].plain(), "aaaaaaaaaa");
    for (const rich_text& l : broken)
        EXPECT_LE(text_width(l, 10), 25);
    EXPECT_TRUE(wrap_text("   ", 10, 100).empty());
    // A superscript stays with its word.
    const std::vector<rich_text> sup = wrap_text("count " + rich_text("10") + superscript("5"), 10, 40);
    ASSERT_EQ(sup.size(), 2u);
    EXPECT_EQ(sup[1].plain(), "10^5");
}

TEST(Palette, OkabeItoColoursNeverRepeatWithinThirtyTwoSeries) {
    const std::set<std::string> okabe_ito = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                             "#56B4E9", "#CC79A7", "#000000", "#F0E442"};
    std::set<std::string> colours;
    std::set<std::pair<std::string, std::string>> styles;
    for (std::size_t i = 0; i < 32; ++i) {
        const series_style s = style(i);
        EXPECT_TRUE(okabe_ito.count(std::string(s.colour))) << s.colour;
        if (i < 8) colours.insert(std::string(s.colour));
        EXPECT_TRUE(styles.insert({std::string(s.colour), std::string(s.dash)}).second) << i;
    }
    EXPECT_EQ(colours.size(), 8u);
    EXPECT_EQ(style(0).dash, "");
    EXPECT_NE(style(8).dash, "");
    EXPECT_NE(style(0).marker, style(1).marker);
}

TEST(Axis, LabelsAreWrittenAsPeopleWriteThem) {
    EXPECT_EQ(format_value(65536, quantity::bytes).plain(), "64 KiB");
    EXPECT_EQ(format_value(4096, quantity::bytes).plain(), "4 KiB");
    EXPECT_EQ(format_value(1048576, quantity::bytes).plain(), "1 MiB");
    EXPECT_EQ(format_value(1073741824.0, quantity::bytes).plain(), "1 GiB");
    EXPECT_EQ(format_value(0.001, quantity::seconds).plain(), "1 ms");
    EXPECT_EQ(format_value(2.5e-4, quantity::seconds).plain(), "250 \u00b5s");
    EXPECT_EQ(format_value(1.5, quantity::seconds).plain(), "1.5 s");
    EXPECT_EQ(format_value(1, quantity::factor).plain(), "1x");
    EXPECT_EQ(format_value(0.5, quantity::factor).plain(), "0.5x");
    EXPECT_EQ(format_value(250, quantity::mb_s).plain(), "250");
    EXPECT_EQ(format_value(0.5, quantity::ratio).plain(), "0.5");
    EXPECT_EQ(format_value(500, quantity::count).plain(), "500");
    const rich_text e5 = format_value(1e5, quantity::count);
    ASSERT_EQ(e5.runs.size(), 2u);
    EXPECT_EQ(e5.runs[0].text, "10");
    EXPECT_FALSE(e5.runs[0].superscript);
    EXPECT_EQ(e5.runs[1].text, "5");
    EXPECT_TRUE(e5.runs[1].superscript);
    EXPECT_EQ(format_value(2e5, quantity::count).plain(), "2\u00d710^5");
    EXPECT_EQ(format_value(1000, quantity::count).plain(), "10^3");
    EXPECT_EQ(format_value(9.9999e5, quantity::count).plain(), "10^6");
    EXPECT_EQ(format_value(10, quantity::count, true).plain(), "10^1"); // on a log10 count axis
}

TEST(Axis, LogTicksSitOnPowersOfTenAndTwo) {
    // Counts 10^3..10^5 on a wide axis: one tick per decade.
    const scale c = make_scale({1e3, 1e4, 1e5}, scale_kind::log10, quantity::count, false, 0, 400, true, 11);
    EXPECT_EQ(values(c), (std::vector<double>{1e3, 1e4, 1e5}));
    EXPECT_EQ(labels(c), (std::vector<std::string>{"10^3", "10^4", "10^5"}));
    EXPECT_DOUBLE_EQ(c(1e4), 200);
    // One decade: 1, 2 and 5 times the powers.
    const scale d =
        make_scale({0.002, 0.009}, scale_kind::log10, quantity::seconds, false, 200, 0, false, 11);
    EXPECT_EQ(labels(d), (std::vector<std::string>{"1 ms", "2 ms", "5 ms", "10 ms"}));
    // Byte sizes 4 KiB..1 MiB: powers of two, thinned to every second one on
    // a short axis (9 labels of up to 45 px do not fit in 300 px).
    const scale b =
        make_scale({4096, 65536, 1048576}, scale_kind::log2, quantity::bytes, false, 0, 900, true, 11);
    EXPECT_EQ(values(b).size(), 9u); // 2^12 .. 2^20
    EXPECT_EQ(labels(b).front(), "4 KiB");
    EXPECT_EQ(labels(b).back(), "1 MiB");
    const scale bs =
        make_scale({4096, 65536, 1048576}, scale_kind::log2, quantity::bytes, false, 0, 300, true, 11);
    EXPECT_EQ(labels(bs), (std::vector<std::string>{"4 KiB", "16 KiB", "64 KiB", "256 KiB", "1 MiB"}));
    // Labels never overlap along a horizontal axis.
    for (const scale* s : {&c, &b, &bs})
        for (std::size_t i = 1; i < s->ticks.size(); ++i)
            EXPECT_GE((*s)(s->ticks[i].value) - (*s)(s->ticks[i - 1].value),
                      (text_width(s->ticks[i].label, 11) + text_width(s->ticks[i - 1].label, 11)) / 2);
}

TEST(Axis, LinearTicksAreRoundAndIncludeZeroForBars) {
    // Without zero the ticks would be 300..1000 by 100.
    const scale s = make_scale({320, 950}, scale_kind::linear, quantity::mb_s, true, 0, 400, true, 11);
    EXPECT_EQ(values(s), (std::vector<double>{0, 200, 400, 600, 800, 1000}));
    const scale l = make_scale({1, 6}, scale_kind::linear, quantity::plain, false, 0, 400, true, 11);
    EXPECT_EQ(labels(l), (std::vector<std::string>{"1", "2", "3", "4", "5", "6"}));
    EXPECT_FALSE(l.valid(NAN));
    // Size ratios 0.99998 (npy's header) and 1 (raw): ticks 0.99998, 0.99999,
    // 1 (steps of 10^-5 at most 400 px) must not all read "1".
    const scale r = make_scale({0.99998, 1.0}, scale_kind::linear, quantity::ratio, false, 0, 400, true, 11);
    const std::vector<std::string> rl = labels(r);
    ASSERT_GE(rl.size(), 2u);
    for (std::size_t k = 1; k < rl.size(); ++k)
        EXPECT_NE(rl[k], rl[k - 1]) << k;
    EXPECT_EQ(rl.front(), "0.99998");
    EXPECT_EQ(rl.back(), "1");
    const scale g = make_scale({1, 10}, scale_kind::log10, quantity::plain, false, 0, 100, true, 11);
    EXPECT_FALSE(g.valid(0));
    EXPECT_FALSE(g.valid(-1));
}

namespace {

facet_attributes line(std::string format, std::string dtype, std::string chunk, std::string count = "") {
    facet_attributes a = {{"record", "0"}, {"format", format}, {"dtype", dtype}, {"chunk", chunk}};
    if (!count.empty()) a.emplace_back("count", count);
    return a;
}

bool compared(const std::string& name) {
    return name == "record" || name == "format" || name.starts_with("option ");
}

} // namespace

TEST(Facets, OneChartPerCombinationOfTheOtherAttributes) {
    // A count sweep of the 60-case study: 5 formats x 2 dtypes x 2 chunks.
    std::vector<facet_attributes> lines;
    for (const char* dtype : {"f64", "f32"})
        for (const char* f : {"raw", "mmap", "memory", "zlib1", "zlib6"})
            for (const char* chunk : {"0", "65536"})
                lines.push_back(line(f, dtype, chunk));
    const facet_plan p = plan_facets(lines, compared, 8);
    EXPECT_EQ(p.series, (std::vector<std::string>{"format"}));
    EXPECT_EQ(p.facets, (std::vector<std::string>{"dtype", "chunk"}));
    ASSERT_EQ(p.charts.size(), 4u);
    EXPECT_EQ(p.charts[1].fixed, (facet_attributes{{"dtype", "f64"}, {"chunk", "65536"}}));
    EXPECT_EQ(p.charts[1].lines, (std::vector<std::size_t>{1, 3, 5, 7, 9}));
    for (const facet_chart& c : p.charts)
        EXPECT_EQ(c.parts, 1u);
}

TEST(Facets, ASingleFormatComparesAnotherAttribute) {
    // A sweep of zlib's level: one format; count has the most values.
    std::vector<facet_attributes> lines;
    for (const char* dtype : {"f64", "f32"})
        for (const char* count : {"1000", "10000", "100000"})
            for (const char* chunk : {"0", "65536"})
                lines.push_back(line("zlib", dtype, chunk, count));
    const facet_plan p = plan_facets(lines, compared, 8);
    EXPECT_EQ(p.series, (std::vector<std::string>{"count"}));
    EXPECT_EQ(p.facets, (std::vector<std::string>{"dtype", "chunk"}));
    ASSERT_EQ(p.charts.size(), 4u);
    EXPECT_EQ(p.charts[0].lines, (std::vector<std::size_t>{0, 2, 4}));
}

TEST(Facets, MoreLinesThanAChartHoldsAreSplitEvenly) {
    std::vector<facet_attributes> lines;
    for (int i = 0; i < 10; ++i)
        lines.push_back(line(fmt::format("f{}", i), "f64", "0"));
    const facet_plan p = plan_facets(lines, compared, 8);
    ASSERT_EQ(p.charts.size(), 2u);
    EXPECT_EQ(p.charts[0].lines.size(), 5u);
    EXPECT_EQ(p.charts[1].lines.size(), 5u);
    EXPECT_EQ(p.charts[0].part, 1u);
    EXPECT_EQ(p.charts[1].part, 2u);
    EXPECT_EQ(p.charts[1].parts, 2u);
    EXPECT_EQ(p.charts[1].lines.front(), 5u);
    // One line alone: one chart, no facet.
    const facet_plan one = plan_facets({line("raw", "f64", "0")}, compared, 8);
    ASSERT_EQ(one.charts.size(), 1u);
    EXPECT_TRUE(one.facets.empty());
    EXPECT_TRUE(plan_facets({}, compared, 8).charts.empty());
}

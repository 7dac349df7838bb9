// Tests of the HTML report and the SVG writer: XML escaping, and a report of
// two synthetic records (a count sweep, a swept numeric option, a baseline,
// awkward labels) checked by check_report.py with python3's XML parser
// against the JSON records it was made from; the order of the page (the
// answer under the title, the time against count first among the charts,
// the tables after them); a workload's recommendation as the answer;
// compare's ratios, not a verdict per record, for two records; latency
// CDFs as lines with markers at p50 and p99 only.
#include "report/html.hpp"
#include "report/svg.hpp"
#include "results/json.hpp"
#include "synthetic.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace formatbench;
using formatbench::test::make_case;
using formatbench::test::make_result;

namespace {

namespace fs = std::filesystem;

void write_text(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
    ASSERT_TRUE(out.good()) << p;
}

// A record with two data sets (count 1e3 and 1e5), formats raw (baseline),
// zlib at levels 1 and 9 and an awkwardly named one; `factor` scales times.
study_result sample_record(double factor, const std::string& host) {
    std::vector<case_result> cases;
    for (std::uint64_t count : {1000u, 100000u}) {
        const std::string d = count == 1000 ? "f64-uniform-1e3" : "f64-uniform-1e5";
        const double scale = static_cast<double>(count) / 1000 * factor;
        auto add = [&](case_result c, std::uint64_t file_bytes) {
            c.spec.dataset.count = count;
            c.payload_bytes = count * 8;
            c.file_bytes = file_bytes;
            cases.push_back(std::move(c));
        };
        add(make_case(d, "raw", 1e-5 * scale, 5e-6 * scale, 7), count * 8);
        for (const char* level : {"1", "9"}) {
            case_result z =
                make_case(d, std::string("zlib level=") + level, (level[0] == '1' ? 4e-5 : 9e-5) * scale,
                          2e-5 * scale, 7, {{"level", level}});
            z.spec.format.base_label = "zlib";
            z.spec.format.plugin = "zlib";
            add(z, level[0] == '1' ? count * 7 : count * 6);
        }
        add(make_case(d, "a<b & \"c\" 'd'", 3e-5 * scale, 3e-5 * scale, 7), count * 9);
    }
    study_result r = make_result(cases);
    r.spec.baseline = "raw";
    r.spec.name = "synthetic <study>";
    r.context.host = host;
    r.context.cpu_model = "Test CPU & co";
    summarize_study(r); // with the baseline set
    return r;
}

} // namespace

TEST(Svg, EscapesTextForXml) {
    EXPECT_EQ(svg::escape("a<b & \"c\" 'd' >"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39; &gt;");
    EXPECT_EQ(svg::escape(std::string("x\x01y", 3)), "x\xEF\xBF\xBDy");
    EXPECT_EQ(svg::escape("tab\tnl\n"), "tab\tnl\n");
    EXPECT_EQ(svg::number(1234.5), "1234.5");
    EXPECT_EQ(svg::number(0.1 + 0.2), "0.3");
}

TEST(Svg, BarChartCarriesItsData) {
    svg::bar_chart c;
    c.id = "t";
    c.title = "T";
    c.categories = {"a", "b"};
    c.value = {"throughput", "MB/s", svg::scale_kind::linear, svg::quantity::mb_s};
    c.series = {{"write", {10, 20}, {9, 18}, {11, 25}}};
    const std::string s = svg::render(c);
    EXPECT_NE(s.find("data-label=\"b\" data-value=\"20\" data-lo=\"18\" data-hi=\"25\""), std::string::npos)
        << s;
    EXPECT_NE(s.find("throughput (MB/s)"), std::string::npos);
    EXPECT_EQ(s.find("<script"), std::string::npos);
}

TEST(HtmlReport, ParsesAsXmlAndMatchesTheRecords) {
    const fs::path dir = fs::temp_directory_path() / ("fb-html-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "svg");
    const study_result a = sample_record(1.0, "machine-a"), b = sample_record(1.3, "machine-b");
    write_text(dir / "a.json", to_json(a).dump());
    write_text(dir / "b.json", to_json(b).dump());
    const html_report r = render_html_report({{"a.json", a}, {"b.json", b}}, "");
    write_text(dir / "report.html", r.html);
    for (const auto& [stem, text] : r.charts)
        write_text(dir / "svg" / (stem + ".svg"), text);

    EXPECT_NE(r.html.find("synthetic &lt;study&gt;"), std::string::npos);
    EXPECT_NE(r.html.find("Test CPU &amp; co"), std::string::npos);
    EXPECT_NE(r.html.find("machine-b"), std::string::npos);
    EXPECT_EQ(r.html.find("a<b"), std::string::npos); // only escaped
    EXPECT_EQ(r.html.find("<script"), std::string::npos);
    EXPECT_EQ(r.html.find("http://"), r.html.find("http://www.w3.org/1999/xhtml")); // namespaces only

    const std::string cmd = std::string(FB_PYTHON) + " " + FB_CHECK_REPORT + " " +
                            (dir / "report.html").string() + " --svg-dir " + (dir / "svg").string() +
                            " --expect-sweep count --expect-sweep 'option level' " +
                            (dir / "a.json").string() + " " + (dir / "b.json").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    fs::remove_all(dir);
}

// The page leads with the answer: under the title the verdict of each data
// set, then links, then the time against count (the charts of a count
// sweep's answer), then per data set its heading and its charts; the other
// sweeps; then the tables and the context. Failing, a reader of a scaling
// study would scroll past every data set's bars to find how time grows
// with the count, or past the charts to find the verdict.
TEST(HtmlReport, LeadsWithTheAnswerThenTheTimeAgainstCount) {
    const html_report r = render_html_report({{"one.json", sample_record(1.0, "h")}}, "");
    const std::string& h = r.html;
    auto at = [&](const std::string& s) {
        const std::size_t p = h.find(s);
        EXPECT_NE(p, std::string::npos) << s;
        return p;
    };
    const std::size_t first_figure = at("<figure"), first_table = at("<table"),
                      last_figure = h.rfind("</figure>");
    EXPECT_LT(first_figure, first_table);
    EXPECT_LT(last_figure, first_table) << "every chart before the first table";
    // Under the title, the answer: each data set's verdict under its name
    // (two data sets). The first sentence of 1e5 by hand: raw writes in
    // 1e-3 s x (1 + 0.001 i), i = 0..6, median 1.003 ms, interval (order
    // statistics of 7) [1.000, 1.006] ms; the next, the awkward label, in
    // 3x that: 3.009 / 1.003 = 3.00x [3.000 / 1.006, 3.018 / 1.000] =
    // [2.98, 3.02].
    const std::size_t title = at("</h1>\n"), answer = at("<div class=\"answer\" id=\"answer\">"),
                      answer_1e3 =
                          at("<h3>Data set <a href=\"#dataset-f64-uniform-1e3\">f64-uniform-1e3</a></h3>"),
                      answer_1e5 =
                          at("<h3>Data set <a href=\"#dataset-f64-uniform-1e5\">f64-uniform-1e5</a></h3>"),
                      verdict_1e5 =
                          at("<p class=\"verdict\">write: raw is fastest, 1.00 ms, and is the baseline; "
                             "3.00x [2.98, 3.02] faster than the next, a&lt;b &amp; &quot;c&quot; "
                             "&#39;d&#39; (significant).</p>");
    EXPECT_EQ(answer, title + 6) << "the answer right under the title";
    EXPECT_LT(answer_1e3, answer_1e5);
    EXPECT_LT(answer_1e5, verdict_1e5);
    const std::size_t nav = at("<nav"), count_head = at("<h2 id=\"sweeps-count\">Time against count</h2>"),
                      count_chart = at("data-chart=\"sweep-count-write\""),
                      link = h.find("<a href=\"#dataset-f64-uniform-1e3\">", nav),
                      head_1e3 = at("<h2 id=\"dataset-f64-uniform-1e3\">Data set f64-uniform-1e3</h2>"),
                      chart_1e3 = at("data-chart=\"throughput-write-f64-uniform-1e3\""),
                      head_1e5 = at("<h2 id=\"dataset-f64-uniform-1e5\">Data set f64-uniform-1e5</h2>"),
                      chart_1e5 = at("data-chart=\"throughput-write-f64-uniform-1e5\""),
                      sweeps = at("<h2 id=\"sweeps\">"), tables = at("<h2 id=\"summary\">"),
                      table_1e3 = at("<p id=\"tables-f64-uniform-1e3\">"),
                      context = at("<h2 id=\"context\">");
    EXPECT_LT(verdict_1e5, nav);
    EXPECT_LT(link, count_head);
    EXPECT_LT(at("<a href=\"#summary\">"), first_figure);
    EXPECT_LT(at("<a href=\"#sweeps-count\">"), first_figure);
    EXPECT_LT(count_head, first_figure);
    EXPECT_EQ(first_figure, h.rfind("<figure", count_chart)) << "the first chart is the write time vs count";
    EXPECT_LT(first_figure, head_1e3);
    EXPECT_LT(h.rfind("class=\"verdict\""), nav) << "no verdict repeated in the data sets' sections";
    EXPECT_EQ(h.find("sweep-option level"), std::string::npos);
    EXPECT_LT(h.find("data-parameter=\"count\""), head_1e3);
    EXPECT_GT(h.find("data-parameter=\"option level\""), head_1e5) << "the other sweeps after the data sets";
    EXPECT_LT(head_1e3, chart_1e3);
    EXPECT_LT(chart_1e3, head_1e5);
    EXPECT_LT(head_1e5, chart_1e5);
    EXPECT_LT(chart_1e5, sweeps);
    EXPECT_LT(last_figure, tables);
    EXPECT_LT(tables, table_1e3);
    EXPECT_LT(table_1e3, first_table);
    EXPECT_LT(first_table, context);
    EXPECT_LT(h.rfind("</table>"), context);
    // From the data set to its table and back.
    EXPECT_LT(h.find("<a href=\"#tables-f64-uniform-1e3\">"), chart_1e3);
    EXPECT_GT(h.find("<a href=\"#dataset-f64-uniform-1e3\">charts</a>"), tables);
    EXPECT_NE(h.find("p.verdict, p.comparison {"), std::string::npos) << "the verdict's style";
}

TEST(HtmlReport, SingleRecordWithAFailedCase) {
    study_result a = sample_record(1.0, "h");
    a.cases[1].status = case_status::crashed;
    a.cases[1].error = "signal 11 <SEGV>";
    a.cases[1].samples.clear();
    summarize_study(a);
    const html_report r = render_html_report({{"one.json", a}}, "My <title>");
    EXPECT_NE(r.html.find("<title>My &lt;title&gt;</title>"), std::string::npos);
    EXPECT_NE(r.html.find("signal 11 &lt;SEGV&gt;"), std::string::npos);
    // Said in its data set's section, before its charts.
    EXPECT_LT(r.html.find("<h2 id=\"dataset-f64-uniform-1e3\">"), r.html.find("signal 11 &lt;SEGV&gt;"));
    EXPECT_LT(r.html.find("signal 11 &lt;SEGV&gt;"),
              r.html.find("data-chart=\"throughput-write-f64-uniform-1e3\""));
    const fs::path dir = fs::temp_directory_path() / ("fb-html-test1-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write_text(dir / "one.json", to_json(a).dump());
    write_text(dir / "report.html", r.html);
    const std::string cmd = std::string(FB_PYTHON) + " " + FB_CHECK_REPORT + " " +
                            (dir / "report.html").string() + " --expect-sweep count " +
                            (dir / "one.json").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    fs::remove_all(dir);
}

TEST(HtmlReport, ChunkSweepOnAPowerOfTwoAxis) {
    // raw and zlib at chunk sizes 4 KiB, 64 KiB and 1 MiB: one chart per
    // phase (nothing else varies), ticks at powers of two written in KiB/MiB.
    std::vector<case_result> cases;
    for (std::uint64_t chunk : {4096u, 65536u, 1048576u}) {
        const double f = static_cast<double>(chunk) / 4096;
        cases.push_back(make_case("d", "raw", 1e-3 / f, 5e-4 / f, 5, {}, chunk));
        cases.push_back(make_case("d", "zlib", 4e-3 / f, 2e-3 / f, 5, {}, chunk));
    }
    const study_result a = make_result(cases);
    const html_report r = render_html_report({{"chunks.json", a}}, "");
    std::vector<std::string> sweeps;
    for (const auto& [stem, text] : r.charts)
        if (stem.starts_with("sweep-")) sweeps.push_back(stem);
    EXPECT_EQ(sweeps, (std::vector<std::string>{"sweep-chunk-write", "sweep-chunk-read"}));
    for (const char* label : {">4 KiB<", ">64 KiB<", ">1 MiB<", "chunk size, log scale"})
        EXPECT_NE(r.html.find(label), std::string::npos) << label;
    const fs::path dir = fs::temp_directory_path() / ("fb-html-test2-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write_text(dir / "chunks.json", to_json(a).dump());
    write_text(dir / "report.html", r.html);
    const std::string cmd = std::string(FB_PYTHON) + " " + FB_CHECK_REPORT + " " +
                            (dir / "report.html").string() + " --expect-sweep chunk " +
                            (dir / "chunks.json").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    fs::remove_all(dir);
}

namespace {

// Two formats read under one random pattern (latency CDF of 101 points)
// and one that read whole (no latency).
study_result latency_record() {
    std::vector<case_result> cases = {test::make_case("d", "raw", 1.0, 1.0, 3),
                                      test::make_case("d", "zlib", 1.0, 1.0, 3),
                                      test::make_case("d", "mmap", 1.0, 1.0, 3)};
    for (std::size_t k = 0; k < 2; ++k) {
        cases[k].spec.params.access = access_mode::random;
        for (repetition& r : cases[k].samples) {
            latency_summary l;
            l.ops = 100;
            for (int i = 0; i <= 100; ++i)
                l.cdf_ns.push_back(1000.0 * (k + 1) * (1 + i));
            l.p50_ns = l.cdf_ns[50];
            l.p99_ns = l.cdf_ns[99];
            l.mean_ns = 5000;
            r.read.latency = l;
        }
    }
    return test::make_result(cases);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST(HtmlReport, LatencyCdfChartHasALinePerPatternedCase) {
    const html_report r = render_html_report({{"lat.json", latency_record()}}, "");
    const auto it = std::find_if(r.charts.begin(), r.charts.end(),
                                 [](const auto& c) { return c.first.starts_with("latency-cdf-"); });
    ASSERT_NE(it, r.charts.end()) << r.html;
    EXPECT_EQ(count(it->second, "<polyline class=\"line\""), 2u) << it->second; // raw and zlib, not mmap
    EXPECT_NE(it->second.find("log scale"), std::string::npos);
    EXPECT_NE(it->second.find("data-lines=\"2\""), std::string::npos);
    // Lines through the 101 percentiles, a marker only at p50 and p99: raw's
    // percentile i is at 1000 (1 + i) ns, so its p50 at 51 µs, its p99 at
    // 100 µs; zlib's at twice that. Failing, the chart would be the
    // caterpillars of a marker per percentile again.
    EXPECT_EQ(count(it->second, "class=\"point\""), 4u);
    for (const char* marker :
         {"class=\"point\" data-series=\"raw\" data-label=\"p50\" data-x=\"5.1e-05\" data-y=\"50\"",
          "class=\"point\" data-series=\"raw\" data-label=\"p99\" data-x=\"0.0001\" data-y=\"99\"",
          "class=\"point\" data-series=\"zlib\" data-label=\"p50\" data-x=\"0.000102\" data-y=\"50\"",
          "class=\"point\" data-series=\"zlib\" data-label=\"p99\" data-x=\"0.0002\" data-y=\"99\""})
        EXPECT_NE(it->second.find(marker), std::string::npos) << marker << "\n" << it->second;
    const std::size_t xs = it->second.find("data-xs=\"1e-06 2e-06 3e-06 ");
    ASSERT_NE(xs, std::string::npos) << "raw's line from its percentile 0";
    const std::string raw_xs = it->second.substr(xs + 9, it->second.find('"', xs + 9) - xs - 9);
    EXPECT_EQ(count(" " + raw_xs, " "), 101u) << raw_xs;
    // A record without latency (schema 3 style) has no CDF chart.
    const html_report plain = render_html_report({{"one.json", sample_record(1.0, "h")}}, "");
    for (const auto& c : plain.charts)
        EXPECT_FALSE(c.first.starts_with("latency-cdf-")) << c.first;
}

namespace {

// raw, npy and mmap, each written once and read whole and as random blocks
// (the same write: pooled), with the study's workload: 1 write, 100 random
// reads. Times (every repetition alike):  write   whole read  random read
//                                   raw    10 ms    5 ms         2 ms
//                                   npy    11 ms    5 ms         1 ms
//                                   mmap   50 ms    5 ms       1.5 ms
study_result workload_record() {
    std::vector<case_result> cases;
    const struct {
        const char* label;
        double write_s, random_s;
        std::uint64_t file_bytes;
    } formats[] = {
        {"raw", 0.010, 0.002, 8000000}, {"npy", 0.011, 0.001, 8000128}, {"mmap", 0.050, 0.0015, 8000000}};
    for (const auto& f : formats)
        for (const access_mode a : {access_mode::whole, access_mode::random}) {
            case_result c =
                make_case("d", f.label, f.write_s, a == access_mode::whole ? 0.005 : f.random_s, 5);
            for (repetition& r : c.samples) {
                r.write.wall_s = f.write_s;
                r.read.wall_s = a == access_mode::whole ? 0.005 : f.random_s;
            }
            c.spec.params.access = a;
            c.spec.key += a == access_mode::whole ? ",access=whole" : ",access=random";
            c.file_bytes = f.file_bytes;
            cases.push_back(std::move(c));
        }
    study_result r = make_result(cases);
    r.spec.workload.given = true;
    r.spec.workload.write.weight = 1;
    workload_phase reads;
    reads.weight = 100;
    reads.params.access = access_mode::random;
    reads.keys = {"access"};
    r.spec.workload.reads = {reads};
    summarize_study(r);
    return r;
}

} // namespace

// A study that states its workload: the recommendation is the first thing
// under the title, the verdict's sentences behind it in the data set's
// section. Expected by hand: raw 10 + 100 x 2 = 210 ms, npy 11 + 100 x 1 =
// 111 ms, mmap 50 + 100 x 1.5 = 200 ms: pick npy; the runner-up mmap takes
// 200 / 111 = 1.80x as long (5 repetitions: too few for an interval).
// Failing, a user with a workload would find the verdict's rankings first,
// or no pick at all.
TEST(HtmlReport, LeadsWithTheWorkloadsRecommendation) {
    const study_result a = workload_record();
    const html_report r = render_html_report({{"mix.json", a}}, "");
    const std::string& h = r.html;
    const std::string want =
        "</h1>\n<div class=\"answer\" id=\"answer\">\n<p class=\"recommendation\">workload (1 write, 100 "
        "reads "
        "[random]): pick npy, 111 ms expected for the mix, file 8.00 MB; the runner-up, mmap, takes 1.80x as "
        "long (too few samples for an interval).</p>\n";
    EXPECT_NE(h.find(want), std::string::npos) << h.substr(0, h.find("<nav"));
    // One data set: no heading of its own in the answer; the rankings in
    // the data set's section, before its charts.
    EXPECT_EQ(h.find("<h3>Data set"), std::string::npos);
    const std::size_t ranking = h.find("<p class=\"verdict\">read [random]: npy is fastest, 1.00 ms");
    EXPECT_GT(ranking, h.find("<h2 id=\"dataset-d\">"));
    EXPECT_LT(ranking, h.find("<figure"));
    EXPECT_EQ(count(h, "workload ("), 1u) << "the recommendation once";
    const fs::path dir = fs::temp_directory_path() / ("fb-html-test3-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write_text(dir / "mix.json", to_json(a).dump());
    write_text(dir / "report.html", h);
    const std::string cmd = std::string(FB_PYTHON) + " " + FB_CHECK_REPORT + " " +
                            (dir / "report.html").string() + " " + (dir / "mix.json").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    fs::remove_all(dir);
}

// Two records of one study: the answer is compare's (each case's ratio with
// its interval, the geometric mean, the RESULT line), never a verdict per
// record. b is a with every time x 1.3, so every ratio is 1.3 and the
// geometric mean over the 8 cases +30.0%. Failing, a reader would see two
// verdicts ("raw is fastest ..." twice with other figures) and no ratio.
TEST(HtmlReport, SeveralRecordsShowCompareNotVerdicts) {
    const html_report r = render_html_report(
        {{"a.json", sample_record(1.0, "machine-a")}, {"b.json", sample_record(1.3, "machine-b")}}, "");
    const std::string& h = r.html;
    EXPECT_EQ(h.find("class=\"verdict\""), std::string::npos);
    EXPECT_EQ(h.find("is fastest"), std::string::npos);
    const std::size_t answer = h.find("<div class=\"answer\" id=\"answer\">\n<h3>b.json against a.json (<a "
                                      "href=\"#compare-2\">table</a>)</h3>\n"),
                      mean = h.find(
                          "<p class=\"comparison\">geometric mean of ratios (new/base) over 8 comparable "
                          "case(s): write 1.300 (+30.0%), read 1.300 (+30.0%)</p>"),
                      result = h.find("<p class=\"comparison\">RESULT: "), nav = h.find("<nav");
    EXPECT_NE(answer, std::string::npos) << h.substr(0, nav);
    EXPECT_LT(answer, mean);
    EXPECT_LT(mean, result);
    EXPECT_LT(result, nav);
    // Per data set the ratios, its first chart: 4 formats, write and read.
    for (const char* d : {"f64-uniform-1e3", "f64-uniform-1e5"}) {
        const auto it = std::find_if(r.charts.begin(), r.charts.end(),
                                     [&](const auto& c) { return c.first == std::string("ratio-") + d; });
        ASSERT_NE(it, r.charts.end()) << d;
        EXPECT_EQ(count(it->second, "class=\"bar\""), 8u);
        EXPECT_EQ(count(it->second, "data-value=\"1.3\""), 8u) << it->second;
        EXPECT_LT(h.find(std::string("data-chart=\"ratio-") + d + "\""),
                  h.find(std::string("data-chart=\"throughput-write-") + d + "\""));
    }
    // compare's table among the tables, after every chart.
    EXPECT_GT(h.find("<h3 id=\"compare-2\">b.json against a.json</h3>"), h.rfind("</figure>"));
}

// Two records whose data sets share a name but not a definition (count 1000
// and 2000) are two sections, each titled with its description, never one
// section with both records' bars side by side ("report merged data sets
// that share a name but differ in count").
TEST(HtmlReport, DataSetsAreMatchedByDefinitionNotName) {
    auto record = [](std::uint64_t count) {
        case_result c = make_case("d", "raw", 1e-3, 1e-3, 7);
        c.spec.dataset.count = count;
        c.payload_bytes = c.file_bytes = count * 8;
        c.spec.key =
            "d/f64/" + std::to_string(count) + "/dist=uniform,seed=1|raw/raw/|chunk=0,cache=warm,sync=none";
        return make_result({c});
    };
    const html_report r = render_html_report({{"a.json", record(1000)}, {"b.json", record(2000)}}, "");
    auto count_of = [&](const std::string& text) {
        std::size_t n = 0;
        for (std::size_t at = r.html.find(text); at != std::string::npos; at = r.html.find(text, at + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(count_of("<h2 id=\"dataset-"), 2u) << r.html;
    // The sections' headings, in order, and the text of each section.
    std::vector<std::string> headings, sections;
    for (std::size_t at = r.html.find("<h2 id=\"dataset-"); at != std::string::npos;) {
        const std::size_t text = r.html.find('>', at) + 1;
        headings.push_back(r.html.substr(text, r.html.find("</h2>", text) - text));
        const std::size_t next = r.html.find("<h2", text);
        sections.push_back(r.html.substr(text, next - text));
        at = r.html.find("<h2 id=\"dataset-", text);
    }
    ASSERT_EQ(headings.size(), 2u);
    EXPECT_EQ(headings[0].rfind("Data set d (1000 x f64", 0), 0u) << headings[0];
    EXPECT_EQ(headings[1].rfind("Data set d (2000 x f64", 0), 0u) << headings[1];
    // Each section's charts hold its own record's bars only.
    EXPECT_NE(sections[0].find("a.json: write: raw"), std::string::npos);
    EXPECT_EQ(sections[0].find("b.json: write: raw"), std::string::npos);
    EXPECT_NE(sections[1].find("b.json: write: raw"), std::string::npos);
    EXPECT_EQ(sections[1].find("a.json: write: raw"), std::string::npos);
    // Same name and definition in both records: one section, as before.
    const html_report same = render_html_report({{"a.json", record(1000)}, {"b.json", record(1000)}}, "");
    EXPECT_NE(same.html.find(">Data set d</h2>"), std::string::npos);
}

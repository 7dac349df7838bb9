// The JSON record (round trip, errors, schema) and the reporters (console,
// Markdown, CSV read back with an RFC 4180 parser) on a synthetic study.
#include "base/error.hpp"
#include "report/html.hpp"
#include "report/outputs.hpp"
#include "report/units.hpp"
#include "results/json.hpp"
#include "results/stats.hpp"
#include "results/summary.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace formatbench;
using nlohmann::json;

namespace {

case_spec make_spec(std::size_t index, const std::string& label, const std::string& plugin) {
    case_spec c;
    c.index = index;
    c.key = "f64-uniform-1e6|" + label;
    c.dataset.name = "f64-uniform-1e6";
    c.dataset.type = FB_DTYPE_F64;
    c.dataset.count = 1000000;
    c.dataset.seed = 42;
    c.format.label = label;
    c.format.plugin = plugin;
    c.format.base_label = label;
    c.format.origin = "configs/stream-io.yaml:3:5";
    c.dataset.origin = "configs/stream-io.yaml:2:5";
    return c;
}

// Repetitions with the given write and read wall times.
std::vector<repetition> reps(const std::vector<double>& w, const std::vector<double>& r,
                             double resident = -1) {
    std::vector<repetition> out;
    for (std::size_t i = 0; i < w.size(); ++i)
        out.push_back({{w[i], w[i] * 0.9, w[i] * 0.05}, {r[i], r[i] * 0.8, r[i] * 0.1}, resident});
    return out;
}

// The reference experiment in miniature: ascii (baseline, lossy text), raw,
// a zlib format whose label needs CSV quoting, a cold raw case, a crash.
study_result make_result() {
    study_result r;
    r.context.formatbench_version = "0.1.0";
    r.context.date = "2024-05-01T12:00:00Z";
    r.context.host = "testhost";
    r.context.os = "Debian GNU/Linux 12";
    r.context.kernel = "6.1.0";
    r.context.cpu_model = "Example CPU @ 2.0GHz";
    r.context.cores = 2;
    r.context.memory_bytes = 16'000'000'000ULL;
    r.context.data_directory = "/tmp/fb-test";
    r.context.filesystem = "ext4";
    r.context.compiler = "gcc 12.2.0";
    r.context.build_type = "release";
    r.context.plugins = {{"ascii", "1.0", "/p/libascii.so"}, {"raw", "1.0", "/p/libraw.so"}};

    r.spec.name = "stream-io";
    r.spec.description = "Fortran tip: unformatted stream I/O";
    r.spec.source = "configs/stream-io.yaml";
    r.spec.resolved_yaml = "name: stream-io\nbaseline: ascii\n";
    r.spec.baseline = "ascii";
    r.spec.directory = "/tmp/fb-test";
    r.spec.isolation = isolation_mode::process;
    r.spec.outputs = {{"console", "", ""}, {"json", "out.json", ""}};
    r.spec.plugin_path = {"/opt/plugins"};

    case_result ascii;
    ascii.spec = make_spec(0, "ascii", "ascii");
    ascii.samples = reps({0.30, 0.31, 0.29, 0.32, 0.30}, {0.234, 0.236, 0.230, 0.240, 0.234});
    ascii.payload_bytes = 8000000;
    ascii.file_bytes = 19000000;
    ascii.peak_rss_bytes = 40000000;
    ascii.buffer_alignment = 4096;
    ascii.verify = {true, 1000000, 1234, 5.5511151231257827e-17, 1.1e-16, false};
    ascii.plugin_version = "1.0";
    ascii.plugin_file = "/p/libascii.so";

    case_result raw;
    raw.spec = make_spec(1, "raw", "raw");
    raw.samples =
        reps({0.003, 0.0031, 0.0029, 0.0030, 0.0032}, {0.00046, 0.00050, 0.00047, 0.00045, 0.00052});
    raw.payload_bytes = 8000000;
    raw.file_bytes = 8000000;
    raw.peak_rss_bytes = 20000000;
    raw.buffer_alignment = 4096;
    raw.verify = {true, 1000000, 0, 0, 0, true};
    raw.plugin_version = "1.0";
    raw.plugin_file = "/p/libraw.so";

    case_result zlib;
    zlib.spec = make_spec(2, "zlib \"fast\", level=1", "zlib");
    zlib.spec.format.options = {{"strategy", "default"}, {"level", "1"}}; // not in name order
    zlib.spec.params.chunk_bytes = 65536;
    zlib.samples = reps({0.2, 0.21, 0.19}, {0.03, 0.031, 0.029});
    zlib.payload_bytes = 8000000;
    zlib.file_bytes = 7547169;
    zlib.verify = {true, 1000000, 0, 0, 0, true};
    zlib.buffer_alignment = 4096;

    case_result cold;
    cold.spec = make_spec(3, "raw", "raw");
    cold.spec.key += "|cold";
    cold.spec.params.cache = cache_mode::cold;
    cold.samples = reps({0.004, 0.004}, {0.02, 0.03}, 0.25);
    cold.payload_bytes = 8000000;
    cold.file_bytes = 8000000;
    cold.verify = {true, 1000000, 0, 0, 0, true};

    case_result crash;
    crash.spec = make_spec(4, "broken", "crashy");
    crash.status = case_status::crashed;
    crash.error = "killed by signal 11 (SIGSEGV), \"core\"\nsecond line";
    crash.payload_bytes = 8000000;

    r.cases = {ascii, raw, zlib, cold, crash};
    for (const case_result& c : r.cases)
        r.spec.cases.push_back(c.spec);
    // A planned case that never ran (interrupted study): in the plan only.
    r.spec.cases.push_back(make_spec(5, "never", "raw"));
    summarize_study(r); // as the runner leaves a record
    return r;
}

// What an output of the output table writes for this record (through its
// observer, into a file).
std::string render(const study_result& r, const char* format, const render_options& style = {}) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("fb-test-render-" + std::to_string(::getpid()) + "-" + format);
    auto o = output_kind_named(format, "").make(path.string(), {}, style);
    run_outcome outcome;
    outcome.result = r;
    summarize_study(outcome.result); // as the runner leaves a record
    o->end(outcome);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::filesystem::remove(path);
    return text.str();
}

// RFC 4180 reader for the test: quoted fields may hold commas, doubled
// quotes, CR and LF; records end with CRLF (LF accepted).
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, field_started = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            EXPECT_TRUE(field.empty()) << "quote inside an unquoted field";
            quoted = field_started = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            field_started = false;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r') {
                EXPECT_TRUE(i + 1 < text.size() && text[i + 1] == '\n') << "bare CR";
                ++i;
            }
            row.push_back(field);
            rows.push_back(row);
            field.clear();
            row.clear();
            field_started = false;
        } else {
            field += c;
            field_started = true;
        }
    }
    EXPECT_FALSE(quoted) << "unterminated quoted field";
    if (field_started || !row.empty()) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

std::filesystem::path temp_file(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("fb-test-reports-" + std::to_string(::getpid()) + "-" + name);
}

// 0 valid, 1 invalid, 77 jsonschema not available.
int validate_with_python(const json& doc, const std::string& tag) {
    const std::string python = FB_PYTHON;
    if (python.empty()) return 77;
    const auto doc_path = temp_file(tag + ".json"), script_path = temp_file(tag + ".py");
    std::ofstream(doc_path) << doc.dump(2);
    std::ofstream(script_path) << R"(import json, sys
try:
    import jsonschema
except ImportError:
    sys.exit(77)
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator.check_schema(schema)
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
for e in errors:
    print("schema error at", "/".join(str(p) for p in e.absolute_path), ":", e.message)
sys.exit(1 if errors else 0)
)";
    const std::string cmd = "'" + python + "' '" + script_path.string() + "' '" + FB_RESULTS_SCHEMA + "' '" +
                            doc_path.string() + "'";
    const int status = std::system(cmd.c_str());
    std::filesystem::remove(doc_path);
    std::filesystem::remove(script_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

// --- JSON record -------------------------------------------------------------

TEST(ResultsJson, RoundTripIsLossless) {
    study_result r = make_result();
    r.cases[0].verify.max_rel_error = 0.1 + 0.2; // not a short decimal
    r.cases[1].samples[0].write.user_s = 1.0 / 3.0;
    r.spec.cases[0].dataset.mean = std::numeric_limits<double>::quiet_NaN();
    r.cases[0].spec.dataset.mean = std::numeric_limits<double>::quiet_NaN();
    r.spec.cases[0].dataset.file_options = {{"a", "1"}, {"b", "x, \"y\""}};
    summarize_study(r);
    const json j = to_json(r);
    // Through text, as a file would go.
    const study_result back = study_result_from_json(json::parse(j.dump()), "mem.json");
    EXPECT_EQ(to_json(back), j);

    // Spot checks on the structs themselves.
    ASSERT_EQ(back.cases.size(), r.cases.size());
    EXPECT_EQ(back.spec.cases.size(), 6u);
    EXPECT_EQ(back.cases[0].verify.max_rel_error, 0.1 + 0.2);
    EXPECT_EQ(back.cases[1].samples[0].write.user_s, 1.0 / 3.0);
    EXPECT_TRUE(std::isnan(back.cases[0].spec.dataset.mean));
    EXPECT_EQ(back.cases[3].samples[1].resident_fraction, 0.25);
    EXPECT_EQ(back.cases[0].samples[0].resident_fraction, -1);
    EXPECT_EQ(back.cases[3].spec.params.cache, cache_mode::cold);
    EXPECT_EQ(back.cases[4].status, case_status::crashed);
    EXPECT_EQ(back.cases[4].error, r.cases[4].error);
    EXPECT_EQ(back.cases[2].spec.params.chunk_bytes, 65536u);
    EXPECT_EQ(back.context.memory_bytes, 16'000'000'000ULL);
    EXPECT_EQ(back.context.plugins.size(), 2u);
    EXPECT_EQ(back.context.plugins[1].file, "/p/libraw.so");
    EXPECT_EQ(back.spec.outputs[1].path, "out.json");
    EXPECT_EQ(back.spec.resolved_yaml, r.spec.resolved_yaml);
    // Options come back sorted by name (a JSON object has no order).
    const option_list sorted = {{"level", "1"}, {"strategy", "default"}};
    EXPECT_EQ(back.cases[2].spec.format.options, sorted);
}

TEST(ResultsJson, CaseResultAloneRoundTrips) {
    const study_result r = make_result();
    for (const case_result& c : r.cases) {
        const json j = to_json(c);
        EXPECT_EQ(to_json(case_result_from_json(json::parse(j.dump()))), j);
        EXPECT_EQ(to_json(case_spec_from_json(j)), to_json(c.spec));
    }
    EXPECT_EQ(to_json(run_context_from_json(to_json(r.context))), to_json(r.context));
}

TEST(ResultsJson, MessageOnlyFieldsMayBeAbsent) {
    json j = to_json(make_result());
    j["cases"][0]["dataset"].erase("origin");
    j["cases"][0]["format"].erase("origin");
    j["cases"][0]["format"].erase("base_label");
    const study_result back = study_result_from_json(j, "old.json");
    EXPECT_EQ(back.cases[0].spec.format.base_label, "");
    EXPECT_EQ(back.cases[1].spec.format.origin, "configs/stream-io.yaml:3:5");
}

TEST(ResultsJson, RecordShape) {
    const json j = to_json(make_result());
    EXPECT_EQ(j["schema_version"], 5);
    EXPECT_EQ(j["generator"].get<std::string>().rfind("formatbench ", 0), 0u);
    const json& ascii = j["cases"][0];
    EXPECT_EQ(ascii["format"]["label"], "ascii");
    EXPECT_DOUBLE_EQ(ascii["size_ratio"].get<double>(), 8.0 / 19.0);
    EXPECT_DOUBLE_EQ(ascii["write"]["median_s"].get<double>(), 0.30);
    EXPECT_DOUBLE_EQ(ascii["write"]["throughput_mb_s"].get<double>(), 8.0 / 0.30);
    EXPECT_DOUBLE_EQ(ascii["read"]["min_s"].get<double>(), 0.230);
    EXPECT_TRUE(ascii["samples"][0]["resident_fraction"].is_null());
    const json& crash = j["cases"][4];
    EXPECT_TRUE(crash["size_ratio"].is_null()); // no file
    EXPECT_EQ(crash["write"]["n"], 0);
    EXPECT_TRUE(crash["write"]["median_s"].is_null());
    EXPECT_EQ(crash["status"], "crashed");
}

TEST(ResultsJson, NonFiniteIsNull) {
    study_result r = make_result();
    r.cases[0].verify.max_abs_error = std::numeric_limits<double>::infinity();
    summarize_study(r);
    const json j = to_json(r);
    EXPECT_TRUE(j["cases"][0]["verify"]["max_abs_error"].is_null());
    EXPECT_NO_THROW((void)j.dump());
}

TEST(ResultsJson, ErrorsNameSourceAndPath) {
    const json good = to_json(make_result());
    auto message = [](const json& j) -> std::string {
        try {
            (void)study_result_from_json(j, "runs/old.json");
        } catch (const usage_error& e) {
            return e.what();
        }
        return "(no error)";
    };

    json bad = good;
    bad["cases"][1]["params"].erase("cache");
    std::string m = message(bad);
    EXPECT_NE(m.find("runs/old.json"), std::string::npos) << m;
    EXPECT_NE(m.find("cases[1].params"), std::string::npos) << m;
    EXPECT_NE(m.find("missing key 'cache'"), std::string::npos) << m;

    bad = good;
    bad["cases"][0]["params"]["cache"] = "cld";
    m = message(bad);
    EXPECT_NE(m.find("cases[0].params.cache"), std::string::npos) << m;
    EXPECT_NE(m.find("'cld'"), std::string::npos) << m;
    EXPECT_NE(m.find("warm, cold"), std::string::npos) << m;

    bad = good;
    bad["cases"][2]["payload_bytes"] = "many";
    m = message(bad);
    EXPECT_NE(m.find("cases[2].payload_bytes: expected an integer, got string"), std::string::npos) << m;

    bad = good;
    bad["cases"][2]["file_bytes"] = -5;
    EXPECT_NE(message(bad).find("out of range"), std::string::npos) << message(bad);

    bad = good;
    bad["schema_version"] = 6;
    m = message(bad);
    EXPECT_NE(m.find("schema_version"), std::string::npos) << m;

    EXPECT_NE(message(json::array()).find("runs/old.json"), std::string::npos);
    EXPECT_THROW((void)case_result_from_json(json{{"key", "x"}}), usage_error);
}

TEST(ResultsJson, ValidatesAgainstSchema) {
    const json j = to_json(make_result());
    int rc = validate_with_python(j, "record");
    ASSERT_NE(rc, 77)
        << "python3 with jsonschema is required (Debian: python3-jsonschema; scripts/setup-debian.sh)";
    EXPECT_EQ(rc, 0) << "the record does not validate against " << FB_RESULTS_SCHEMA;

    // An empty study validates too.
    study_result empty;
    EXPECT_EQ(validate_with_python(to_json(empty), "empty"), 0);

    // The schema is strict: a record with a key removed or added fails.
    json missing = j;
    missing["cases"][0].erase("payload_bytes");
    EXPECT_EQ(validate_with_python(missing, "missing"), 1);
    json extra = j;
    extra["cases"][0]["speed"] = 1;
    EXPECT_EQ(validate_with_python(extra, "extra"), 1);
    json extra_spec = j;
    extra_spec["study"]["cases"][0]["status"] = "ok";
    EXPECT_EQ(validate_with_python(extra_spec, "extra-spec"), 1);
}

// --- reporters ---------------------------------------------------------------

TEST(Reporters, UnknownFormatListsKnownOnes) {
    try {
        (void)output_kind_named("html5", "s.yaml:3:5");
        FAIL() << "no error";
    } catch (const usage_error& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("s.yaml:3:5: unknown output 'html5'", 0), 0u) << m;
        for (const char* name : {"console", "json", "csv", "markdown", "jsonl"})
            EXPECT_NE(m.find(name), std::string::npos) << m;
    }
    EXPECT_NO_THROW((void)output_kind_named("console", ""));
}

TEST(Reporters, JsonIsTheRecord) {
    const study_result r = make_result();
    const std::string text = render(r, "json");
    EXPECT_EQ(json::parse(text), to_json(r));
    EXPECT_NE(text.find("\n  \"cases\""), std::string::npos); // indent 2
}

TEST(Reporters, CsvParsesBackToTheSameNumbers) {
    const study_result r = make_result();
    const std::string text = render(r, "csv");
    EXPECT_NE(text.find("\r\n"), std::string::npos);
    const auto rows = parse_csv(text);
    ASSERT_EQ(rows.size(), 1 + r.cases.size());
    const auto& header = rows[0];
    auto col = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << "no column " << name;
        return static_cast<std::size_t>(it - header.begin());
    };
    for (const auto& row : rows)
        ASSERT_EQ(row.size(), header.size());
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        const case_result& c = r.cases[i];
        const auto& row = rows[i + 1];
        const summary w = summarize(write_times(c)), rd = summarize(read_times(c));
        EXPECT_EQ(row[col("format")], c.spec.format.label);
        EXPECT_EQ(row[col("error")], c.error);
        EXPECT_EQ(row[col("status")], to_string(c.status));
        EXPECT_EQ(row[col("file_bytes")], std::to_string(c.file_bytes));
        EXPECT_EQ(row[col("mismatches")], std::to_string(c.verify.mismatches));
        if (w.n == 0) {
            EXPECT_EQ(row[col("write_median_s")], "");
            continue;
        }
        EXPECT_EQ(std::stod(row[col("write_median_s")]), w.median);
        EXPECT_EQ(std::stod(row[col("write_min_s")]), w.min);
        EXPECT_EQ(std::stod(row[col("write_mean_s")]), w.mean);
        EXPECT_EQ(std::stod(row[col("write_stddev_s")]), w.stddev);
        EXPECT_EQ(std::stod(row[col("read_median_s")]), rd.median);
        EXPECT_EQ(std::stod(row[col("read_stddev_s")]), rd.stddev);
        EXPECT_EQ(std::stod(row[col("write_mb_s")]), 8.0 / w.median);
        EXPECT_EQ(std::stod(row[col("read_mb_s")]), 8.0 / rd.median);
        EXPECT_EQ(std::stod(row[col("max_abs_error")]), c.verify.max_abs_error);
        EXPECT_EQ(std::stod(row[col("size_ratio")]),
                  static_cast<double>(c.payload_bytes) / static_cast<double>(c.file_bytes));
    }
    EXPECT_EQ(std::stod(rows[1][col("write_speedup")]), 1.0);
    EXPECT_NEAR(std::stod(rows[2][col("write_speedup")]), 100.0, 1e-9);
    EXPECT_EQ(rows[3][col("options")], "strategy=default;level=1");
}

// The wide table (--columns all): each row holds all of its figures.
TEST(Reporters, ConsoleTable) {
    render_options all;
    all.columns = {"all"};
    const std::string text = render(make_result(), "console", all);
    SCOPED_TRACE(text);
    EXPECT_NE(text.find("study 'stream-io'"), std::string::npos);
    EXPECT_NE(text.find("host testhost"), std::string::npos);
    EXPECT_NE(text.find("2 cores"), std::string::npos);
    EXPECT_NE(text.find("fs ext4"), std::string::npos);
    EXPECT_NE(text.find("dataset 'f64-uniform-1e6'"), std::string::npos);
    EXPECT_NE(text.find("MB/s: 10^6 bytes of payload"), std::string::npos);
    EXPECT_NE(text.find("speed-up: median time of baseline 'ascii'"), std::string::npos);

    auto line_of = [&](const std::string& start) {
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.rfind(" " + start, 0) == 0) return line;
        ADD_FAILURE() << "no row starting with " << start;
        return std::string();
    };
    const std::string ascii = line_of("ascii ");
    EXPECT_NE(ascii.find("300 ms"), std::string::npos) << ascii;
    EXPECT_NE(ascii.find("234 ms"), std::string::npos) << ascii;
    EXPECT_NE(ascii.find("26.7"), std::string::npos) << ascii; // 8 MB / 0.3 s
    EXPECT_NE(ascii.find("19.0 MB"), std::string::npos) << ascii;
    EXPECT_NE(ascii.find("0.42"), std::string::npos) << ascii;
    EXPECT_NE(ascii.find("err 5.6e-17"), std::string::npos) << ascii;
    // The baseline row: 1.00x for write and read.
    const auto first = ascii.find("1.00x");
    ASSERT_NE(first, std::string::npos) << ascii;
    EXPECT_NE(ascii.find("1.00x", first + 1), std::string::npos) << ascii;
    // raw: 0.3 / 0.003 = 100x write, 0.234 / 0.00047 = 498x read; cache
    // varies among raw cases, so the rows name it.
    const std::string raw = line_of("raw [warm]");
    EXPECT_NE(raw.find("3.00 ms"), std::string::npos) << raw;
    EXPECT_NE(raw.find("470 \u00b5s"), std::string::npos) << raw;
    EXPECT_NE(raw.find("exact"), std::string::npos) << raw;
    EXPECT_NE(raw.find("100x"), std::string::npos) << raw;
    EXPECT_NE(raw.find("498x"), std::string::npos) << raw;
    const std::string cold = line_of("raw [cold]");
    EXPECT_NE(cold.find("25%"), std::string::npos) << cold;
    EXPECT_NE(text.find("resident"), std::string::npos);
    const std::string broken = line_of("broken");
    EXPECT_NE(broken.find("crashed"), std::string::npos) << broken;
    EXPECT_NE(text.find("broken: crashed: killed by signal 11"), std::string::npos);
}

TEST(Reporters, NoneOfTheFileResidentIsZeroPercentNotUnknown) {
    // A cold read that found none of its file in the page cache: mincore
    // said 0, which every output prints as 0 (a "-" or an empty cell would
    // tell the user the residency was not measured).
    study_result r = make_result();
    r.cases[3].samples = reps({0.004, 0.004}, {0.02, 0.03}, 0.0);
    const std::string text = render(r, "console");
    bool zero = false; // in the row's resident cell, wherever the table split it
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);)
        if (l.find("raw [cold]") != std::string::npos)
            zero |= l.find(" 0% ") != std::string::npos || l.ends_with(" 0%");
    EXPECT_TRUE(zero) << text;
    const auto rows = parse_csv(render(r, "csv"));
    ASSERT_EQ(rows.size(), 1 + r.cases.size());
    const auto it = std::find(rows[0].begin(), rows[0].end(), "resident_fraction");
    ASSERT_NE(it, rows[0].end());
    const auto col = static_cast<std::size_t>(it - rows[0].begin());
    EXPECT_EQ(rows[4][col], "0");
    EXPECT_EQ(rows[1][col], "") << "ascii: not measured";
}

TEST(Reporters, MarkdownMakesForeignTextLiteral) {
    // A label, an error and a description from a study or a plugin, each
    // markup or a forged row: in the Markdown none is a script, a link, a
    // table row of its own or an escape sequence (a page rendering the
    // report would run the script or follow the link).
    study_result r = make_result();
    r.spec.description = "\x1b[2Jwiped <b>bold</b>";
    r.cases[1].spec.format.label = "<script>alert(1)</script>";
    r.cases[4].error = "[click](javascript:alert(1))\n| forged | row |";
    const std::string md = render(r, "markdown");
    EXPECT_EQ(md.find("<script"), std::string::npos) << md;
    EXPECT_EQ(md.find("<b>"), std::string::npos) << md;
    // A link is "[text](url)": no "](" may be left.
    EXPECT_EQ(md.find("]("), std::string::npos) << md;
    EXPECT_EQ(md.find('\x1b'), std::string::npos) << md;
    EXPECT_EQ(md.find("\n| forged"), std::string::npos) << md;
    EXPECT_NE(md.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << md;
    EXPECT_NE(md.find("[click]\\(javascript:alert(1))\\\\n\\| forged \\| row \\|"), std::string::npos) << md;
}

TEST(Reporters, ConsoleWithoutBaselineHasNoSpeedups) {
    study_result r = make_result();
    r.spec.baseline.clear();
    const std::string text = render(r, "console");
    EXPECT_EQ(text.find("speed-up"), std::string::npos) << text;
    EXPECT_EQ(text.find("1.00x"), std::string::npos) << text;
}

TEST(Reporters, ConsoleBaselineByPreExpansionLabel) {
    study_result r = make_result();
    r.spec.baseline = "zlib"; // the label before expansion
    r.cases[2].spec.format.label = "zlib level=1";
    r.cases[2].spec.format.base_label = ""; // the fallback: label prefix
    EXPECT_NE(render(r, "console").find("0.67x"), std::string::npos);
    r.cases[2].spec.format.label = "zlib-1"; // a label made by the plan
    r.cases[2].spec.format.base_label = "zlib";
    const std::string text = render(r, "console");
    EXPECT_NE(text.find("zlib-1"), std::string::npos);
    // ascii: 0.2 / 0.3 = 0.67x
    EXPECT_NE(text.find("0.67x"), std::string::npos) << text;
}

TEST(Reporters, MarkdownTable) {
    study_result r = make_result();
    r.cases[1].spec.format.label = "raw|pipe";
    const std::string text = render(r, "markdown");
    SCOPED_TRACE(text);
    EXPECT_NE(text.find("# formatbench: stream-io"), std::string::npos);
    EXPECT_NE(text.find("*host testhost"), std::string::npos);
    EXPECT_NE(
        text.find("| format | write | read | write MB/s | read MB/s | file | ratio | resident | check | "
                  "write speed-up | read speed-up | status |"),
        std::string::npos);
    EXPECT_NE(text.find("| :-- | --: |"), std::string::npos);
    EXPECT_NE(text.find("| ascii | 300 ms"), std::string::npos);
    EXPECT_NE(text.find("raw\\|pipe"), std::string::npos);
    EXPECT_NE(text.find("| 1.00x | 1.00x |"), std::string::npos);
    EXPECT_NE(text.find("MB/s: 10^6 bytes of payload"), std::string::npos);
    EXPECT_NE(text.find("- broken: crashed: killed by signal 11"), std::string::npos);
}

// --- numbers against hand-computed values ------------------------------------
//
// Two cases of 6 MB payload. "text" (the baseline) writes in 4, 1, 2, 10 and
// 3 ms: sorted 1 2 3 4 10, so min 1 ms, median 3 ms, mean 20/5 = 4 ms,
// squared deviations 9 + 4 + 1 + 0 + 36 = 50, sample variance 50/4 = 12.5
// ms^2, stddev sqrt(12.5) = 3.5355339 ms, CV 3.5355339/4 = 0.88388348;
// throughput 6 MB / 3 ms = 2000 MB/s. It reads in 2 ms every time: stddev 0,
// 3000 MB/s. Its file is 12 MB: size ratio 0.5.
// "fast" writes in 0.5 ms (12000 MB/s) and reads in 1 ms (6000 MB/s), file
// 6 MB (ratio 1); its speed-ups against "text" are 3/0.5 = 6 and 2/1 = 2.
namespace {

study_result hand_made_result() {
    study_result r = make_result();
    r.spec.baseline = "text";
    case_result text, fast;
    text.spec = make_spec(0, "text", "ascii");
    fast.spec = make_spec(1, "fast", "raw");
    text.samples = reps({4e-3, 1e-3, 2e-3, 10e-3, 3e-3}, {2e-3, 2e-3, 2e-3, 2e-3, 2e-3});
    fast.samples = reps({0.5e-3, 0.5e-3, 0.5e-3}, {1e-3, 1e-3, 1e-3});
    for (case_result* c : {&text, &fast}) {
        c->payload_bytes = 6'000'000;
        c->verify = {true, 750000, 0, 0, 0, true};
    }
    text.file_bytes = 12'000'000;
    fast.file_bytes = 6'000'000;
    r.cases = {text, fast};
    r.spec.cases = {text.spec, fast.spec};
    summarize_study(r); // as the runner leaves a record
    return r;
}

} // namespace

TEST(Numbers, JsonSummariesAreTheHandComputedValues) {
    const json j = to_json(hand_made_result());
    const json& w = j["cases"][0]["write"];
    EXPECT_EQ(w["n"], 5);
    EXPECT_DOUBLE_EQ(w["min_s"].get<double>(), 0.001);
    EXPECT_DOUBLE_EQ(w["median_s"].get<double>(), 0.003);
    EXPECT_NEAR(w["mean_s"].get<double>(), 0.004, 1e-15);
    EXPECT_NEAR(w["stddev_s"].get<double>(), 3.5355339059327378e-3, 1e-15);
    EXPECT_NEAR(w["cv"].get<double>(), 0.88388347648318444, 1e-12);
    EXPECT_NEAR(w["throughput_mb_s"].get<double>(), 2000.0, 1e-9);
    const json& rd = j["cases"][0]["read"];
    EXPECT_DOUBLE_EQ(rd["median_s"].get<double>(), 0.002);
    EXPECT_EQ(rd["stddev_s"].get<double>(), 0.0);
    EXPECT_EQ(rd["cv"].get<double>(), 0.0);
    EXPECT_NEAR(rd["throughput_mb_s"].get<double>(), 3000.0, 1e-9);
    EXPECT_EQ(j["cases"][0]["size_ratio"].get<double>(), 0.5);
    EXPECT_NEAR(j["cases"][1]["write"]["throughput_mb_s"].get<double>(), 12000.0, 1e-9);
    EXPECT_NEAR(j["cases"][1]["read"]["throughput_mb_s"].get<double>(), 6000.0, 1e-9);
    EXPECT_EQ(j["cases"][1]["size_ratio"].get<double>(), 1.0);
}

TEST(Numbers, CsvColumnsAreTheHandComputedValues) {
    const auto rows = parse_csv(render(hand_made_result(), "csv"));
    ASSERT_EQ(rows.size(), 3u);
    auto at = [&](std::size_t row, const std::string& column) {
        const auto& header = rows[0];
        const auto it = std::find(header.begin(), header.end(), column);
        if (it == header.end()) {
            ADD_FAILURE() << "no column " << column;
            return std::nan("");
        }
        return std::stod(rows[row].at(static_cast<std::size_t>(it - header.begin())));
    };
    EXPECT_DOUBLE_EQ(at(1, "write_min_s"), 0.001);
    EXPECT_DOUBLE_EQ(at(1, "write_median_s"), 0.003);
    EXPECT_NEAR(at(1, "write_mean_s"), 0.004, 1e-15);
    EXPECT_NEAR(at(1, "write_stddev_s"), 3.5355339059327378e-3, 1e-15);
    EXPECT_NEAR(at(1, "write_cv"), 0.88388347648318444, 1e-12);
    EXPECT_NEAR(at(1, "write_mb_s"), 2000.0, 1e-9);
    EXPECT_NEAR(at(1, "read_mb_s"), 3000.0, 1e-9);
    EXPECT_EQ(at(1, "size_ratio"), 0.5);
    EXPECT_EQ(at(1, "write_speedup"), 1.0);
    EXPECT_NEAR(at(2, "write_speedup"), 6.0, 1e-12);
    EXPECT_NEAR(at(2, "read_speedup"), 2.0, 1e-12);
    EXPECT_NEAR(at(2, "write_mb_s"), 12000.0, 1e-9);
}

TEST(Numbers, MetricsShowTheUnitOfTheirSuffix) {
    EXPECT_EQ(formatbench::detail::format_metric("codec_s", 0.194007), "194 ms");
    EXPECT_EQ(formatbench::detail::format_metric("io_s", 1.5e-6), "1.50 \u00b5s");
    EXPECT_EQ(formatbench::detail::format_metric("compressed_bytes", 7403189.0), "7.40 MB");
    EXPECT_EQ(formatbench::detail::format_metric("compressed_bytes", 999.0), "999 B");
    EXPECT_EQ(formatbench::detail::format_metric("chunks", 1234567.0), "1.23457e+06");
    EXPECT_EQ(formatbench::detail::format_metric("threads", 2.0), "2");
    EXPECT_EQ(formatbench::detail::format_metric("lost_bytes", -1.0), "-1"); // no negative size
}

TEST(Numbers, MarkdownAndConsoleShowTheValuesWithUnits) {
    const study_result r = hand_made_result();
    const std::string md = render(r, "markdown");
    SCOPED_TRACE(md);
    // format | write | read | write MB/s | read MB/s | file | ratio | ... | write speed-up | read speed-up
    // " ~" marks noise (noise_cv 10%, noise_min_samples 5): text's write CV
    // is 88%; fast has 3 samples. The write speed-up's 95% interval: a
    // resampled median of text's 1 2 3 4 10 ms is 1 ms (or 10 ms) with
    // probability P(3 or more of 5 draws) = 5.8% > 2.5%, so the bounds are
    // 1/0.5 = 2 and 10/0.5 = 20; the reads never vary: no interval.
    EXPECT_NE(md.find("| text | 3.00 ms \u00b188% ~ | 2.00 ms \u00b10.0% | 2000 | 3000 | 12.0 MB | 0.50 |"),
              std::string::npos);
    EXPECT_NE(
        md.find("| fast | 500 \u00b5s \u00b10.0% ~ | 1.00 ms \u00b10.0% ~ | 12000 | 6000 | 6.00 MB | 1.00 |"),
        std::string::npos);
    EXPECT_NE(md.find("| 6.00x [2.00, 20.0] | 2.00x |"), std::string::npos);
    const std::string console = render(r, "console");
    EXPECT_NE(console.find("3.00 ms"), std::string::npos) << console;
    EXPECT_NE(console.find("6.00x"), std::string::npos) << console;
    EXPECT_NE(console.find("2000"), std::string::npos) << console;
}

namespace {

// hand_made_result with the "fast" case read under a random pattern: three
// repetitions whose latency figures are chosen so that each median over
// the repetitions is known: p99 {5000, 1000, 3000} ns -> 3000, p50 {100,
// 300, 200} -> 200, mean {1000, 2000, 4000} ns -> IOPS {1e6, 5e5, 2.5e5}
// -> 5e5.
study_result latency_result() {
    study_result r = hand_made_result();
    case_result& fast = r.cases[1];
    fast.spec.params.access = access_mode::random;
    const double p50[] = {100, 300, 200}, p90[] = {400, 600, 500}, p99[] = {5000, 1000, 3000},
                 p999[] = {7000, 9000, 8000}, max[] = {10000, 20000, 30000}, mean[] = {1000, 2000, 4000};
    for (std::size_t i = 0; i < fast.samples.size() && i < 3; ++i) {
        latency_summary l;
        l.ops = 10;
        l.bytes = 40960;
        l.min_ns = 50;
        l.p50_ns = p50[i], l.p90_ns = p90[i], l.p99_ns = p99[i], l.p999_ns = p999[i], l.max_ns = max[i];
        l.mean_ns = mean[i];
        for (int k = 0; k <= 100; ++k)
            l.cdf_ns.push_back(50 + k * (max[i] - 50) / 100);
        fast.samples[i].read.latency = l;
    }
    summarize_study(r); // as the runner leaves a record
    return r;
}

} // namespace

TEST(Latency, CaseSummaryIsTheMedianOverRepetitions) {
    const json j = to_json(latency_result());
    EXPECT_FALSE(j["cases"][0]["read"].contains("latency")); // no pattern ran
    const json& l = j["cases"][1]["read"]["latency"];
    EXPECT_EQ(l["repetitions"], 3);
    EXPECT_EQ(l["ops"].get<double>(), 10);
    EXPECT_EQ(l["p99_ns"].get<double>(), 3000);
    EXPECT_EQ(l["p50_ns"].get<double>(), 200);
    EXPECT_EQ(l["p90_ns"].get<double>(), 500);
    EXPECT_EQ(l["p99_9_ns"].get<double>(), 8000);
    EXPECT_EQ(l["max_ns"].get<double>(), 20000);
    EXPECT_DOUBLE_EQ(l["iops"].get<double>(), 5e5);
    // Derived: reading the record back and writing it again gives the same.
    const study_result back = study_result_from_json(j, "test");
    EXPECT_EQ(to_json(back)["cases"][1]["read"]["latency"], l);
}

TEST(Latency, CsvCellsAreTheChosenFigures) {
    const auto rows = parse_csv(render(latency_result(), "csv"));
    ASSERT_EQ(rows.size(), 3u);
    auto cell = [&](std::size_t row, const std::string& column) {
        const auto& header = rows[0];
        const auto it = std::find(header.begin(), header.end(), column);
        if (it == header.end()) return std::string("no column ") + column;
        return rows[row].at(static_cast<std::size_t>(it - header.begin()));
    };
    EXPECT_EQ(cell(2, "read_ops"), "10");
    EXPECT_EQ(cell(2, "read_iops"), "500000");
    EXPECT_EQ(cell(2, "read_p50_ns"), "200");
    EXPECT_EQ(cell(2, "read_p90_ns"), "500");
    EXPECT_EQ(cell(2, "read_p99_ns"), "3000");
    EXPECT_EQ(cell(2, "read_p99_9_ns"), "8000");
    EXPECT_EQ(cell(2, "read_max_ns"), "20000");
    for (const char* c : {"read_ops", "read_iops", "read_p50_ns", "read_p99_ns", "read_max_ns"})
        EXPECT_EQ(cell(1, c), "") << c; // no pattern ran
}

TEST(Latency, ConsoleAndMarkdownShowTheColumnOnlyWhereAPatternRan) {
    const std::string without = render(hand_made_result(), "console");
    EXPECT_EQ(without.find("p50/p99"), std::string::npos) << without;
    EXPECT_EQ(without.find("IOPS"), std::string::npos) << without;
    const std::string with = render(latency_result(), "console");
    EXPECT_NE(with.find("p50/p99"), std::string::npos) << with;
    EXPECT_NE(with.find("200 ns / 3.00 \u00b5s"), std::string::npos) << with;
    EXPECT_NE(with.find("IOPS"), std::string::npos) << with;
    const std::string md = render(latency_result(), "markdown");
    EXPECT_NE(md.find("| 200 ns / 3.00 \u00b5s | 500000 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| - | - |"), std::string::npos) << md; // text: no pattern
}

// One summary, printed by every output: a set in which two of eight samples
// of the baseline's phases were disturbed (they waited 20 and 30 ms for a
// CPU), so that an output recomputing from all samples would print other
// figures. By hand: 'slow' write median of 10..15 ms = 12.5 ms (all eight:
// 13.5 ms), read of 20..25 ms = 22.5 ms; 'quick' 1.25 ms and 4.25 ms;
// speed-ups 12.5 / 1.25 = 10.0x and 22.5 / 4.25 = 5.29x.
TEST(Numbers, EveryOutputPrintsTheSameEstimates) {
    study_result r = make_result();
    r.spec.baseline = "slow";
    case_result slow, quick;
    slow.spec = make_spec(0, "slow", "ascii");
    quick.spec = make_spec(1, "quick", "raw");
    slow.samples = reps({10e-3, 11e-3, 12e-3, 13e-3, 14e-3, 15e-3, 40e-3, 41e-3},
                        {20e-3, 21e-3, 22e-3, 23e-3, 24e-3, 25e-3, 60e-3, 61e-3});
    for (std::size_t i = 6; i < 8; ++i)
        for (phase_sample* p : {&slow.samples[i].write, &slow.samples[i].read}) {
            p->accounting.measured = true;
            p->accounting.cpus = 2;
            p->accounting.wait_s = p->accounting.thread_wait_s = p == &slow.samples[i].write ? 20e-3 : 30e-3;
        }
    quick.samples = reps({1.0e-3, 1.1e-3, 1.2e-3, 1.3e-3, 1.4e-3, 1.5e-3},
                         {4.0e-3, 4.1e-3, 4.2e-3, 4.3e-3, 4.4e-3, 4.5e-3});
    for (case_result* c : {&slow, &quick}) {
        c->payload_bytes = 8'000'000;
        c->file_bytes = 8'000'000;
        c->verify = {true, 1000000, 0, 0, 0, true};
    }
    r.cases = {slow, quick};
    r.spec.cases = {slow.spec, quick.spec};
    summarize_study(r);
    const double read_speedup = 22.5 / 4.25;

    // JSON
    const json j = json::parse(render(r, "json"));
    EXPECT_NEAR(j["cases"][0]["write"]["median_s"].get<double>(), 12.5e-3, 1e-15);
    EXPECT_NEAR(j["cases"][0]["read"]["median_s"].get<double>(), 22.5e-3, 1e-15);
    EXPECT_EQ(j["cases"][0]["write"]["disturbed"], 2);
    EXPECT_NEAR(j["cases"][1]["write"]["median_s"].get<double>(), 1.25e-3, 1e-15);
    EXPECT_NEAR(j["cases"][1]["speedup"]["write"]["value"].get<double>(), 10.0, 1e-12);
    EXPECT_NEAR(j["cases"][1]["speedup"]["read"]["value"].get<double>(), read_speedup, 1e-12);
    // CSV
    const auto rows = parse_csv(render(r, "csv"));
    ASSERT_EQ(rows.size(), 3u);
    auto column = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
    };
    EXPECT_NEAR(std::stod(rows[1][column("write_median_s")]), 12.5e-3, 1e-15);
    EXPECT_NEAR(std::stod(rows[1][column("read_median_s")]), 22.5e-3, 1e-15);
    EXPECT_NEAR(std::stod(rows[2][column("write_median_s")]), 1.25e-3, 1e-15);
    EXPECT_NEAR(std::stod(rows[2][column("write_speedup")]), 10.0, 1e-12);
    EXPECT_NEAR(std::stod(rows[2][column("read_speedup")]), read_speedup, 1e-12);
    // Console, Markdown and HTML: the same figures as printed text.
    render_options wide;
    wide.width = 200;
    const std::string console = render(r, "console", wide), markdown = render(r, "markdown");
    const std::string html = render_html_report({{"r.json", r}}, "t").html;
    for (const auto& [name, text] : {std::pair{"console", console}, {"markdown", markdown}, {"html", html}}) {
        for (const char* figure : {"12.5 ms", "22.5 ms", "1.25 ms", "4.25 ms", "10.0x", "5.29x"})
            EXPECT_NE(text.find(figure), std::string::npos) << name << " lacks " << figure << "\n" << text;
        EXPECT_EQ(text.find("13.5 ms"), std::string::npos) << name << ": the median of all eight samples";
    }
}

// A study's `workload:` travels with its record (study.workload), so that
// `report` and `compare` print the same recommendation as `run`. Failing,
// the report of a record would weigh other reads than the study stated, or
// none.
TEST(ResultsJson, workload_round_trips) {
    study s;
    s.workload.given = true;
    s.workload.write.weight = 1;
    workload_phase read;
    read.weight = 10000;
    read.params.access = access_mode::random;
    read.params.access_block = 4096;
    read.params.cache = cache_mode::cold;
    read.keys = {"cache", "access", "access_block"};
    s.workload.reads.push_back(read);
    const nlohmann::json j = to_json(s);
    // The JSON names of the keys (access_block_bytes), each with its value.
    EXPECT_EQ(j["workload"]["reads"][0]["params"],
              nlohmann::json::parse(R"({"cache": "cold", "access": "random", "access_block_bytes": 4096})"));
    EXPECT_EQ(j["workload"]["write"], nlohmann::json::parse(R"({"weight": 1.0, "params": {}})"));
    const study back = study_from_json(j);
    ASSERT_TRUE(back.workload.given);
    EXPECT_EQ(back.workload.write.weight, 1);
    ASSERT_EQ(back.workload.reads.size(), 1u);
    EXPECT_EQ(back.workload.reads[0].weight, 10000);
    EXPECT_EQ(back.workload.reads[0].keys, (std::vector<std::string>{"cache", "access", "access_block"}));
    EXPECT_EQ(back.workload.reads[0].params.access_block, 4096u);
    EXPECT_EQ(back.workload.reads[0].params.cache, cache_mode::cold);
    // Without a workload the record has no key (records stay as they were).
    EXPECT_FALSE(to_json(study{}).contains("workload"));
    EXPECT_FALSE(study_from_json(to_json(study{})).workload.given);
}

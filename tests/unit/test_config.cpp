// Tests of the study reader (config.cpp and its helpers) and of sweep
// expansion: every bad study file must fail with its position and a clear
// message, sweeps must multiply in the documented order with stable keys,
// and --set must reach every key of the schema and nothing else.
#include "base/suggest.hpp"
#include "host/registry.hpp"
#include "report/plan_output.hpp"
#include "study/checks.hpp"
#include "study/plan.hpp"
#include "study/reader.hpp"
#include "test_env.hpp"
#include "test_registry.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fb = formatbench;

namespace {

const std::string studies = FB_STUDIES_DIR;

std::string bad(const std::string& name) {
    return studies + "/bad/" + name;
}
std::string good(const std::string& name) {
    return studies + "/good/" + name;
}

// The message of the usage_error (or config_error) `f` throws; fails the
// test when it throws nothing.
std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const fb::usage_error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no error was thrown";
    return "";
}

std::vector<std::string> labels(const fb::study& s) {
    std::vector<std::string> out;
    for (const auto& c : s.cases)
        if (std::find(out.begin(), out.end(), c.format.label) == out.end()) out.push_back(c.format.label);
    return out;
}

using formatbench::unit_tests::test_registry;

// ---- bad study files ---------------------------------------------------------

struct bad_case {
    const char* file;
    int line;
    int column; // 0: not checked
    const char* fragment;
    const char* fragment2 = ""; // a second required piece ("did you mean", the key path)
};

std::ostream& operator<<(std::ostream& out, const bad_case& c) {
    return out << c.file;
}

class bad_study : public testing::TestWithParam<bad_case> {};

TEST_P(bad_study, fails_with_position_and_message) {
    const bad_case& c = GetParam();
    const std::string path = bad(c.file);
    std::string message = error_of([&] { fb::load_study_file(path); });
    std::string position = path + ":" + std::to_string(c.line) + ":";
    if (c.column) position += std::to_string(c.column) + ": ";
    EXPECT_EQ(message.rfind(position, 0), 0u)
        << "expected the message to start with '" << position << "': " << message;
    EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
    EXPECT_NE(message.find(c.fragment2), std::string::npos) << message;
}

// Every file under studies/bad/ that the reader alone rejects.
const bad_case bad_cases[] = {
    {"yaml_syntax.yaml", 4, 15, "invalid YAML: illegal map value"},
    {"unknown_top_key.yaml", 2, 1, "unknown key 'dataset'", "(did you mean 'datasets'?)"},
    {"unknown_dataset_key.yaml", 3, 5, "datasets[0]: unknown key 'cont'", "(did you mean 'count'?)"},
    {"bad_dtype.yaml", 2, 12, "datasets[0].dtype: expected a dtype: f64, f32, i64, i32, u8, got 'f63'",
     "(did you mean 'f64'?)"},
    {"bad_count.yaml", 8, 14, "datasets[0].count: expected a count like 1000000, 1e6 or 10**6", "got 'lots'"},
    {"bad_distribution.yaml", 2, 29, "datasets[0].distribution: expected one of uniform, normal, smooth",
     "got 'gaussian'"},
    {"bad_chunk.yaml", 2, 10, "defaults.chunk: expected a size in bytes like 4096, 64KiB, 1MB or 'whole'",
     "got '64q'"},
    {"bad_cache.yaml", 5, 12, "formats[0].cache: expected one of warm, cold, got 'hot'"},
    {"negative_repeat.yaml", 2, 11, "defaults.repeat: expected a whole number of repetitions, 1 or more",
     "got '-1'"},
    {"missing_formats.yaml", 1, 1, "missing required key 'formats'"},
    {"missing_plugin.yaml", 5, 5, "formats[1]: missing required key 'plugin'"},
    {"duplicate_labels.yaml", 6, 5, "formats[1]: format label 'zlib level=6' is already used by formats[0]"},
    {"wrong_node_type.yaml", 2, 3, "datasets: expected a non-empty list of datasets, got a map"},
    {"map_for_scalar.yaml", 2, 12, "datasets[0].count: expected a count", "got a map"},
    {"duplicate_key.yaml", 4, 5, "key 'count' is given twice (first at line 2)"},
    {"top_level_run_param.yaml", 1, 1, "'repeat' is a run parameter", "under 'defaults:'"},
    {"parameter_not_applicable.yaml", 3, 5, "'mean' applies only to distribution normal"},
    {"empty_sweep.yaml", 2, 12, "datasets[0].count: an empty list sweeps nothing"},
    {"unknown_baseline.yaml", 7, 11, "baseline: no format is labelled 'mem'", "(did you mean 'mem2'?)"},
    {"pair_unknown_label.yaml", 8, 29, "pairs[0].against: no format is labelled 'mem'",
     "(did you mean 'mem2'?)"},
    {"pair_with_itself.yaml", 8, 5, "pairs[0]: a pair of one format with itself"},
    {"integers_low_above_high.yaml", 2, 5, "datasets[0]: low (10) is above high (1)"},
    {"from_file_without_count.yaml", 2, 5, "a from_file dataset needs 'count'"},
    {"duplicate_dataset_names.yaml", 3, 5,
     "datasets[1]: dataset name 'f64-uniform-1e3' is already used by datasets[0]"},
    {"empty.yaml", 1, 1, "the study is empty"},
    {"bad_bool.yaml", 5, 13, "keep_files: expected true or false, got 'maybe'"},
    {"bad_duration.yaml", 5, 15, "formats[0].min_time: expected a duration in seconds", "got '5 parsecs'"},
};

INSTANTIATE_TEST_SUITE_P(files, bad_study, testing::ValuesIn(bad_cases), [](const auto& info) {
    std::string name = info.param.file;
    name = name.substr(0, name.find('.'));
    return name;
});

TEST(config_errors, missing_file_names_the_file_and_the_reason) {
    EXPECT_EQ(error_of([] { fb::load_study_file("no-such-study.yaml"); }),
              "cannot read study 'no-such-study.yaml': No such file or directory");
}

TEST(config_errors, errors_are_config_errors) {
    EXPECT_THROW(fb::load_study_file(bad("bad_count.yaml")), fb::config_error);
    EXPECT_THROW(fb::load_study_file(bad("yaml_syntax.yaml")), fb::config_error);
}

TEST(config_errors, text_studies_are_named_by_their_source) {
    std::string message =
        error_of([] { fb::load_study_text("datasets: [{count: x}]\nformats: [memory]\n", "<t>"); });
    EXPECT_EQ(message.rfind("<t>:1:20: datasets[0].count: expected a count", 0), 0u) << "[" << message << "]";
}

TEST(config_errors, tolerance_takes_abs_rel_or_both_not_negative) {
    auto s = fb::load_study_text(
        "datasets: [{count: 10}]\nformats: [{plugin: memory, tolerance: {abs: 1e-6, rel: 0.5}}]\n", "<t>");
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases[0].format.tolerance.abs, 1e-6);
    EXPECT_EQ(s.cases[0].format.tolerance.rel, 0.5);
    EXPECT_DOUBLE_EQ(s.cases[0].format.tolerance.allowed(-4), 1e-6 + 2); // abs + rel x |written|
    auto only_rel = fb::load_study_text(
        "datasets: [{count: 10}]\nformats: [{plugin: memory, tolerance: {rel: 0.5}}]\n", "<t>");
    EXPECT_DOUBLE_EQ(only_rel.cases[0].format.tolerance.allowed(-4), 2);
    EXPECT_FALSE(fb::load_study_text("datasets: [{count: 10}]\nformats: [memory]\n", "<t>")
                     .cases[0]
                     .format.tolerance.given());
    EXPECT_EQ(error_of([] {
                  fb::load_study_text(
                      "datasets: [{count: 10}]\nformats: [{plugin: memory, tolerance: {abs: -1}}]\n", "<t>");
              }).rfind("<t>:2:45: formats[0].tolerance.abs: expected a number of 0 or more", 0),
              0u);
    EXPECT_EQ(error_of([] {
                  fb::load_study_text("datasets: [{count: 10}]\nformats: [{plugin: memory, tolerance: {}}]\n",
                                      "<t>");
              }).rfind("<t>:2:39: formats[0].tolerance: give abs, rel or both", 0),
              0u);
    const std::string typo = error_of([] {
        fb::load_study_text(
            "datasets: [{count: 10}]\nformats: [{plugin: memory, tolerance: {absolute: 1}}]\n", "<t>");
    });
    EXPECT_NE(typo.find("unknown key 'absolute'; expected one of: abs, rel"), std::string::npos) << typo;
}

// ---- plugin checks -----------------------------------------------------------

TEST(config_plugins, unknown_plugin_names_position_and_known_plugins) {
    const std::string path = bad("unknown_plugin.yaml");
    auto s = fb::load_study_file(path);
    std::string message = error_of([&] { fb::check_study_plugins(s, test_registry()); });
    EXPECT_EQ(message.rfind(path + ":5:5: format 'nosuchformat': unknown plugin 'nosuchformat'", 0), 0u)
        << message;
    EXPECT_NE(message.find("memory"), std::string::npos) << "lists the known plugins: " << message;
}

TEST(config_plugins, unknown_option_names_position_and_option) {
    const std::string path = bad("unknown_plugin_option.yaml");
    auto s = fb::load_study_file(path);
    std::string message = error_of([&] { fb::check_study_plugins(s, test_registry()); });
    EXPECT_EQ(message.rfind(path + ":4:5: format 'memory': ", 0), 0u) << message;
    EXPECT_NE(message.find("has no option 'level'"), std::string::npos) << message;
}

TEST(config_plugins, unknown_from_file_plugin_is_reported_at_the_dataset) {
    auto s = fb::load_study_text("datasets:\n  - from_file: {path: x.bin, plugin: nope}\n    count: 10\n"
                                 "formats: [memory]\n",
                                 "<t>");
    std::string message = error_of([&] { fb::check_study_plugins(s, test_registry()); });
    EXPECT_EQ(message.rfind("<t>:2:5: dataset 'f64-x-10': from_file: unknown plugin 'nope'", 0), 0u)
        << message;
}

TEST(config_plugins, read_view_needs_the_zero_copy_extension) {
    auto ok =
        fb::load_study_text("datasets: [{count: 10}]\nformats: [{plugin: memory, read: view}]\n", "<t>");
    EXPECT_NO_THROW(fb::check_study_plugins(ok, test_registry()));
    auto s =
        fb::load_study_text("datasets: [{count: 10}]\nformats: [memory, {plugin: raw, read: view}]\n", "<t>");
    std::string message = error_of([&] { fb::check_study_plugins(s, test_registry()); });
    EXPECT_EQ(message.rfind("<t>:2:19: format 'raw': read: view needs the zero-copy read extension", 0), 0u)
        << message;
    EXPECT_NE(message.find("plugin 'raw' does not offer"), std::string::npos) << message;
    EXPECT_NE(message.find("memory"), std::string::npos) << "names the plugins that offer it: " << message;
}

// The `misbehave` test plugin declares every dtype but u8.
TEST(config_plugins, unsupported_dtype_names_plugin_dtype_and_supported_ones) {
    const fb::plugin& p = test_registry().get("misbehave");
    ASSERT_FALSE(p.supports(FB_DTYPE_U8));
    auto s = fb::load_study_text("datasets: [{dtype: u8, count: 10}]\nformats: [misbehave]\n", "<t>");
    std::string message = error_of([&] { fb::check_study_plugins(s, test_registry()); });
    EXPECT_EQ(message.rfind("<t>:2:11: format 'misbehave': plugin 'misbehave' does not support dtype u8", 0),
              0u)
        << message;
    EXPECT_NE(message.find("it supports f64, f32, i64, i32"), std::string::npos) << message;
}

TEST(config_plugins, a_valid_study_passes) {
    auto s = fb::load_study_text("datasets: [{dtype: [f64, u8], count: 10}]\nformats: [memory]\n", "<t>");
    EXPECT_NO_THROW(fb::check_study_plugins(s, test_registry()));
}

// ---- --set -------------------------------------------------------------------

TEST(config_set, bad_path_is_an_error_with_did_you_mean) {
    const std::string path = good("basic.yaml");
    std::string message = error_of([&] { fb::load_study_file(path, {"defaults.repet=5"}); });
    EXPECT_EQ(message.rfind(path + ":4:3: --set 'defaults.repet=5': 'defaults' has no key 'repet'", 0), 0u)
        << message;
    EXPECT_NE(message.find("(did you mean 'repeat'?)"), std::string::npos) << message;

    message = error_of([&] { fb::load_study_file(path, {"formts.0.plugin=raw"}); });
    EXPECT_NE(message.find("has no key 'formts' (did you mean 'formats'?)"), std::string::npos) << message;

    message = error_of([&] { fb::load_study_file(path, {"datasets.3.count=5"}); });
    EXPECT_EQ(
        message.rfind(
            path + ":6:3: --set 'datasets.3.count=5': index 3 is out of range: 'datasets' has 1 entry", 0),
        0u)
        << message;

    message = error_of([&] { fb::load_study_file(path, {"datasets.0.count.x=5"}); });
    EXPECT_NE(message.find("'datasets[0].count' takes a value; it has no key 'x'"), std::string::npos)
        << message;

    message = error_of([&] { fb::load_study_file(path, {"repeat"}); });
    EXPECT_NE(message.find("expected KEY=VALUE"), std::string::npos) << message;
}

TEST(config_set, bad_value_is_reported_where_it_lands) {
    const std::string path = good("basic.yaml");
    std::string message = error_of([&] { fb::load_study_file(path, {"repeat=lots"}); });
    EXPECT_EQ(message,
              path + ":4:11: defaults.repeat: expected a whole number of repetitions, 1 or more, or auto "
                     "(until the precision is reached), got 'lots' (from --set 'repeat=lots')");

    message = error_of([&] { fb::load_study_file(path, {"datasets.0.count=[1,"}); });
    EXPECT_EQ(message.rfind(path + ":7:12: --set 'datasets.0.count=[1,': the value is not valid YAML", 0), 0u)
        << message;
}

TEST(config_set, overrides_existing_and_new_keys) {
    const std::string path = good("basic.yaml");
    auto s = fb::load_study_file(path, {"datasets.0.count=1e7", "formats.1.options.level=9", "repeat=10",
                                        "defaults.cache=cold", "formats.0.label=mem"});
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(s.cases[0].dataset.count, 10000000u);
    EXPECT_EQ(s.cases[0].format.label, "mem");
    EXPECT_EQ(s.cases[1].format.options, (fb::option_list{{"level", "9"}}));
    for (const auto& c : s.cases) {
        EXPECT_EQ(c.params.repeat, 10u);
        EXPECT_EQ(c.params.cache, fb::cache_mode::cold);
    }
}

TEST(config_set, value_is_yaml_so_lists_sweep) {
    auto s = fb::load_study_file(good("basic.yaml"), {"defaults.chunk=[4096, whole]"});
    ASSERT_EQ(s.cases.size(), 4u);
    EXPECT_EQ(s.cases[0].params.chunk_bytes, 4096u);
    EXPECT_EQ(s.cases[1].params.chunk_bytes, 0u);
}

TEST(config_set, later_set_wins_and_creates_missing_maps) {
    auto s = fb::load_study_text("datasets: [{count: 10}]\nformats: [{plugin: memory}]\n", "<t>",
                                 {"defaults.warmup=2", "warmup=3", "formats.0.options.x=1"});
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases[0].params.warmup, 3u);
    EXPECT_EQ(s.cases[0].format.options, (fb::option_list{{"x", "1"}}));
}

TEST(config_set, resolved_yaml_records_the_overrides_and_reloads_to_the_same_cases) {
    auto s = fb::load_study_file(good("basic.yaml"), {"repeat=7", "defaults.chunk=[64k, whole]"});
    EXPECT_NE(s.resolved_yaml.find("repeat: 7"), std::string::npos) << s.resolved_yaml;
    EXPECT_NE(s.resolved_yaml.find("timeout:"), std::string::npos)
        << "defaults are filled in: " << s.resolved_yaml;
    auto again = fb::load_study_text(s.resolved_yaml, "<resolved>");
    ASSERT_EQ(again.cases.size(), s.cases.size());
    for (std::size_t i = 0; i < s.cases.size(); ++i) {
        EXPECT_EQ(again.cases[i].key, s.cases[i].key);
        EXPECT_EQ(again.cases[i].params.repeat, 7u);
    }
}

// ---- sweeps ------------------------------------------------------------------

TEST(config_sweep, a_list_of_counts_gives_one_dataset_each) {
    auto s = fb::load_study_text("datasets: [{count: [1e3, 10**6]}]\nformats: [memory]\n", "<t>");
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(s.cases[0].dataset.count, 1000u);
    EXPECT_EQ(s.cases[0].dataset.name, "f64-uniform-1e3");
    EXPECT_EQ(s.cases[1].dataset.count, 1000000u);
    EXPECT_EQ(s.cases[1].dataset.name, "f64-uniform-1e6");
}

TEST(config_sweep, product_order_is_datasets_then_formats_then_run_parameters) {
    auto s = fb::load_study_text("defaults: {chunk: [4096, whole], cache: [warm, cold]}\n"
                                 "datasets: [{dtype: [f64, f32], count: 10}]\n"
                                 "formats: [memory, {plugin: zlib, options: {level: [1, 9]}}]\n",
                                 "<t>");
    ASSERT_EQ(s.cases.size(), 2u * 3u * 4u);
    std::vector<std::string> got;
    for (const auto& c : s.cases) {
        EXPECT_EQ(c.index, got.size());
        got.push_back(c.dataset.name + "|" + c.format.label + "|" + std::to_string(c.params.chunk_bytes) +
                      "|" + fb::to_string(c.params.cache));
    }
    EXPECT_EQ(got[0], "f64-uniform-10|memory|4096|warm");
    EXPECT_EQ(got[1], "f64-uniform-10|memory|4096|cold");
    EXPECT_EQ(got[2], "f64-uniform-10|memory|0|warm");
    EXPECT_EQ(got[3], "f64-uniform-10|memory|0|cold");
    EXPECT_EQ(got[4], "f64-uniform-10|zlib level=1|4096|warm");
    EXPECT_EQ(got[8], "f64-uniform-10|zlib level=9|4096|warm");
    EXPECT_EQ(got[12], "f32-uniform-10|memory|4096|warm");
    EXPECT_EQ(got[23], "f32-uniform-10|zlib level=9|0|cold");
}

TEST(config_sweep, swept_options_are_appended_to_labels) {
    auto s = fb::load_study_text("datasets: [{count: 10}]\n"
                                 "formats:\n"
                                 "  - {plugin: zlib, options: {level: [1, 6, 9], strategy: [default, rle]}}\n"
                                 "  - {plugin: zlib, label: z, options: {level: [2, 3], strategy: rle}}\n"
                                 "  - {plugin: [raw, mmap]}\n",
                                 "<t>");
    EXPECT_EQ(labels(s),
              (std::vector<std::string>{"zlib level=1 strategy=default", "zlib level=1 strategy=rle",
                                        "zlib level=6 strategy=default", "zlib level=6 strategy=rle",
                                        "zlib level=9 strategy=default", "zlib level=9 strategy=rle",
                                        "z level=2", "z level=3", "raw", "mmap"}));
    EXPECT_EQ(s.cases[0].format.options, (fb::option_list{{"level", "1"}, {"strategy", "default"}}));
    EXPECT_EQ(s.cases[6].format.options, (fb::option_list{{"level", "2"}, {"strategy", "rle"}}));
    EXPECT_EQ(s.cases[6].format.base_label, "z");
    EXPECT_EQ(s.cases[8].format.plugin, "raw");
}

TEST(config_sweep, explicit_dataset_names_get_swept_values) {
    auto s = fb::load_study_text("datasets:\n  - {name: d, count: [10, 20], seed: 4}\n"
                                 "  - {count: 10, seed: [1, 2]}\nformats: [memory]\n",
                                 "<t>");
    ASSERT_EQ(s.cases.size(), 4u);
    EXPECT_EQ(s.cases[0].dataset.name, "d count=10");
    EXPECT_EQ(s.cases[1].dataset.name, "d count=20");
    EXPECT_EQ(s.cases[1].dataset.seed, 4u);
    EXPECT_EQ(s.cases[2].dataset.name, "f64-uniform-10 seed=1");
    EXPECT_EQ(s.cases[3].dataset.seed, 2u);
}

TEST(config_sweep, per_format_run_parameters_override_defaults) {
    auto s = fb::load_study_text("defaults: {repeat: 5, chunk: [4096, whole]}\n"
                                 "datasets: [{count: 10}]\n"
                                 "formats: [memory, {plugin: raw, repeat: 2, chunk: 1MiB, sync: data}]\n",
                                 "<t>");
    ASSERT_EQ(s.cases.size(), 3u);
    EXPECT_EQ(s.cases[0].params.repeat, 5u);
    EXPECT_EQ(s.cases[1].params.chunk_bytes, 0u);
    EXPECT_EQ(s.cases[2].format.label, "raw");
    EXPECT_EQ(s.cases[2].params.repeat, 2u);
    EXPECT_EQ(s.cases[2].params.chunk_bytes, 1048576u);
    EXPECT_EQ(s.cases[2].params.sync, fb::sync_mode::data);
}

TEST(config_sweep, keys_are_stable_unique_and_canonical) {
    const char* text = "defaults: {chunk: [4096, whole]}\n"
                       "datasets: [{count: [1e3, 1e6]}]\n"
                       "formats: [memory, {plugin: zlib, options: {level: [1, 9]}}]\n";
    auto a = fb::load_study_text(text, "<a>");
    auto b = fb::load_study_text(text, "<b>");
    ASSERT_EQ(a.cases.size(), 12u);
    std::set<std::string> keys;
    for (std::size_t i = 0; i < a.cases.size(); ++i) {
        EXPECT_EQ(a.cases[i].key, b.cases[i].key);
        keys.insert(a.cases[i].key);
    }
    EXPECT_EQ(keys.size(), a.cases.size());

    // Another spelling of the same values gives the same key.
    auto c = fb::load_study_text(
        "datasets: [{count: 1_000}]\nformats: [memory]\ndefaults: {chunk: 4KiB, repeat: 9}\n", "<c>");
    EXPECT_EQ(c.cases[0].key, a.cases[0].key);
    // Options are sorted in the key.
    auto d1 = fb::load_study_text(
        "datasets: [{count: 1}]\nformats: [{plugin: p, label: l, options: {a: 1, b: 2}}]\n", "<d>");
    auto d2 = fb::load_study_text(
        "datasets: [{count: 1}]\nformats: [{plugin: p, label: l, options: {b: 2, a: 1}}]\n", "<d>");
    EXPECT_EQ(d1.cases[0].key, d2.cases[0].key);
    // What changes the measurement changes the key.
    auto e = fb::load_study_text(
        "datasets: [{count: 1e3, seed: 2}]\nformats: [memory]\ndefaults: {chunk: 4096}\n", "<e>");
    EXPECT_NE(e.cases[0].key, a.cases[0].key);
}

TEST(config_sweep, swept_repeat_joins_the_key_so_cases_stay_distinct) {
    auto s =
        fb::load_study_text("datasets: [{count: 1}]\nformats: [{plugin: memory, repeat: [3, 5]}]\n", "<t>");
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_NE(s.cases[0].key, s.cases[1].key);
}

// A case's one-line description (progress, logs) names the parameters set
// beyond the defaults that apply to it, so that two cases of one format
// never read the same: the pattern, its block and ops, not the axis of a
// random read nor the block of a plane.
TEST(config_sweep, describe_case_names_the_access_pattern) {
    auto s = fb::load_study_text("datasets: [{shape: [4, 8]}]\n"
                                 "formats: [{plugin: raw, access: random, access_block: 64, access_ops: 3},\n"
                                 "          {plugin: raw, label: p, access: plane, access_axis: 1}]\n",
                                 "<t>");
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(fb::describe_case(s.cases[0]),
              "f64-uniform-4x8 | raw | chunk whole | warm | sync none | access random | access_block 64 | "
              "access_ops 3");
    EXPECT_EQ(fb::describe_case(s.cases[1]),
              "f64-uniform-4x8 | p | chunk whole | warm | sync none | access plane | access_axis 1");
}

// read: copy (default) | view. A view case's key says so; copy keys are
// those of before the parameter existed, so older logs still resume.
TEST(config_sweep, read_mode_parses_sweeps_and_marks_view_keys) {
    auto s = fb::load_study_text("datasets: [{count: 1}]\nformats: [{plugin: memory, read: [copy, view]}]\n",
                                 "<t>");
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(s.cases[0].params.read, fb::read_mode::copy);
    EXPECT_EQ(s.cases[1].params.read, fb::read_mode::view);
    EXPECT_EQ(s.cases[0].key.find("read="), std::string::npos) << s.cases[0].key;
    EXPECT_NE(s.cases[1].key.find(",read=view"), std::string::npos) << s.cases[1].key;
    EXPECT_EQ(fb::describe_case(s.cases[1]),
              "f64-uniform-1 | memory | chunk whole | warm | sync none | read view");
    std::string message = error_of([] {
        fb::load_study_text("datasets: [{count: 1}]\nformats: [{plugin: memory, read: peek}]\n", "<t>");
    });
    EXPECT_NE(message.find("formats[0].read: expected one of copy, view, got 'peek'"), std::string::npos)
        << message;
}

TEST(config_sweep, the_same_value_twice_is_an_error) {
    std::string message = error_of([] {
        fb::load_study_text("datasets: [{count: 1}]\nformats: [memory]\ndefaults: {chunk: [64KiB, 65536]}\n",
                            "<t>");
    });
    EXPECT_NE(message.find("are the same measurement"), std::string::npos) << message;
}

// access: [random, plane] x access_axis: [0, 1, 2] is one random read (the
// axis means nothing for it) and three plane reads: 4 cases, not 6 and not
// an error; each case's key is its own. A value listed twice still is one.
TEST(config_sweep, keys_that_do_not_apply_collapse_into_one_case) {
    auto s = fb::load_study_text("datasets: [{count: 60, shape: [3, 4, 5]}]\n"
                                 "formats: [{plugin: raw, access: [random, plane], access_axis: [0, 1, 2],\n"
                                 "           access_ops: 2}]\n",
                                 "<t>");
    ASSERT_EQ(s.cases.size(), 4u);
    EXPECT_EQ(s.cases[0].params.access, fb::access_mode::random);
    std::set<std::string> keys;
    for (std::size_t i = 0; i < s.cases.size(); ++i) {
        EXPECT_EQ(s.cases[i].index, i);
        keys.insert(s.cases[i].key);
    }
    EXPECT_EQ(keys.size(), 4u);
    for (unsigned axis = 0; axis < 3; ++axis) {
        EXPECT_EQ(s.cases[1 + axis].params.access, fb::access_mode::plane);
        EXPECT_EQ(s.cases[1 + axis].params.access_axis, axis);
    }
    EXPECT_EQ(fb::describe_case(s.cases[0]),
              "f64-uniform-3x4x5 | raw | chunk whole | warm | sync none | access random | access_ops 2");
    EXPECT_EQ(fb::describe_case(s.cases[3]),
              "f64-uniform-3x4x5 | raw | chunk whole | warm | sync none | access plane | access_ops 2 | "
              "access_axis 2");
    std::string message = error_of([] {
        fb::load_study_text("datasets: [{count: 60, shape: [3, 4, 5]}]\n"
                            "formats: [{plugin: raw, access: plane, access_axis: [1, 1]}]\n",
                            "<t>");
    });
    EXPECT_NE(message.find("cases 0 and 1 are the same measurement"), std::string::npos) << message;
}

TEST(config_sweep, huge_sweeps_are_refused) {
    std::string message = error_of([] {
        fb::load_study_text(
            "datasets: [{count: 1, seed: [1,2,3,4,5,6,7,8,9,10]}]\n"
            "formats: [{plugin: p, options: {a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10],"
            " c: [1,2,3,4,5,6,7,8,9,10], d: [1,2,3,4,5,6,7,8,9,10], e: [1,2,3,4,5,6,7,8,9,10], f: [1, "
            "2]}}]\n",
            "<t>");
    });
    EXPECT_NE(message.find("more than 100000"), std::string::npos) << message;
}

// ---- datasets and top-level settings -------------------------------------------

TEST(config_read, dataset_fields_and_defaults) {
    auto s = fb::load_study_text(
        "datasets:\n"
        "  - {dtype: i32, count: 10**10, distribution: integers, low: -5, high: 5, seed: 7}\n"
        "  - {dtype: f32, distribution: normal, mean: 1.5, stddev: 0.25}\n"
        "  - {dtype: u8, distribution: constant, value: 200, count: 0}\n"
        "  - {distribution: smooth}\n"
        "formats: [memory]\n",
        "<t>");
    ASSERT_EQ(s.cases.size(), 4u);
    const auto& a = s.cases[0].dataset;
    EXPECT_EQ(a.type, FB_DTYPE_I32);
    EXPECT_EQ(a.count, 10000000000ull);
    EXPECT_EQ(a.dist, fb::distribution::integers);
    EXPECT_EQ(a.low, -5);
    EXPECT_EQ(a.high, 5);
    EXPECT_EQ(a.seed, 7u);
    EXPECT_EQ(a.name, "i32-integers-1e10");
    const auto& b = s.cases[1].dataset;
    EXPECT_EQ(b.dist, fb::distribution::normal);
    EXPECT_DOUBLE_EQ(b.mean, 1.5);
    EXPECT_DOUBLE_EQ(b.stddev, 0.25);
    EXPECT_EQ(b.count, 1000000u) << "default count";
    EXPECT_EQ(s.cases[2].dataset.count, 0u) << "count 0 is allowed";
    EXPECT_DOUBLE_EQ(s.cases[2].dataset.value, 200);
    EXPECT_EQ(s.cases[3].dataset.dist, fb::distribution::smooth);
    EXPECT_EQ(s.cases[0].format.origin, "<t>:6:11");
}

TEST(config_read, integer_ranges_must_fit_the_dtype) {
    std::string message = error_of([] {
        fb::load_study_text(
            "datasets: [{dtype: u8, distribution: integers, low: 0, high: 300}]\nformats: [memory]\n", "<t>");
    });
    EXPECT_NE(message.find("does not fit dtype u8"), std::string::npos) << message;
    message = error_of([] {
        fb::load_study_text("datasets: [{dtype: i32, distribution: integers, low: -2147483649, high: "
                            "0}]\nformats: [memory]\n",
                            "<t>");
    });
    EXPECT_NE(message.find("does not fit dtype i32"), std::string::npos) << message;
    // The whole i64 range, and its top end: 2^63 - 1 is not 2^63 (through a
    // double they are the same number).
    auto s = fb::load_study_text("datasets: [{dtype: i64, distribution: integers, low: -9223372036854775808, "
                                 "high: 9223372036854775807}]\nformats: [memory]\n",
                                 "<t>");
    EXPECT_EQ(s.cases[0].dataset.low, std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(s.cases[0].dataset.high, std::numeric_limits<std::int64_t>::max());
    s = fb::load_study_text("datasets: [{dtype: i32, distribution: integers, low: -2147483648, "
                            "high: 2147483647}]\nformats: [memory]\n",
                            "<t>");
    EXPECT_EQ(s.cases[0].dataset.high, 2147483647);
    message = error_of([] {
        fb::load_study_text("datasets: [{dtype: i64, distribution: integers, high: 9223372036854775808}]\n"
                            "formats: [memory]\n",
                            "<t>");
    });
    EXPECT_NE(message.find("expected a whole number"), std::string::npos) << message;
}

TEST(config_read, top_level_settings) {
    auto s =
        fb::load_study_text("name: n\ndescription: d\ndirectory: /tmp/x\nkeep_files: yes\ninterleave: true\n"
                            "isolation: none\nbaseline: memory\n"
                            "outputs: [console, {format: json, path: r.json}]\n"
                            "plugin_path: /opt/p\n"
                            "defaults: {min_time: 500ms, timeout: 2min, align_offset: 16, warmup: 0, "
                            "warmup_time: 20ms}\n"
                            "datasets: [{count: 1}]\nformats: [memory]\n",
                            "<t>");
    EXPECT_EQ(s.name, "n");
    EXPECT_EQ(s.description, "d");
    EXPECT_EQ(s.directory, "/tmp/x");
    EXPECT_TRUE(s.keep_files);
    EXPECT_EQ(s.schedule, fb::schedule_mode::interleave); // the older spelling
    EXPECT_EQ(s.isolation, fb::isolation_mode::none);
    EXPECT_EQ(s.baseline, "memory");
    ASSERT_EQ(s.outputs.size(), 2u);
    EXPECT_EQ(s.outputs[0].format, "console");
    EXPECT_EQ(s.outputs[1].path, "r.json");
    EXPECT_EQ(s.plugin_path, (std::vector<std::string>{"/opt/p"}));
    const auto& p = s.cases[0].params;
    EXPECT_DOUBLE_EQ(p.min_time, 0.5);
    EXPECT_DOUBLE_EQ(p.timeout, 120);
    EXPECT_EQ(p.align_offset, 16u);
    EXPECT_EQ(p.warmup, 0u);
    EXPECT_DOUBLE_EQ(p.warmup_time, 0.02);
    EXPECT_EQ(s.source, "<t>");
}

TEST(config_read, schedules) {
    const std::string rest = "datasets: [{count: 1}]\nformats: [memory]\n";
    EXPECT_EQ(fb::load_study_text(rest, "<t>").schedule, fb::schedule_mode::sequential);
    auto shuffled = fb::load_study_text("schedule: shuffle\nshuffle_seed: 7\n" + rest, "<t>");
    EXPECT_EQ(shuffled.schedule, fb::schedule_mode::shuffle);
    EXPECT_EQ(shuffled.shuffle_seed, 7u);
    EXPECT_EQ(fb::load_study_text("interleave: false\n" + rest, "<t>").schedule,
              fb::schedule_mode::sequential);
    // The resolved study names the schedule, never the older key.
    auto old = fb::load_study_text("interleave: true\n" + rest, "<t>");
    EXPECT_NE(old.resolved_yaml.find("schedule: interleave"), std::string::npos) << old.resolved_yaml;
    EXPECT_EQ(old.resolved_yaml.find("interleave: true"), std::string::npos) << old.resolved_yaml;
    EXPECT_EQ(fb::load_study_text(old.resolved_yaml, "<r>").schedule, fb::schedule_mode::interleave);
    std::string both =
        error_of([&] { fb::load_study_text("interleave: true\nschedule: shuffle\n" + rest, "<t>"); });
    EXPECT_NE(both.find("<t>:1:13: interleave: give either 'schedule' or the older 'interleave'"),
              std::string::npos)
        << both;
    std::string typo = error_of([&] { fb::load_study_text("schedule: shufle\n" + rest, "<t>"); });
    EXPECT_NE(
        typo.find("<t>:1:11: schedule: expected one of sequential, interleave, shuffle, got 'shufle' (did "
                  "you mean 'shuffle'?)"),
        std::string::npos)
        << typo;
}

TEST(config_read, from_file_and_plugin_path_are_relative_to_the_study) {
    auto s = fb::load_study_file(good("from_file.yaml"));
    ASSERT_EQ(s.cases.size(), 1u);
    const auto& d = s.cases[0].dataset;
    EXPECT_EQ(d.file, studies + "/good/data/input.bin");
    EXPECT_EQ(d.file_plugin, "raw");
    EXPECT_EQ(d.type, FB_DTYPE_F32);
    EXPECT_EQ(d.count, 1000u);
    EXPECT_EQ(d.name, "f32-input-1e3");
    EXPECT_EQ(s.plugin_path, (std::vector<std::string>{studies + "/good/my-plugins"}));
    EXPECT_EQ(s.name, "from-file");
}

// Found by fuzz_study: invalid UTF-8 did not survive the resolved_yaml round trip.
TEST(config_read, invalid_utf8_is_rejected_with_its_position) {
    std::string message = error_of(
        [] { fb::load_study_text("name: x\ndatasets: [{count: 10}]\nformats: [{plugin: m\xa6}]\n", "<t>"); });
    EXPECT_EQ(message.rfind("<t>:3:21: not valid UTF-8 (byte 0xa6)", 0), 0u) << message;
    message = error_of([] { fb::load_study_text("\xc3\x28", "<t>"); });
    EXPECT_EQ(message.rfind("<t>:1:1: not valid UTF-8 (byte 0xc3)", 0), 0u) << message;
    message = error_of(
        [] { fb::load_study_text("datasets: [{count: 10}]\nformats: [memory]\n", "<t>", {"name=\xff"}); });
    EXPECT_NE(message.find("--set: not valid UTF-8"), std::string::npos) << message;
    // Valid multi-byte text is fine.
    EXPECT_NO_THROW(fb::load_study_text(
        "name: \xc3\xa9t\xc3\xa9 \xe2\x82\xac\ndatasets: [{count: 10}]\nformats: [memory]\n", "<t>"));
}

// YAML 1.2 reads CR, CR LF and LF alike as line breaks. yaml-cpp kept a lone
// CR at the end of a plain scalar, which resolved_yaml then wrote before a
// LF, so the record reloaded to another case (found by fuzz_study).
TEST(config_read, lone_carriage_returns_are_line_breaks) {
    const std::string lf = "name: x\ndatasets: [{count: 10}]\nformats:\n  - {label: m, plugin: memory}\n";
    const auto want = fb::load_study_text(lf, "<t>");
    ASSERT_EQ(want.cases.size(), 1u);
    EXPECT_EQ(want.cases[0].format.label, "m");
    for (const std::string& text :
         {std::string("name: x\rdatasets: [{count: 10}]\rformats:\r  - {label: m, plugin: memory}\r"),
          std::string("name: x\r\ndatasets: [{count: 10}]\r\nformats:\r\n  - {label: m, plugin: memory}\r\n"),
          std::string("name: x\ndatasets: [{count: 10}]\nformats:\n  - label: m\n    plugin: memory\r")}) {
        const auto s = fb::load_study_text(text, "<t>");
        ASSERT_EQ(s.cases.size(), 1u);
        EXPECT_EQ(s.name, "x");
        EXPECT_EQ(s.cases[0].format.label, "m");
        EXPECT_EQ(s.cases[0].format.plugin, "memory");
        EXPECT_EQ(s.cases[0].key, want.cases[0].key);
        const auto again = fb::load_study_text(s.resolved_yaml, "<resolved>");
        ASSERT_EQ(again.cases.size(), 1u);
        EXPECT_EQ(again.cases[0].key, s.cases[0].key);
    }
    // A --set value is read the same way.
    const auto set = fb::load_study_text(lf, "<t>", {"name=y\r"});
    EXPECT_EQ(set.name, "y");
    // Line numbers count CR line ends too: the bad byte is on line 3.
    const std::string message =
        error_of([] { fb::load_study_text("name: x\rdatasets: [{count: 10}]\rformats: [m\xa6]\r", "<t>"); });
    EXPECT_EQ(message.rfind("<t>:3:", 0), 0u) << message;
}

TEST(config_read, name_defaults_to_the_file_stem) {
    auto s = fb::load_study_file(good("basic.yaml"), {"name="});
    EXPECT_EQ(s.name, "basic");
}

// ---- the default study -----------------------------------------------------------

TEST(config_stream_io, loads_and_matches_the_reference_experiment) {
    auto s = fb::load_study_file(std::string(FB_CONFIGS_DIR) + "/stream-io.yaml");
    EXPECT_EQ(s.name, "stream-io");
    EXPECT_NE(s.description.find("Fortran"), std::string::npos);
    // The seed's formatted I/O first, formatbench's text when gfortran is absent.
    EXPECT_EQ(s.baseline, "gfortran (f0.16) / list-directed");
    EXPECT_EQ(s.baseline_choices,
              (std::vector<std::string>{"gfortran (f0.16) / list-directed", "ascii-fixed16"}));
    ASSERT_EQ(s.published.size(), 2u);
    EXPECT_EQ(s.published[0].format, "gfortran unformatted stream");
    EXPECT_EQ(s.published[0].against, "gfortran (f0.16) / list-directed");
    EXPECT_EQ(s.published[0].write, 62.5); // the tip's enhancement table
    EXPECT_EQ(s.published[0].read, 325);
    EXPECT_EQ(s.published[1].format, "raw");
    EXPECT_EQ(s.published[1].against, "ascii-fixed16");
    EXPECT_EQ(labels(s),
              (std::vector<std::string>{"ascii-fixed16", "ascii-shortest", "gfortran (f0.16) / list-directed",
                                        "gfortran unformatted stream", "raw", "mmap", "zlib", "memory"}));
    ASSERT_EQ(s.cases.size(), 8u);
    for (const auto& c : s.cases) {
        EXPECT_EQ(c.dataset.count, 1000000u);
        EXPECT_EQ(c.dataset.type, FB_DTYPE_F64);
        EXPECT_EQ(c.dataset.dist, fb::distribution::uniform);
        EXPECT_EQ(c.dataset.seed, 1u);
        EXPECT_EQ(c.params.chunk_bytes, 0u);
        EXPECT_EQ(c.params.cache, fb::cache_mode::warm);
        EXPECT_EQ(c.params.repeat, 0u) << "auto";
        EXPECT_EQ(c.params.precision, 0.02);
        EXPECT_EQ(c.params.max_time, 3.0);
        EXPECT_EQ(c.params.warmup, 1u);
        EXPECT_EQ(c.params.min_time, 0.25);
    }
    EXPECT_EQ(s.cases[0].format.options,
              (fb::option_list{{"notation", "fixed"}, {"precision", "16"}, {"leading_zero", "false"}}));
    // The reference program's own statements, in the gfortran runtime.
    EXPECT_EQ(s.cases[2].format.plugin, "fortran");
    EXPECT_EQ(s.cases[2].format.options,
              (fb::option_list{{"form", "formatted"}, {"format", "(f0.16)"}, {"read_format", "*"}}));
    EXPECT_EQ(s.cases[3].format.options, (fb::option_list{{"form", "unformatted"}, {"access", "stream"}}));
    // With every plugin built, the study passes the plugin checks too.
    const auto& reg = test_registry();
    for (const char* id : {"ascii", "raw", "mmap", "zlib", "memory", "fortran"})
        if (!reg.find(id)) GTEST_SKIP() << "plugin " << id << " is not built";
    EXPECT_NO_THROW(fb::check_study_plugins(s, reg));
}

// ---- scalar syntaxes -------------------------------------------------------------

TEST(parse_count, accepts_the_documented_forms) {
    EXPECT_EQ(fb::parse_count("1000000"), 1000000u);
    EXPECT_EQ(fb::parse_count("1e6"), 1000000u);
    EXPECT_EQ(fb::parse_count("1E+6"), 1000000u);
    EXPECT_EQ(fb::parse_count("10**6"), 1000000u);
    EXPECT_EQ(fb::parse_count("1_000_000"), 1000000u);
    EXPECT_EQ(fb::parse_count("2.5e6"), 2500000u);
    EXPECT_EQ(fb::parse_count("1e10"), 10000000000ull);
    EXPECT_EQ(fb::parse_count("10**10"), 10000000000ull);
    EXPECT_EQ(fb::parse_count("10**19"), 10000000000000000000ull);
    EXPECT_EQ(fb::parse_count("18446744073709551615"), 18446744073709551615ull);
    EXPECT_EQ(fb::parse_count("0"), 0u);
    EXPECT_EQ(fb::parse_count("2**0"), 1u);
    EXPECT_EQ(fb::parse_count(" 42 "), 42u);
}

TEST(parse_count, rejects_everything_else) {
    for (const char* text : {"", "lots", "-1", "1.5", "1e", "e6", "1.5e0", "10**20", "18446744073709551616",
                             "2e19", "1__0", "_1", "1_", "1e-3", "0x10", "1 000"})
        EXPECT_EQ(fb::parse_count(text), std::nullopt) << text;
}

// One grammar for study sizes and plugin size options (plugin.h's
// fb_parse_size): K, M, G, T with or without B are decimal; KiB, MiB, GiB,
// TiB binary; any case.
TEST(parse_bytes, decimal_letters_binary_with_ib) {
    EXPECT_EQ(fb::parse_bytes("4096"), 4096u);
    EXPECT_EQ(fb::parse_bytes("64k"), 64000u);
    EXPECT_EQ(fb::parse_bytes("64K"), 64000u);
    EXPECT_EQ(fb::parse_bytes("64kB"), 64000u);
    EXPECT_EQ(fb::parse_bytes("64KiB"), 65536u);
    EXPECT_EQ(fb::parse_bytes("64kib"), 65536u);
    EXPECT_EQ(fb::parse_bytes("1M"), 1000000u);
    EXPECT_EQ(fb::parse_bytes("1mb"), 1000000u);
    EXPECT_EQ(fb::parse_bytes("1MiB"), 1048576u);
    EXPECT_EQ(fb::parse_bytes("2G"), 2000000000ull);
    EXPECT_EQ(fb::parse_bytes("2GiB"), 2147483648ull);
    EXPECT_EQ(fb::parse_bytes("3TB"), 3000000000000ull);
    EXPECT_EQ(fb::parse_bytes("1TiB"), 1099511627776ull);
    EXPECT_EQ(fb::parse_bytes("1.5KiB"), 1536u);
    EXPECT_EQ(fb::parse_bytes("1.5k"), 1500u);
    EXPECT_EQ(fb::parse_bytes("2.50MB"), 2500000u);
    EXPECT_EQ(fb::parse_bytes("1_048_576"), 1048576u);
    EXPECT_EQ(fb::parse_bytes("512 B"), 512u);
    EXPECT_EQ(fb::parse_bytes(" 8 MiB "), 8388608u);
    EXPECT_EQ(fb::parse_bytes("whole"), 0u);
    EXPECT_EQ(fb::parse_bytes("0"), 0u);
    EXPECT_EQ(fb::parse_bytes("18446744073709551615"), 18446744073709551615ull);
}

TEST(parse_bytes, rejects_everything_else) {
    for (const char* text :
         {"", "64q", "-1", "0.1B", "0.0001k", "k", "1.2.3", "whole file", "99999999999T", "1e6", "1Ki", "1iB",
          "18446744073709551616", "20000000000GB", "1__0", "_1", "1_", "1 2", "."})
        EXPECT_EQ(fb::parse_bytes(text), std::nullopt) << text;
}

// ---- plan output -------------------------------------------------------------------

TEST(plan, describe_case_and_table) {
    auto s = fb::load_study_text("name: p\ndefaults: {chunk: [64KiB, whole]}\n"
                                 "datasets: [{count: 1e6}]\nformats: [{plugin: zlib, options: {level: 6}}]\n",
                                 "<t>");
    EXPECT_EQ(fb::describe_case(s.cases[0]), "f64-uniform-1e6 | zlib | chunk 64KiB | warm | sync none");
    std::ostringstream out;
    fb::print_plan(fb::make_plan_table(s), out, 0);
    const std::string text = out.str();
    EXPECT_NE(text.find("study p (<t>): 2 cases from 1 dataset x 1 format"), std::string::npos) << text;
    EXPECT_NE(text.find("#  DATASET          DTYPE    COUNT  FORMAT  PLUGIN  OPTIONS  CHUNK  CACHE  SYNC"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("0  f64-uniform-1e6  f64    1000000  zlib    zlib    level=6  64KiB  warm   none"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("1  f64-uniform-1e6  f64    1000000  zlib    zlib    level=6  whole  warm   none"),
              std::string::npos)
        << text;
}

} // namespace

// `baseline:` as a list of preferences and `published:` (docs/config.md).
TEST(config_published, reads_preferences_and_published_speedups) {
    auto s = fb::load_study_text("datasets: [{count: 10}]\nformats: [raw, memory]\nbaseline: [memory, raw]\n"
                                 "published: [{format: memory, against: raw, read: 3.5, source: a paper}]\n",
                                 "<t>");
    EXPECT_EQ(s.baseline_choices, (std::vector<std::string>{"memory", "raw"}));
    EXPECT_EQ(s.baseline, "memory");
    ASSERT_EQ(s.published.size(), 1u);
    EXPECT_EQ(s.published[0].read, 3.5);
    EXPECT_TRUE(std::isnan(s.published[0].write)); // not published
    EXPECT_EQ(s.published[0].source, "a paper");
}

TEST(config_published, errors_name_the_key_and_the_labels) {
    auto load = [](const std::string& tail) {
        return error_of(
            [&] { fb::load_study_text("datasets: [{count: 10}]\nformats: [raw, memory]\n" + tail, "<t>"); });
    };
    EXPECT_NE(load("baseline: [memory, nope]\n").find("baseline[1]: no format is labelled 'nope'"),
              std::string::npos);
    EXPECT_NE(load("published: [{format: memory, against: rw, read: 2}]\n").find("did you mean 'raw'"),
              std::string::npos);
    EXPECT_NE(
        load("published: [{format: memory, against: raw}]\n").find("give the published speed-up of 'write'"),
        std::string::npos);
    EXPECT_NE(
        load("published: [{format: memory, against: raw, read: -1}]\n").find("a speed-up factor more than 0"),
        std::string::npos);
    EXPECT_NE(load("published: [{format: memory, against: raw, read: 2, by: x}]\n").find("unknown key 'by'"),
              std::string::npos);
}

// `workload:` (docs/config.md "Workload"): the phases, their weights and
// the work each names. Failing, the verdict's recommendation would weigh
// another read than the one the study states.
TEST(config_workload, reads_the_phases_and_their_work) {
    auto s = fb::load_study_text(
        "datasets: [{count: 10000}]\n"
        "formats: [{plugin: raw, access: random, access_block: 4KiB, cache: [warm, cold]},\n"
        "          {plugin: raw, label: whole}]\n"
        "workload: {write: 2, reads: [{access: random, cache: cold, weight: 1e4}, {access: whole, weight: "
        "0.5}]}\n",
        "<t>");
    ASSERT_TRUE(s.workload.given);
    EXPECT_EQ(s.workload.write.weight, 2);
    EXPECT_TRUE(s.workload.write.keys.empty());
    ASSERT_EQ(s.workload.reads.size(), 2u);
    EXPECT_EQ(s.workload.reads[0].weight, 10000);
    EXPECT_EQ(s.workload.reads[0].keys, (std::vector<std::string>{"cache", "access"})); // run_fields() order
    EXPECT_EQ(s.workload.reads[0].params.cache, fb::cache_mode::cold);
    EXPECT_EQ(s.workload.reads[0].params.access, fb::access_mode::random);
    EXPECT_EQ(s.workload.reads[1].weight, 0.5);
    // The long form of the write names write-side keys.
    auto w =
        fb::load_study_text("datasets: [{count: 10000}]\nformats: [{plugin: raw, chunk: [4KiB, whole]}]\n"
                            "workload: {write: {weight: 3, chunk: 4KiB}}\n",
                            "<t>");
    EXPECT_EQ(w.workload.write.weight, 3);
    EXPECT_EQ(w.workload.write.params.chunk_bytes, 4096u);
    EXPECT_TRUE(w.workload.reads.empty());
}

// Bad `workload:` input: each message names the field and what to do.
// Failing, a user would get a recommendation for a mix they did not mean,
// or a message that does not say which key to fix.
TEST(config_workload, errors_name_the_field_and_what_to_do) {
    auto load = [](const std::string& workload) {
        return error_of([&] {
            fb::load_study_text("datasets: [{count: 10000}]\n"
                                "formats: [{plugin: raw, access: random, cache: [warm, cold]}, "
                                "{plugin: mmap, chunk: [4KiB, whole]}]\n"
                                "workload: " +
                                    workload + "\n",
                                "<t>");
        });
    };
    auto has = [](const std::string& text, const std::string& part) {
        EXPECT_NE(text.find(part), std::string::npos) << text;
    };
    has(load("3"), "<t>:3:11: workload: expected a map like {write: 1, reads: [{access: random");
    has(load("{writes: 1}"),
        "workload: unknown key 'writes' (did you mean 'write'?); expected one of: write, reads");
    has(load("{write: -1}"), "workload.write: expected a weight, 0 or more");
    has(load("{write: 0}"), "workload: every weight is 0: give the write or a read a weight above 0");
    has(load("{reads: []}"), "workload.reads: expected a non-empty list of reads");
    has(load("{reads: [{access: random, cache: cold}]}"), "workload.reads[0]: missing required key 'weight'");
    has(load("{reads: [{acess: random, weight: 1}]}"),
        "workload.reads[0]: unknown key 'acess' (did you mean 'access'?)");
    has(load("{reads: [{access: random, cache: [warm, cold], weight: 1}]}"),
        "workload.reads[0].cache: a workload phase names one value; give each value its own read");
    has(load("{reads: [{access: random, repeat: 3, weight: 1}]}"),
        "'repeat' says how many samples to take, not what work a phase does");
    has(load("{write: {weight: 1, cache: cold}}"),
        "workload.write: 'cache' changes only the read phase; name it in a read of workload.reads");
    // Against the plan: a read no case does, and one that names two.
    has(load("{reads: [{access: plane, weight: 1}]}"),
        "workload.reads[0]: names no case of the study (plane); the cases read: (random, warm), (random, "
        "cold), "
        "(whole, warm)");
    has(load("{reads: [{access: random, weight: 1}]}"),
        "workload.reads[0]: names cases of raw that differ in cache (warm and cold); add 'cache:' to say "
        "which");
    has(load("{write: 1}"), "workload.write: names cases of mmap that differ in chunk (4KiB and whole); add "
                            "'chunk:' to say which");
}

// Case selection (study/select.hpp) over hand-written plans: bare globs and
// regexes against the label, FIELD=GLOB for the format, data set and run
// parameters (study text and exact form), all filters must match and no
// exclude, unknown fields and empty selections as usage errors, and the
// baselines a selection pulls in (results/figures.hpp). Expected selections
// are written out by hand.
#include "base/error.hpp"
#include "results/figures.hpp"
#include "study/identity.hpp"
#include "study/select.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fb = formatbench;
using bools = std::vector<bool>;

namespace {

// 0 raw whole, 1 raw 64KiB, 2 zlib-1 whole, 3 zlib-1 64KiB, 4 ascii whole (i32)
fb::study plan() {
    fb::study s;
    s.name = "t";
    auto add = [&](std::string label, std::string plugin, std::uint64_t chunk, fb::dtype type) {
        fb::case_spec c;
        c.index = s.cases.size();
        c.dataset.name = type == FB_DTYPE_F64 ? "f64-1e3" : "i32-1e3";
        c.dataset.type = type;
        c.dataset.count = 1000;
        c.format.label = c.format.base_label = std::move(label);
        c.format.plugin = std::move(plugin);
        c.params.chunk_bytes = chunk;
        s.cases.push_back(c);
    };
    add("raw", "raw", 0, FB_DTYPE_F64);
    add("raw", "raw", 65536, FB_DTYPE_F64);
    add("zlib-1", "zlib", 0, FB_DTYPE_F64);
    add("zlib-1", "zlib", 65536, FB_DTYPE_F64);
    add("ascii", "ascii", 0, FB_DTYPE_I32);
    fb::assign_identities(s.cases);
    return s;
}

bools sel(const std::vector<std::string>& filters, const std::vector<std::string>& excludes = {}) {
    return fb::select_cases(plan(), filters, excludes);
}

std::string usage_message(const std::vector<std::string>& filters,
                          const std::vector<std::string>& excludes = {}) {
    try {
        sel(filters, excludes);
    } catch (const fb::usage_error& e) {
        return e.what();
    }
    return "(no usage_error)";
}

} // namespace

TEST(select, no_flags_select_everything) {
    EXPECT_TRUE(sel({}).empty()) << "empty = all";
}

TEST(select, bare_glob_and_regex_match_the_label) {
    EXPECT_EQ(sel({"zlib*"}), (bools{false, false, true, true, false}));
    EXPECT_EQ(sel({"raw"}), (bools{true, true, false, false, false})) << "a glob matches the whole label";
    EXPECT_EQ(sel({"~a"}), (bools{true, true, false, false, true})) << "a regex matches any part";
    EXPECT_EQ(sel({"~^(raw|ascii)$"}), (bools{true, true, false, false, true}));
}

TEST(select, fields_match_study_text_and_exact_values) {
    EXPECT_EQ(sel({"chunk=64KiB"}), (bools{false, true, false, true, false}));
    EXPECT_EQ(sel({"chunk=65536"}), (bools{false, true, false, true, false}));
    EXPECT_EQ(sel({"chunk=whole"}), (bools{true, false, true, false, true}));
    EXPECT_EQ(sel({"plugin=zlib"}), (bools{false, false, true, true, false}));
    EXPECT_EQ(sel({"dtype=i32"}), (bools{false, false, false, false, true}));
    EXPECT_EQ(sel({"dataset=f64*"}), (bools{true, true, true, true, false}));
    EXPECT_EQ(sel({"count=1000"}), (bools{true, true, true, true, true}));
    EXPECT_EQ(sel({"cache=warm"}), (bools{true, true, true, true, true}));
    EXPECT_EQ(sel({"format=~^z"}), (bools{false, false, true, true, false}));
}

TEST(select, every_filter_must_match_and_no_exclude) {
    EXPECT_EQ(sel({"dtype=f64", "chunk=whole"}), (bools{true, false, true, false, false}));
    EXPECT_EQ(sel({}, {"zlib*"}), (bools{true, true, false, false, true}));
    EXPECT_EQ(sel({"dtype=f64"}, {"chunk=whole", "plugin=zlib"}), (bools{false, true, false, false, false}));
}

TEST(select, unknown_field_and_empty_selection_are_usage_errors) {
    const std::string unknown = usage_message({"chunck=4KiB"});
    EXPECT_NE(unknown.find("unknown field 'chunck'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("did you mean 'chunk'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("plugin, dataset"), std::string::npos) << "lists the fields: " << unknown;
    const std::string none = usage_message({"ra"});
    EXPECT_NE(none.find("--filter 'ra' selects none of the 5 cases"), std::string::npos) << none;
    const std::string all_out = usage_message({}, {"*"});
    EXPECT_NE(all_out.find("--exclude '*' selects none"), std::string::npos) << all_out;
    const std::string bad_regex = usage_message({"~(a"});
    EXPECT_NE(bad_regex.find("not a regular expression"), std::string::npos) << bad_regex;
}

TEST(select, the_baseline_row_did_the_same_reads) {
    // raw read whole and raw read at random; npy read at random. npy's
    // baseline is raw [random]: matched without the access pattern it would
    // be the whole read, and "npy [random]" would show raw's 33 MB read
    // against npy's 1000 blocks (2.57x where the two random reads give 0.83x).
    std::vector<fb::case_result> all(3);
    auto set = [&](std::size_t i, const char* label, fb::access_mode access) {
        fb::case_spec& c = all[i].spec;
        c.index = i;
        c.dataset.name = "f64-1e6";
        c.dataset.type = FB_DTYPE_F64;
        c.dataset.count = 1000000;
        c.format.label = c.format.base_label = c.format.plugin = label;
        c.params.access = access;
    };
    set(0, "raw", fb::access_mode::whole);
    set(1, "raw", fb::access_mode::random);
    set(2, "npy", fb::access_mode::random);
    EXPECT_EQ(fb::find_baseline(all, all[2], "raw"), &all[1]);
    all[2].spec.params.access = fb::access_mode::whole;
    EXPECT_EQ(fb::find_baseline(all, all[2], "raw"), &all[0]);
}

TEST(select, baselines_of_selected_cases_are_added) {
    fb::study s = plan();
    s.baseline = "raw";
    // zlib-1 at 64KiB compares with raw at 64KiB (same measurement); the
    // i32 data set has no raw case.
    EXPECT_EQ(fb::baselines_to_add(s, fb::select_cases(s, {"plugin=zlib", "chunk=64KiB"}, {})),
              (std::vector<std::size_t>{1}));
    EXPECT_EQ(fb::baselines_to_add(s, fb::select_cases(s, {"zlib*"}, {})), (std::vector<std::size_t>{0, 1}));
    EXPECT_TRUE(fb::baselines_to_add(s, fb::select_cases(s, {"ascii"}, {})).empty());
    EXPECT_TRUE(fb::baselines_to_add(s, {}).empty()) << "no selection: everything runs already";
    s.baseline.clear();
    EXPECT_TRUE(fb::baselines_to_add(s, fb::select_cases(s, {"zlib*"}, {})).empty());
}

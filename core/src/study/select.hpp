// Case selection (`run --filter/--exclude`, `plan --filter/--exclude`), like
// Google Benchmark's --benchmark_filter: an expression names a field of the
// case (FIELD=GLOB, or FIELD=~REGEX) or matches the case's label (a bare
// GLOB or ~REGEX). A pure function over the plan: case numbers stay those of
// the full plan, and the runner only skips the cases not selected.
#pragma once

#include "study/study.hpp"

#include <regex>
#include <string>
#include <vector>

namespace formatbench {

// One parsed --filter or --exclude expression.
struct case_filter {
    std::string text;  // as written, for messages
    std::string field; // a name of case_filter_fields()
    bool is_regex = false;
    std::string pattern; // the glob (fnmatch(3)) or the regex (ECMAScript)
    std::regex regex;
};

// The names an expression may use before '=': label (the format label, also
// what a bare pattern matches), format (the same), plugin, dataset, key (the
// case key), the data set's keys (dtype, count, distribution, seed, ...) and
// every run parameter (chunk, cache, sync, repeat, ...).
std::vector<std::string> case_filter_fields();

// Parses "FIELD=GLOB", "FIELD=~REGEX", "GLOB" or "~REGEX". Throws
// usage_error naming `flag`, the field names and a "did you mean" for an
// unknown field, or the regex's error.
case_filter parse_case_filter(const std::string& expr, const std::string& flag);

// The texts of a case that `field` matches against: run parameters and data
// set keys in their study form and, where it differs, their exact form
// (chunk: "64KiB" and "65536"); empty when the key does not apply to the case.
std::vector<std::string> case_field_values(const case_spec& c, const std::string& field);

// Whether `c` matches `f`: a glob must match a whole value, a regex any part
// of one (std::regex_search, as Google Benchmark does).
bool case_matches(const case_spec& c, const case_filter& f);

// Per case of `s`, in plan order: selected when it matches every filter
// (none = all) and no exclude. Throws usage_error when no case is selected.
std::vector<bool> select_matching(const study& s, const std::vector<case_filter>& filters,
                                  const std::vector<case_filter>& excludes);

// Parses the flags' expressions and selects; an empty result means "all"
// (neither flag given).
std::vector<bool> select_cases(const study& s, const std::vector<std::string>& filters,
                               const std::vector<std::string>& excludes);

} // namespace formatbench

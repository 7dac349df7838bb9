// Case selection by --filter and --exclude (select.hpp).
#include "study/select.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>

#include <fnmatch.h>

#include <algorithm>

namespace formatbench {

std::vector<std::string> case_filter_fields() {
    std::vector<std::string> names{"label", "format", "plugin", "dataset", "key"};
    for (const auto& f : dataset_fields())
        names.push_back(f.key);
    for (const auto& f : run_fields())
        names.push_back(f.key);
    return names;
}

case_filter parse_case_filter(const std::string& expr, const std::string& flag) {
    case_filter f;
    f.text = expr;
    f.field = "label";
    std::string pattern = expr;
    // FIELD=...: a field name is a word; anything else before '=' (a glob
    // like "a*=b") belongs to the pattern.
    if (const auto eq = expr.find('='); eq != std::string::npos && eq > 0) {
        const std::string name = expr.substr(0, eq);
        const bool word = name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
        if (word) {
            const auto names = case_filter_fields();
            if (std::find(names.begin(), names.end(), name) == names.end())
                throw usage_error(fmt::format("{} '{}': unknown field '{}'{}; fields: {}", flag, expr, name,
                                              did_you_mean(name, names), join(names)));
            f.field = name;
            pattern = expr.substr(eq + 1);
        }
    }
    if (!pattern.empty() && pattern[0] == '~') {
        f.is_regex = true;
        f.pattern = pattern.substr(1);
        try {
            f.regex = std::regex(f.pattern, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw usage_error(fmt::format("{} '{}': '{}' is not a regular expression (ECMAScript): {}", flag,
                                          expr, f.pattern, e.what()));
        }
    } else {
        f.pattern = pattern;
    }
    return f;
}

std::vector<std::string> case_field_values(const case_spec& c, const std::string& field) {
    if (field == "label" || field == "format") return {c.format.label};
    if (field == "plugin") return {c.format.plugin};
    if (field == "dataset") return {c.dataset.name};
    if (field == "key") return {c.key};
    auto both = [](std::string text, std::string exact) {
        std::vector<std::string> v{text};
        if (exact != text) v.push_back(std::move(exact));
        return v;
    };
    if (const auto* f = find_field(dataset_fields(), field))
        return f->applies(c.dataset) ? both(f->text(c.dataset), f->identity_text(c.dataset))
                                     : std::vector<std::string>{};
    if (const auto* f = find_field(run_fields(), field))
        return both(f->text(c.params), f->identity_text(c.params));
    return {};
}

bool case_matches(const case_spec& c, const case_filter& f) {
    for (const auto& v : case_field_values(c, f.field)) {
        if (f.is_regex ? std::regex_search(v, f.regex) : ::fnmatch(f.pattern.c_str(), v.c_str(), 0) == 0)
            return true;
    }
    return false;
}

std::vector<bool> select_matching(const study& s, const std::vector<case_filter>& filters,
                                  const std::vector<case_filter>& excludes) {
    std::vector<bool> selected(s.cases.size(), true);
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.cases.size(); ++i) {
        for (const auto& f : filters)
            selected[i] = selected[i] && case_matches(s.cases[i], f);
        for (const auto& f : excludes)
            selected[i] = selected[i] && !case_matches(s.cases[i], f);
        n += selected[i];
    }
    if (n == 0 && !s.cases.empty()) {
        std::vector<std::string> given;
        for (const auto& f : filters)
            given.push_back("--filter '" + f.text + "'");
        for (const auto& f : excludes)
            given.push_back("--exclude '" + f.text + "'");
        throw usage_error(
            fmt::format("{} select{} none of the {} cases of study '{}'; `formatbench plan` lists "
                        "them",
                        join(given, " "), given.size() == 1 ? "s" : "", s.cases.size(), s.name));
    }
    return selected;
}

std::vector<bool> select_cases(const study& s, const std::vector<std::string>& filters,
                               const std::vector<std::string>& excludes) {
    if (filters.empty() && excludes.empty()) return {};
    std::vector<case_filter> f, x;
    for (const auto& e : filters)
        f.push_back(parse_case_filter(e, "--filter"));
    for (const auto& e : excludes)
        x.push_back(parse_case_filter(e, "--exclude"));
    return select_matching(s, f, x);
}

} // namespace formatbench

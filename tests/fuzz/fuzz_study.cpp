// libFuzzer target: the study-file parser (load_study_text) on arbitrary
// bytes. The text up to the first NUL is the study; up to four NUL-separated
// strings after it are --set overrides. config_error and usage_error are the
// expected outcomes; any other exception escapes and is reported as a crash.
// A study that loads must load again from its resolved_yaml (the record a
// run keeps) to the same cases. (This found that yaml-cpp round-trips
// invalid UTF-8 differently in plain and quoted scalars; the reader now
// rejects study text and --set values that are not UTF-8.)
#include "study/reader.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view all(reinterpret_cast<const char*>(data), size);
    std::size_t nul = all.find('\0');
    std::string text(all.substr(0, nul));
    std::vector<std::string> sets;
    while (nul != std::string_view::npos && sets.size() < 4) {
        std::size_t next = all.find('\0', nul + 1);
        sets.emplace_back(all.substr(nul + 1, next == std::string_view::npos ? next : next - nul - 1));
        nul = next;
    }
    formatbench::study s;
    try {
        s = formatbench::load_study_text(text, "<fuzz>", sets);
    } catch (const formatbench::usage_error&) { // config_error is one too
        return 0;
    }
    try {
        formatbench::study again = formatbench::load_study_text(s.resolved_yaml, "<resolved>");
        bool same = again.cases.size() == s.cases.size();
        for (std::size_t i = 0; same && i < s.cases.size(); ++i)
            same = again.cases[i].key == s.cases[i].key;
        if (!same) {
            std::fprintf(stderr, "resolved_yaml reloads to other cases:\n%s\n", s.resolved_yaml.c_str());
            std::abort();
        }
    } catch (const formatbench::usage_error& e) {
        std::fprintf(stderr, "resolved_yaml does not reload: %s\n%s\n", e.what(), s.resolved_yaml.c_str());
        std::abort();
    }
    return 0;
}

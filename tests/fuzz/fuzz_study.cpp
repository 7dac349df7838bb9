// libFuzzer target: the study-file parser (load_study_text) on arbitrary
// bytes. The text up to the first NUL is the study; up to four NUL-separated
// strings after it are --set overrides. config_error and usage_error are the
// expected outcomes; any other exception escapes and is reported as a crash.
// A study that loads must load again from its resolved_yaml (the record a
// run keeps) to the same cases, when it is valid UTF-8: yaml-cpp keeps an
// invalid byte of a plain scalar but turns one in a quoted scalar (as the
// emitter writes it back) into U+FFFD, so such a study does not round-trip.
#include "config.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Whether `s` is well-formed UTF-8 (no overlongs, surrogates or > U+10FFFF).
bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = c >= 0xc2 && c <= 0xdf   ? 1
                        : c >= 0xe0 && c <= 0xef ? 2
                        : c >= 0xf0 && c <= 0xf4 ? 3
                                                 : 0;
        if (n == 0 || s.size() - i <= n) return false;
        auto b1 = static_cast<unsigned char>(s[i + 1]);
        if ((c == 0xe0 && b1 < 0xa0) || (c == 0xed && b1 > 0x9f) || (c == 0xf0 && b1 < 0x90) ||
            (c == 0xf4 && b1 > 0x8f))
            return false;
        for (std::size_t k = 1; k <= n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
        i += n + 1;
    }
    return true;
}

} // namespace

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
    if (!valid_utf8(all)) return 0;
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

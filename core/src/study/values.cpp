// Scalar syntaxes of study files (see config_values.hpp and docs/config.md):
// counts ("1e6", "10**6", "1_000_000"), byte sizes (the SDK's fb_parse_size
// grammar, plus "whole"), durations ("500ms") and booleans. All arithmetic is exact and
// overflow-checked: a count that does not fit in 64 bits is rejected, never
// wrapped.
#include "study/values.hpp"
#include "study/reader.hpp"

#include <formatbench/plugin.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace formatbench {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Removes digit-group underscores ("1_000_000"); nullopt when one is not
// between two digits.
std::optional<std::string> strip_underscores(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '_') {
            out += s[i];
            continue;
        }
        if (i == 0 || i + 1 == s.size() || !is_digit(s[i - 1]) || !is_digit(s[i + 1])) return std::nullopt;
    }
    return out;
}

std::optional<std::uint64_t> to_u64(std::string_view digits) {
    if (!all_digits(digits)) return std::nullopt;
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return v;
}

std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

std::optional<std::uint64_t> pow10(unsigned exponent) {
    std::uint64_t r = 1;
    for (unsigned i = 0; i < exponent; ++i) {
        auto next = mul(r, 10);
        if (!next) return std::nullopt;
        r = *next;
    }
    return r;
}

// "12.5" -> digits 125, 1 fraction digit. No sign, no exponent.
struct decimal {
    std::uint64_t digits = 0;
    unsigned fraction_digits = 0;
};

std::optional<decimal> parse_decimal(std::string_view s) {
    auto dot = s.find('.');
    std::string_view whole = s.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
    if (whole.empty() && frac.empty()) return std::nullopt;
    if ((!whole.empty() && !all_digits(whole)) ||
        (dot != std::string_view::npos && !frac.empty() && !all_digits(frac)))
        return std::nullopt;
    // Trailing fraction zeros do not change the value; dropping them keeps
    // "1.50e2" exact.
    while (!frac.empty() && frac.back() == '0')
        frac.remove_suffix(1);
    std::string all = std::string(whole) + std::string(frac);
    all.erase(0, std::min(all.find_first_not_of('0'), all.size()));
    if (all.empty()) return decimal{0, 0};
    auto v = to_u64(all);
    if (!v) return std::nullopt;
    return decimal{*v, static_cast<unsigned>(frac.size())};
}

// digits / 10^fraction_digits * multiplier, only when exactly integral.
std::optional<std::uint64_t> scale_exact(decimal d, std::uint64_t multiplier, int exponent10) {
    int shift = exponent10 - static_cast<int>(d.fraction_digits);
    auto m = mul(d.digits, multiplier);
    if (!m) return std::nullopt;
    if (*m == 0) return 0;
    if (shift >= 0) {
        if (shift > 19) return std::nullopt;
        auto p = pow10(static_cast<unsigned>(shift));
        if (!p) return std::nullopt;
        return mul(*m, *p);
    }
    if (-shift > 19) return std::nullopt;
    auto p = pow10(static_cast<unsigned>(-shift));
    if (!p || *m % *p != 0) return std::nullopt;
    return *m / *p;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::optional<std::uint64_t> parse_count(std::string_view text) {
    auto cleaned = strip_underscores(trim(text));
    if (!cleaned || cleaned->empty()) return std::nullopt;
    std::string_view s = *cleaned;
    if (all_digits(s)) return to_u64(s);
    // BASE**EXPONENT, as in Fortran's 10**6.
    if (auto star = s.find("**"); star != std::string_view::npos) {
        auto base = to_u64(s.substr(0, star));
        auto exponent = to_u64(s.substr(star + 2));
        if (!base || !exponent) return std::nullopt;
        if (*base <= 1) return *exponent == 0 ? 1 : *base;
        std::uint64_t r = 1;
        for (std::uint64_t i = 0; i < *exponent; ++i) {
            auto next = mul(r, *base);
            if (!next) return std::nullopt;
            r = *next;
        }
        return r;
    }
    // MANTISSA e EXPONENT ("1e6", "2.5e6", "1E+7"); the value must be whole.
    auto e = s.find_first_of("eE");
    if (e == std::string_view::npos) return std::nullopt;
    auto mantissa = parse_decimal(s.substr(0, e));
    std::string_view exp_text = s.substr(e + 1);
    if (!exp_text.empty() && exp_text.front() == '+') exp_text.remove_prefix(1);
    auto exponent = to_u64(exp_text);
    if (!mantissa || !exponent || *exponent > 40) return std::nullopt;
    return scale_exact(*mantissa, 1, static_cast<int>(*exponent));
}

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
    const std::string t(trim(text));
    if (lower(t) == "whole") return 0;
    std::uint64_t bytes = 0;
    if (t.find('\0') != std::string::npos || !fb_parse_size(t.c_str(), &bytes)) return std::nullopt;
    return bytes;
}

namespace detail {

std::optional<double> parse_real(std::string_view text) {
    auto cleaned = strip_underscores(trim(text));
    if (!cleaned || cleaned->empty()) return std::nullopt;
    std::string_view s = *cleaned;
    if (s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    // from_chars rejects ".5"; a leading "0" keeps the value.
    std::string buffer;
    if (s.front() == '.' || (s.size() > 1 && s.front() == '-' && s[1] == '.')) {
        bool negative = s.front() == '-';
        buffer.reserve(s.size() + 1);
        buffer.append(negative ? "-0" : "0");
        buffer.append(s.substr(negative ? 1 : 0));
        s = buffer;
    }
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
    auto cleaned = strip_underscores(trim(text));
    if (!cleaned || cleaned->empty()) return std::nullopt;
    std::string_view s = *cleaned;
    if (s.front() == '+') s.remove_prefix(1);
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<double> parse_duration(std::string_view text) {
    std::string_view s = trim(text);
    std::size_t unit_at = s.size();
    while (unit_at > 0 && std::isalpha(static_cast<unsigned char>(s[unit_at - 1])))
        --unit_at;
    std::string unit = lower(s.substr(unit_at));
    auto number = parse_real(s.substr(0, unit_at));
    if (!number || *number < 0) return std::nullopt;
    static const struct {
        const char* name;
        double seconds;
    } units[] = {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"min", 60}, {"h", 3600}};
    // At most 10^7 s (116 days): a longer min_time or timeout is a typo,
    // and the clocks that count it down must not overflow.
    for (const auto& u : units)
        if (unit == u.name) {
            const double seconds = *number * u.seconds;
            if (seconds > 1e7) return std::nullopt;
            return seconds;
        }
    return std::nullopt;
}

std::optional<bool> parse_bool(std::string_view text) {
    std::string s = lower(trim(text));
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
    return std::nullopt;
}

std::string short_count(std::uint64_t count) {
    if (count == 0) return "0";
    unsigned zeros = 0;
    std::uint64_t m = count;
    while (m % 10 == 0) {
        m /= 10;
        ++zeros;
    }
    if (zeros < 3) return std::to_string(count);
    return std::to_string(m) + "e" + std::to_string(zeros);
}

} // namespace detail
} // namespace formatbench

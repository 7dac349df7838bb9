// Parsing kernel of the ascii reader: turns a range of text into values.
// The fast path is one from_chars per value: fast_float's for f64 and f32,
// std::from_chars for integers. Whatever it does not take whole goes to a
// slow path, std::from_chars on a copy, that either reads the token or says
// what is wrong with it: a leading '+', the forms of Fortran's list-directed
// input (exponent letters d, D, q, Q, an exponent without its letter as
// (es12.4) and (d26.17) write beyond two exponent digits, "1.0+300", and
// repeat counts "3*2.5"), a number out of range, a bad token. Header-only
// because it is a template per dtype; the reader instantiates it.
//
// Fortran's null values have no value to give and are refused: two commas
// with only blanks or line ends between them, a comma before the first
// value, and "r*" without a constant (Fortran leaves the variable as it
// was). So is a slash, which ends Fortran's input early.
//
// fast_float (Debian's libfast-float-dev) is the Eisel-Lemire parser that
// libstdc++ 12's own from_chars is built on, without its wrapper: on this
// machine it parsed 10^6 shortest f64 in 15.3 ms against std::from_chars'
// 17.9 ms (one thread, same text, identical bits). Both round correctly, so
// they agree on every decimal number; they differ only outside the range of
// T, where fast_float returns infinity (or zero) without an error: a finite
// token that comes back infinite, or a zero with an exponent, is therefore
// handed to the slow path, which reports it or saturates it (saturate()).
#pragma once

#include "settings.hpp"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <system_error>
#include <type_traits>

namespace formatbench::detail {

enum class token_problem { none, invalid, out_of_range, too_long, null_value, slash };

// What parsing a range found. Newlines are counted in the separators
// consumed, so that the reader knows the line of `stop` without another pass.
struct parse_result {
    std::size_t count = 0;                       // values stored
    const char* stop = nullptr;                  // first byte not consumed
    std::uint64_t newlines = 0;                  // '\n' in [begin, stop)
    const char* last_newline = nullptr;          // the last of them, or nullptr
    token_problem problem = token_problem::none; // if set, the bad token (or null value) starts at stop
    // A comma since the last value (or since the start, when none came):
    // another comma before the next value makes a null value.
    bool comma = false;
    // A repeat count "r*c" that max_count cut short: the copies of c still
    // to come (its bits in repeat_bits), before the text at stop.
    std::uint64_t repeat_left = 0;
    std::uint64_t repeat_bits = 0;
};

namespace parse_impl {

struct separator_table {
    bool is[256] = {};
    constexpr separator_table() {
        for (int c = 0; c < 256; ++c)
            is[c] = is_separator(static_cast<unsigned char>(c));
    }
};
inline constexpr separator_table separators{};

inline bool sep(char c) noexcept {
    return separators.is[static_cast<unsigned char>(c)];
}

inline const char* token_end(const char* p, const char* end) noexcept {
    while (p != end && !sep(*p))
        ++p;
    return p;
}

// The end of the next token at or after p: a place to cut text right after
// a token, so that no run of separators is split (its commas count).
inline const char* next_token_end(const char* p, const char* end) noexcept {
    while (p != end && sep(*p))
        ++p;
    return token_end(p, end);
}

// Takes the run of separators at p (one at least) up to the next token or
// end, counting its line ends and its commas: false, with p at the comma,
// when a comma follows another (`comma` says whether one came before p).
inline bool take_run(const char*& p, const char* end, bool& comma, std::uint64_t& newlines,
                     const char*& last_newline) noexcept {
    do {
        if (*p == '\n') {
            ++newlines;
            last_newline = p;
        } else if (*p == ',') {
            if (comma) [[unlikely]]
                return false;
            comma = true;
        }
        ++p;
    } while (p != end && sep(*p));
    return true;
}

// A float token beyond the range of T. Up to twice the largest finite value
// reads as that value: lossy notations round it up (general with precision
// 16 writes DBL_MAX as 1.797693134862316e+308, which is above it). Below the
// smallest subnormal reads as a zero of the same sign, as IEEE rounding,
// strtod and Fortran have it. Anything else (1e400 for f64) is an error.
template <class T>
token_problem saturate(const char* first, const char* last, T& out) noexcept {
    using wide = std::conditional_t<std::is_same_v<T, float>, double, long double>;
    wide w;
    auto [ptr, ec] = std::from_chars(first, last, w);
    if (ec != std::errc() || ptr != last) return token_problem::out_of_range;
    wide magnitude = w < 0 ? -w : w;
    if (magnitude > wide(std::numeric_limits<T>::max()) &&
        magnitude <= 2 * wide(std::numeric_limits<T>::max())) {
        out = w < 0 ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
        return token_problem::none;
    }
    if (magnitude < wide(std::numeric_limits<T>::denorm_min())) {
        out = w < 0 ? -T(0) : T(0);
        return token_problem::none;
    }
    return token_problem::out_of_range;
}

// The slow path for one token [b, e): accepts what the fast path does not
// (a leading '+', Fortran's exponents and repeat counts) and classifies what
// is wrong. `repeat` is how many values the token stands for (r of "r*c").
// Not inlined: the parse loop stays as small as the fast path needs.
template <class T>
[[gnu::noinline]] token_problem parse_token_slow(const char* b, const char* e, T& out,
                                                 std::uint64_t& repeat) noexcept {
    repeat = 1;
    std::size_t len = static_cast<std::size_t>(e - b);
    if (len > max_token) return token_problem::too_long;
    if (std::memchr(b, '/', len)) return token_problem::slash;
    if (const char* star = static_cast<const char*>(std::memchr(b, '*', len))) {
        // r*c: r (a positive integer without sign) copies of c; r* alone is
        // r null values.
        auto [after, ec] = std::from_chars(b, star, repeat);
        if (ec != std::errc() || after != star || repeat == 0 || *b == '+' || *b == '-')
            return token_problem::invalid;
        if (star + 1 == e) return token_problem::null_value;
        b = star + 1;
        len = static_cast<std::size_t>(e - b);
    }
    // One byte more than the token: room for an exponent letter.
    char tmp[max_token + 1];
    std::memcpy(tmp, b, len);
    char* first = tmp;
    char* last = tmp + len;
    if (first != last && *first == '+') {
        ++first;
        if (first != last && (*first == '+' || *first == '-')) return token_problem::invalid;
    }
    if constexpr (std::is_floating_point_v<T>) {
        // Fortran's exponents: after the digits and point of a number (not
        // "nan(...)" or "inf") comes e, E, d, D, q or Q, or the exponent's
        // sign alone ("1.0+300", "0.49406564584124654-323").
        char* m = first + (first != last && *first == '-');
        char* digits = m;
        while (m != last && ((*m >= '0' && *m <= '9') || *m == '.'))
            ++m;
        if (m != digits && m != last) {
            if (*m == 'd' || *m == 'D' || *m == 'q' || *m == 'Q') {
                *m = 'e';
            } else if (*m == '+' || *m == '-') {
                std::memmove(m + 1, m, static_cast<std::size_t>(last - m));
                *m = 'e';
                ++last;
            }
        }
    }
    auto [ptr, ec] = std::from_chars(first, last, out);
    if (ec == std::errc::result_out_of_range && ptr == last) {
        if constexpr (std::is_floating_point_v<T>) return saturate(first, last, out);
        return token_problem::out_of_range;
    }
    if (ec != std::errc() || ptr != last || first == last) {
        if constexpr (std::is_unsigned_v<T>) {
            // "-1" for u8: a number, but not one that fits.
            std::int64_t wide;
            auto [p2, ec2] = std::from_chars(first, last, wide);
            if (p2 == last && (ec2 == std::errc() || ec2 == std::errc::result_out_of_range))
                return token_problem::out_of_range;
        }
        return token_problem::invalid;
    }
    return token_problem::none;
}

// The fast path for one value at p: the end of the number, or nullptr if
// the slow path has to look at the token.
template <class T>
inline const char* parse_fast(const char* p, const char* end, T& v) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
        auto [q, ec] = fast_float::from_chars(p, end, v);
        if (ec != std::errc()) [[unlikely]]
            return nullptr;
        // Out of range reads as infinity here, "inf" too: only the latter
        // is taken (its first character after a sign is a letter).
        if (std::isinf(v)) [[unlikely]] {
            const char* f = *p == '-' ? p + 1 : p;
            if (*f != 'i' && *f != 'I') return nullptr;
        }
        // Underflow reads as zero; it needs an exponent, so a zero written
        // with one ("0e0", "1e-99999") goes to the slow path, which tells
        // a zero from a number beyond even long double's range.
        if (v == 0) [[unlikely]] {
            for (const char* c = p; c != q; ++c)
                if (*c == 'e' || *c == 'E') return nullptr;
        }
        return q;
    } else {
        auto [q, ec] = std::from_chars(p, end, v);
        return ec == std::errc() ? q : nullptr;
    }
}

} // namespace parse_impl

// Parses at most max_count values from [p, end) into out. Requires that
// *end is readable and a separator (the reader ends ranges at a separator or
// puts one after the end of the file), so no token continues past end.
// Stops at max_count values, at end, or at the first bad token or null value
// (then result.problem is set and result.stop is where it starts). `comma`
// says whether a comma came since the last value before p (true at the
// start of the file: a comma first is a null value).
//
// The fast path does not look at commas: it takes the one separator after a
// token without a branch on its kind; a run of more separators asks the
// byte before it (that separator) whether it was a comma, and the state at
// the end comes from the separators before stop.
template <class T>
parse_result parse_values(const char* p, const char* end, T* out, std::size_t max_count,
                          bool comma) noexcept {
    using parse_impl::sep;
    parse_result r;
    const char* const begin = p;
    std::size_t n = 0;
    std::uint64_t newlines = 0;
    const char* last_newline = nullptr;
    // Separators before the first token: the caller says whether a comma
    // came before them.
    if (max_count > 0 && p != end && sep(*p) &&
        !parse_impl::take_run(p, end, comma, newlines, last_newline)) {
        r.problem = token_problem::null_value;
        max_count = 0;
    }
    while (n < max_count) {
        if (p == end) break;
        if (sep(*p)) {
            // More than one separator after a token: the one before p.
            bool c = p[-1] == ',';
            if (!parse_impl::take_run(p, end, c, newlines, last_newline)) {
                r.problem = token_problem::null_value;
                break;
            }
            if (p == end) break;
        }
        T v;
        const char* q = parse_impl::parse_fast(p, end, v);
        if (!q || !sep(*q) || static_cast<std::size_t>(q - p) > max_token) [[unlikely]] {
            const char* te = parse_impl::token_end(p, end);
            std::uint64_t repeat = 1;
            token_problem problem = parse_impl::parse_token_slow(p, te, v, repeat);
            if (problem != token_problem::none) {
                r.problem = problem;
                break;
            }
            q = te;
            if (repeat > 1) {
                // All copies but the last here, the last below; what does
                // not fit waits for the next call.
                std::uint64_t fit = std::min<std::uint64_t>(repeat, max_count - n);
                for (std::uint64_t k = 1; k < fit; ++k)
                    out[n++] = v;
                r.repeat_left = repeat - fit;
                if (r.repeat_left) std::memcpy(&r.repeat_bits, &v, sizeof v);
            }
        }
        out[n++] = v;
        // The usual case: one separator after the token, taken here without
        // a branch on its kind (the loop above takes any further ones).
        if (q == end) {
            p = q;
            break;
        }
        bool newline = *q == '\n';
        newlines += newline;
        last_newline = newline ? q : last_newline;
        p = q + 1;
    }
    // Whether a comma came since the last value: in the separators before
    // stop, back to a token (or to begin, then also before begin).
    const char* x = p;
    bool c = false;
    while (x != begin && sep(x[-1])) {
        c = c || x[-1] == ',';
        --x;
    }
    r.comma = c || (x == begin && comma);
    r.count = n;
    r.stop = p;
    r.newlines = newlines;
    r.last_newline = last_newline;
    return r;
}

} // namespace formatbench::detail

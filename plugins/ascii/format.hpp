// Formatting kernel of the ascii writer: turns a run of values into text
// with std::to_chars (no locale, no iostreams), laying out values_per_line
// values per line. Header-only because it is a template per dtype; the
// writer instantiates it.
#pragma once

#include "settings.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace formatbench::detail {

// Where a run of formatting stands: the next free byte and the index of the
// next value within its line (0 = first on a new line).
struct format_cursor {
    char* out;
    std::uint64_t column;
};

namespace format_impl {

// "0.25" -> ".25", "-0.25" -> "-.25": Fortran's F edit descriptor style.
// Returns the new end.
inline char* drop_leading_zero(char* begin, char* end) noexcept {
    char* digits = begin + (*begin == '-');
    if (end - digits >= 2 && digits[0] == '0' && digits[1] == '.') {
        std::memmove(digits, digits + 1, static_cast<std::size_t>(end - digits - 1));
        return end - 1;
    }
    return end;
}

// gfortran's spelling of a value that is not finite under F0.d and G0:
// "Inf", "-Inf", and "NaN" whatever its sign. Returns the new end.
template <class T>
char* fortran_nonfinite(char* p, T v) noexcept {
    const char* text = std::isnan(v) ? "NaN" : v < 0 ? "-Inf" : "Inf";
    std::size_t n = std::strlen(text);
    std::memcpy(p, text, n);
    return p + n;
}

template <class T>
char* format_one(char* p, char* limit, T v, const text_settings& s) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
        if (s.fortran_nonfinite && !std::isfinite(v)) [[unlikely]]
            return fortran_nonfinite(p, v);
        char* end;
        switch (s.note) {
        case notation::shortest: end = std::to_chars(p, limit, v).ptr; break;
        case notation::fixed:
            end = std::to_chars(p, limit, v, std::chars_format::fixed, s.precision).ptr;
            break;
        case notation::scientific:
            end = std::to_chars(p, limit, v, std::chars_format::scientific, s.precision).ptr;
            break;
        default: end = std::to_chars(p, limit, v, std::chars_format::general, s.precision).ptr; break;
        }
        return s.leading_zero ? end : drop_leading_zero(p, end);
    } else if constexpr (std::is_same_v<T, std::uint8_t>) {
        return std::to_chars(p, limit, static_cast<unsigned>(v)).ptr;
    } else {
        return std::to_chars(p, limit, v).ptr;
    }
}

// Right-aligns the text [begin, end) in `width` characters, spaces in
// front; the text is never longer (text_settings::check_width).
inline char* pad_to_width(char* begin, char* end, std::size_t width) noexcept {
    const auto n = static_cast<std::size_t>(end - begin);
    if (n >= width) return end;
    std::memmove(begin + (width - n), begin, n);
    std::memset(begin, ' ', width - n);
    return begin + width;
}

} // namespace format_impl

// Formats values v[0..n) at c.out, never past `limit`: stops early, before a
// value for which fewer than `bound` bytes (settings.value_bound) remain.
// Returns how many values were formatted and advances the cursor. After the
// last value of a line comes '\n'; values within a line are joined by the
// separator. The caller ends an unfinished last line with '\n'.
template <class T>
std::size_t format_values(const T* v, std::size_t n, format_cursor& c, char* limit, std::size_t bound,
                          const text_settings& s) noexcept {
    char* p = c.out;
    std::size_t i = 0;
    if (s.values_per_line == 1) {
        // The common case: one value per line, no column bookkeeping.
        for (; i < n && static_cast<std::size_t>(limit - p) >= bound; ++i) {
            char* start = p;
            p = format_impl::format_one(p, limit, v[i], s);
            if (s.width) p = format_impl::pad_to_width(start, p, s.width);
            *p++ = '\n';
        }
    } else {
        const char* sep = s.separator.data();
        const std::size_t sep_size = s.separator.size();
        std::uint64_t column = c.column;
        for (; i < n && static_cast<std::size_t>(limit - p) >= bound; ++i) {
            // The separator goes before a value that is not first on its
            // line, so that no line ends in a separator.
            if (column != 0) {
                if (sep_size == 1) {
                    *p++ = *sep;
                } else {
                    std::memcpy(p, sep, sep_size);
                    p += sep_size;
                }
            }
            char* start = p;
            p = format_impl::format_one(p, limit, v[i], s);
            if (s.width) p = format_impl::pad_to_width(start, p, s.width);
            if (++column == s.values_per_line) {
                *p++ = '\n';
                column = 0;
            }
        }
        c.column = column;
    }
    c.out = p;
    return i;
}

} // namespace formatbench::detail

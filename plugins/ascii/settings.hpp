// The ascii plugin's options as typed settings, their checks, and what
// follows from them (the largest text one value can take, losslessness).
#pragma once

#include <formatbench/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace formatbench::detail {

enum class notation { shortest, fixed, scientific, general };

// Characters the reader accepts between values. A separator the writer is
// asked to use must consist of these only, so that every file the plugin
// writes reads back.
inline constexpr bool is_separator(unsigned char c) noexcept {
    return c == ' ' || c == '\n' || c == '\t' || c == ',' || c == '\r';
}

// Longest token (one number) the reader accepts; bounds the bytes carried
// over between two buffers.
inline constexpr std::size_t max_token = 512;

struct text_settings {
    notation note = notation::shortest;
    int precision = 16;
    std::uint64_t values_per_line = 1;
    std::string separator = " ";
    // Writes "0.5" (true) or Fortran's ".5" (false) for |x| < 1.
    bool leading_zero = true;
    // Writes infinities and NaN as gfortran's F0.d and G0 do: "Inf", "-Inf",
    // "NaN" (true), or as std::to_chars does: "inf", "-inf", "nan", "-nan".
    bool fortran_nonfinite = false;
    // Each value right-aligned in this many characters, padded with spaces
    // in front (Fortran's w in ESw.d); 0: as many as the notation needs.
    std::size_t width = 0;

    // From validated options; throws sdk::error(FB_E_INVALID_OPTION) for a
    // separator that the reader would not accept.
    static text_settings from(const sdk::options& options);

    // An upper bound on the bytes one value of `dtype` takes, followed by its
    // separator or newline.
    std::size_t value_bound(fb_dtype dtype) const noexcept;
    // The longest text a value of `dtype` takes in this notation (exact for
    // the worst value, padding aside).
    std::size_t max_text(fb_dtype dtype) const noexcept;
    // With a width: throws FB_E_INVALID_OPTION when some value of `dtype`
    // would not fit it (so a fixed-width file never holds a cut value).
    void check_width(fb_dtype dtype) const;
    // Bytes from one value's start to the next one's in a fixed-width file
    // (the value and its separator or newline), or 0 when values are not
    // all the same length: no width, or a separator of several characters
    // on lines of several values.
    std::size_t stride() const noexcept;
};

// Whether these options read back bit-exact for `dtype` (NaN payloads
// aside), and for every dtype (the ABI 1.0 question).
bool is_lossless(const sdk::options& options, fb_dtype dtype);
bool is_lossless(const sdk::options& options);

} // namespace formatbench::detail

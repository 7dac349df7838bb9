// Typed settings of the ascii plugin (see settings.hpp).
#include "settings.hpp"

#include <algorithm>

namespace formatbench::detail {

text_settings text_settings::from(const sdk::options& options) {
    text_settings s;
    const std::string& n = options.get_string("notation");
    s.note = n == "fixed"        ? notation::fixed
             : n == "scientific" ? notation::scientific
             : n == "general"    ? notation::general
                                 : notation::shortest;
    s.precision = static_cast<int>(options.get_int("precision"));
    s.values_per_line = static_cast<std::uint64_t>(options.get_int("values_per_line"));
    s.separator = options.get_string("separator");
    s.leading_zero = options.get_bool("leading_zero");
    s.fortran_nonfinite = options.get_string("nonfinite") == "fortran";
    s.width = static_cast<std::size_t>(options.get_int("width"));
    if (s.separator.empty())
        throw sdk::error(
            FB_E_INVALID_OPTION,
            "option 'separator': must not be empty (values would run together and not read back)");
    for (char c : s.separator)
        if (!is_separator(static_cast<unsigned char>(c)))
            throw sdk::error(FB_E_INVALID_OPTION, "option 'separator': '" + s.separator +
                                                      "' may contain only spaces, tabs, commas and newlines, "
                                                      "so that the file reads back");
    return s;
}

std::size_t text_settings::value_bound(fb_dtype dtype) const noexcept {
    std::size_t text = 32; // integers (i64: 20) and shortest floats (f64: 24)
    if (dtype == FB_DTYPE_F64 || dtype == FB_DTYPE_F32) {
        std::size_t p = static_cast<std::size_t>(precision);
        switch (note) {
        case notation::shortest: break;
        // Fixed prints every integer digit: up to 309 for f64, 39 for f32.
        case notation::fixed: text = (dtype == FB_DTYPE_F64 ? 310 : 40) + p + 8; break;
        case notation::scientific:
        case notation::general: text = p + 32; break;
        }
    }
    return std::max(text, width) + separator.size() + 1;
}

std::size_t text_settings::max_text(fb_dtype dtype) const noexcept {
    const bool f64 = dtype == FB_DTYPE_F64;
    const auto p = static_cast<std::size_t>(precision);
    std::size_t n = 0;
    switch (dtype) {
    case FB_DTYPE_U8: return 3;   // 255
    case FB_DTYPE_I32: return 11; // -2147483648
    case FB_DTYPE_I64: return 20; // -9223372036854775808
    case FB_DTYPE_F64:
    case FB_DTYPE_F32: break;
    }
    // Exponents of up to 3 digits for f64 (e-308), 2 for f32 (e-45).
    const std::size_t exponent = f64 ? 3 : 2;
    switch (note) {
    // -2.2250738585072014e-308 (24), -1.17549435e-38 (15)
    case notation::shortest: n = f64 ? 24 : 15; break;
    // A sign, every integer digit (309 for f64, 39 for f32), the point and p digits.
    case notation::fixed: n = 1 + (f64 ? 309 : 39) + (p > 0 ? 1 + p : 0); break;
    // -d.<p digits>e-xxx
    case notation::scientific: n = 1 + 1 + (p > 0 ? 1 + p : 0) + 2 + exponent; break;
    case notation::general: {
        // %g with P significant digits: scientific with P - 1 after the
        // point, or fixed down to 1e-4 ("-0.0001" and P digits).
        const std::size_t sig = std::max<std::size_t>(p, 1);
        n = std::max(1 + 1 + 1 + (sig - 1) + 2 + exponent, 1 + 6 + sig);
        break;
    }
    }
    return std::max<std::size_t>(n, 4); // "-inf", "-Inf"
}

void text_settings::check_width(fb_dtype dtype) const {
    if (width == 0) return;
    const std::size_t need = max_text(dtype);
    if (width < need)
        throw sdk::error(FB_E_INVALID_OPTION,
                         "option 'width': " + std::to_string(width) + " characters are too few for " +
                             sdk::dtype_name(dtype) + " values in this notation, which take up to " +
                             std::to_string(need) + "; set width to " + std::to_string(need) + " or more");
}

std::size_t text_settings::stride() const noexcept {
    if (width == 0 || (values_per_line > 1 && separator.size() != 1)) return 0;
    return width + 1;
}

bool is_lossless(const sdk::options& options, fb_dtype dtype) {
    // Integers are written in full whatever the notation: it applies to
    // floats only. shortest: std::to_chars guarantees that from_chars reads
    // it back bit-exact. Otherwise the text must carry enough significant
    // digits to single out every value of the type: 17 for binary64, 9 for
    // binary32 (scientific with precision p carries p + 1, general p).
    // fixed loses small values whatever the precision. NaN payloads are not
    // kept by any notation (all NaNs are written "nan" or "-nan").
    if (dtype != FB_DTYPE_F64 && dtype != FB_DTYPE_F32) return true;
    const std::string& n = options.get_string("notation");
    const std::int64_t p = options.get_int("precision");
    const std::int64_t needed = dtype == FB_DTYPE_F64 ? 17 : 9;
    return n == "shortest" || (n == "scientific" && p + 1 >= needed) || (n == "general" && p >= needed);
}

bool is_lossless(const sdk::options& options) {
    // The ABI 1.0 question has no dtype: the answer must hold for all of them.
    return is_lossless(options, FB_DTYPE_F64) && is_lossless(options, FB_DTYPE_F32);
}

} // namespace formatbench::detail

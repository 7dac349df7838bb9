// Option strings to a zfp compression mode; see settings.hpp.
#include "settings.hpp"

#include <cmath>
#include <string>

namespace formatbench::detail {

namespace {

std::string number(double x) {
    std::string s = std::to_string(x);
    // "8.000000" -> "8", "0.001000" -> "0.001"
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

[[noreturn]] void invalid(const std::string& path, const std::string& what) {
    throw sdk::error(FB_E_INVALID_OPTION, "zfp: " + what + " ('" + path + "')");
}

zfp_mode_choice mode_of(const std::string& m) {
    return m == "rate"        ? zfp_mode_choice::rate
           : m == "precision" ? zfp_mode_choice::precision
           : m == "accuracy"  ? zfp_mode_choice::accuracy
                              : zfp_mode_choice::reversible;
}

} // namespace

zfp_settings parse_settings(const sdk::options& o, fb_dtype dtype, const std::string& path) {
    zfp_settings s;
    const std::string& mode = o.get_string("mode");
    s.mode = mode_of(mode);
    s.rate = o.get_float("rate");
    s.precision = static_cast<unsigned>(o.get_int("precision"));
    s.accuracy = o.get_float("accuracy");
    const unsigned bits = static_cast<unsigned>(sdk::dtype_size(dtype) * 8);
    const char* dt = sdk::dtype_name(dtype);

    // Each parameter is read by its own mode only; the others are ignored
    // (a study may sweep mode with every parameter set).
    if (s.mode == zfp_mode_choice::rate && s.rate > bits)
        invalid(path, "option 'rate': '" + number(s.rate) + "' is not in [1, " + std::to_string(bits) +
                          "] bits per value for " + dt + " (mode=rate)");
    if (s.mode == zfp_mode_choice::precision && s.precision > bits)
        invalid(path, "option 'precision': '" + std::to_string(s.precision) + "' is not in [1, " +
                          std::to_string(bits) + "] bit planes for " + dt + " (mode=precision)");
    // zfp's accuracy mode bounds the error through floating-point exponents;
    // it bounds none for integers (zfp ignores the tolerance there). Integers
    // are written reversibly instead: exact, so within any tolerance.
    if (s.mode == zfp_mode_choice::accuracy && (dtype == FB_DTYPE_I32 || dtype == FB_DTYPE_I64))
        s.mode = zfp_mode_choice::reversible;
    return s;
}

bool is_lossless(const sdk::options& o) {
    return mode_of(o.get_string("mode")) == zfp_mode_choice::reversible;
}

zfp_type zfp_type_of(fb_dtype dtype) noexcept {
    switch (dtype) {
    case FB_DTYPE_F64: return zfp_type_double;
    case FB_DTYPE_F32: return zfp_type_float;
    case FB_DTYPE_I64: return zfp_type_int64;
    case FB_DTYPE_I32: return zfp_type_int32;
    default: return zfp_type_none;
    }
}

void apply_mode(zfp_stream* s, const zfp_settings& settings, zfp_type type, unsigned dims) {
    switch (settings.mode) {
    case zfp_mode_choice::reversible: zfp_stream_set_reversible(s); break;
    case zfp_mode_choice::rate: zfp_stream_set_rate(s, settings.rate, type, dims, zfp_false); break;
    case zfp_mode_choice::precision: zfp_stream_set_precision(s, settings.precision); break;
    case zfp_mode_choice::accuracy: zfp_stream_set_accuracy(s, settings.accuracy); break;
    }
}

} // namespace formatbench::detail

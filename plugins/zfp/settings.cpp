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

    // Each parameter belongs to one mode; 0 (its default) means "not set".
    struct parameter {
        const char* name;
        zfp_mode_choice owner;
        bool set;
        std::string value;
    };
    const parameter params[] = {
        {"rate", zfp_mode_choice::rate, s.rate != 0, number(s.rate)},
        {"precision", zfp_mode_choice::precision, s.precision != 0, std::to_string(s.precision)},
        {"accuracy", zfp_mode_choice::accuracy, s.accuracy != 0, number(s.accuracy)},
    };
    for (const parameter& p : params) {
        if (p.owner == s.mode && !p.set)
            invalid(path, std::string("option 'mode': '") + mode + "' needs option '" + p.name + "' (" +
                              (p.owner == zfp_mode_choice::rate        ? "bits per value, 0 < rate <= "
                               : p.owner == zfp_mode_choice::precision ? "bit planes, 1 <= precision <= "
                                                                       : "absolute error tolerance > 0") +
                              (p.owner == zfp_mode_choice::accuracy ? std::string() : std::to_string(bits)) +
                              (p.owner == zfp_mode_choice::accuracy ? "" : std::string(" for ") + dt) + ")");
        if (p.owner != s.mode && p.set)
            invalid(path, std::string("option '") + p.name + "': '" + p.value + "' is used by mode=" +
                              p.name + " only, and mode is '" + mode + "'; leave it out (0)");
    }
    if (s.mode == zfp_mode_choice::rate && s.rate > bits)
        invalid(path, "option 'rate': '" + number(s.rate) + "' is not in (0, " + std::to_string(bits) +
                          "] bits per value for " + dt);
    if (s.mode == zfp_mode_choice::precision && s.precision > bits)
        invalid(path, "option 'precision': '" + std::to_string(s.precision) + "' is not in [1, " +
                          std::to_string(bits) + "] bit planes for " + dt);
    if (s.mode == zfp_mode_choice::accuracy && (dtype == FB_DTYPE_I32 || dtype == FB_DTYPE_I64))
        invalid(path, std::string("option 'mode': 'accuracy' is for f32 and f64 only (zfp bounds no error "
                                  "for integers); use mode=precision or reversible for ") +
                          dt);
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

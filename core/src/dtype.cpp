// Element type names and sizes.
#include "dtype.hpp"

namespace formatbench {

std::size_t dtype_size(dtype d) noexcept {
    switch (d) {
    case FB_DTYPE_F64:
    case FB_DTYPE_I64: return 8;
    case FB_DTYPE_F32:
    case FB_DTYPE_I32: return 4;
    case FB_DTYPE_U8: return 1;
    }
    return 0;
}

const char* dtype_name(dtype d) noexcept {
    switch (d) {
    case FB_DTYPE_F64: return "f64";
    case FB_DTYPE_F32: return "f32";
    case FB_DTYPE_I64: return "i64";
    case FB_DTYPE_I32: return "i32";
    case FB_DTYPE_U8: return "u8";
    }
    return "?";
}

std::optional<dtype> parse_dtype(std::string_view name) noexcept {
    for (dtype d : all_dtypes)
        if (name == dtype_name(d)) return d;
    if (name == "float64" || name == "double") return FB_DTYPE_F64;
    if (name == "float32" || name == "float") return FB_DTYPE_F32;
    if (name == "int64") return FB_DTYPE_I64;
    if (name == "int32") return FB_DTYPE_I32;
    if (name == "uint8") return FB_DTYPE_U8;
    return std::nullopt;
}

std::vector<std::string> dtype_names(unsigned bits) {
    std::vector<std::string> out;
    for (dtype d : all_dtypes)
        if (bits & FB_DTYPE_BIT(d)) out.emplace_back(dtype_name(d));
    return out;
}

} // namespace formatbench

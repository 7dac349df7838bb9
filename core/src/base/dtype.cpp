// Element type names and sizes.
#include "base/dtype.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench {

// The SDK's definitions, so host and plugins can never disagree.
std::size_t dtype_size(dtype d) noexcept {
    return sdk::dtype_size(d);
}

const char* dtype_name(dtype d) noexcept {
    return sdk::dtype_name(d);
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

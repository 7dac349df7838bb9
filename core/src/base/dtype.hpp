// Element types as the core sees them: names, sizes, parsing.
#pragma once

#include <formatbench/plugin.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench {

using dtype = fb_dtype;

inline constexpr dtype all_dtypes[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8};

std::size_t dtype_size(dtype d) noexcept;
const char* dtype_name(dtype d) noexcept;
std::optional<dtype> parse_dtype(std::string_view name) noexcept;
// The names of the dtypes in a FB_DTYPE_BIT set, in canonical order.
std::vector<std::string> dtype_names(unsigned bits);

} // namespace formatbench

// The zfp plugin's options, parsed once per stream into plain values: the
// compression mode and its one parameter. The declarations (names,
// defaults, ranges, help) live in zfp.cpp; this file checks what the
// declarations cannot (a range that depends on the dtype) and sets the mode on a zfp_stream.
#pragma once

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <zfp.h>

#include <string>

namespace formatbench::detail {

// "zfp: cannot write '/tmp/a.zfp': No space left on device".
inline constexpr sdk::file_wording zfp_wording{.prefix = "zfp: "};

enum class zfp_mode_choice { reversible, rate, precision, accuracy };

struct zfp_settings {
    zfp_mode_choice mode = zfp_mode_choice::reversible;
    double rate = 16;        // bits per value (mode rate)
    unsigned precision = 32; // bit planes kept (mode precision)
    double accuracy = 1e-3;  // absolute error tolerance (mode accuracy)
};

// The options of a write (the reader uses none of them: the stream's header
// holds the mode). Only the chosen mode's parameter is read. Throws
// sdk::error(FB_E_INVALID_OPTION) naming the option, its value and the
// range for a rate or precision above the dtype's bits (32 for f32 and
// i32). mode=accuracy with i32 or i64 becomes reversible: zfp bounds no
// error for integers, and exact values are within any tolerance.
zfp_settings parse_settings(const sdk::options& o, fb_dtype dtype, const std::string& path);

// Whether an option set reads back bit-exact: mode=reversible only.
bool is_lossless(const sdk::options& o);

// zfp's scalar type of a declared dtype (f32, f64, i32, i64).
zfp_type zfp_type_of(fb_dtype dtype) noexcept;

// Sets the mode of `s` for arrays of `type` in `dims` dimensions.
void apply_mode(zfp_stream* s, const zfp_settings& settings, zfp_type type, unsigned dims);

} // namespace formatbench::detail

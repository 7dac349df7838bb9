// Scalar syntaxes of study files: counts, byte sizes, durations, booleans and
// whole numbers. Each parser takes the text as written and returns nullopt
// when it does not fit, so the caller can name the key and the position.
// parse_count and parse_bytes are declared in config.hpp (public API).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace formatbench::detail {

// "500ms", "2s", "1.5", "1min" -> seconds in [0, 10^7]; a bare number is seconds.
std::optional<double> parse_duration(std::string_view text);
// true/false, yes/no, on/off (any case).
std::optional<bool> parse_bool(std::string_view text);
// A plain signed integer ("-3", "42", "1_000"); no exponent forms.
std::optional<std::int64_t> parse_int(std::string_view text);
// A finite floating-point number ("0.5", "-1e3", ".5").
std::optional<double> parse_real(std::string_view text);
// How a count is written in generated names: 1000000 -> "1e6", 2500 -> "2500".
std::string short_count(std::uint64_t count);

} // namespace formatbench::detail

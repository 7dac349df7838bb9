// How the human-readable reporters (console, markdown) print quantities:
// durations with a unit chosen by magnitude, decimal byte sizes, factors,
// throughputs (MB/s, or MiB/s with --units iec). Machine-readable outputs
// (JSON, CSV) print raw numbers instead. NaN (no samples) always prints as "-".
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace formatbench {

// The throughput unit of the console, Markdown, CSV and HTML outputs
// (--units): si = MB/s (10^6 bytes per second, the default), iec = MiB/s
// (2^20). The JSON record always holds MB/s and bytes.
enum class rate_unit { si, iec };

} // namespace formatbench

namespace formatbench::detail {

// "MB/s" or "MiB/s".
inline const char* rate_unit_name(rate_unit u) {
    return u == rate_unit::iec ? "MiB/s" : "MB/s";
}

// Payload bytes per second at `seconds`, in `u`; NaN when there is no time.
inline double throughput_in(rate_unit u, std::uint64_t payload_bytes, double seconds) {
    if (!(seconds > 0) || !std::isfinite(seconds)) return std::nan("");
    return static_cast<double>(payload_bytes) / (u == rate_unit::iec ? 1048576.0 : 1e6) / seconds;
}

// Three significant digits without an exponent for values in [1, 1000).
inline std::string three_digits(double v) {
    if (v >= 100) return fmt::format("{:.0f}", v);
    if (v >= 10) return fmt::format("{:.1f}", v);
    return fmt::format("{:.2f}", v);
}

// 0.312 -> "312 ms", 0.0014 -> "1.40 ms", 4.6e-7 -> "460 ns".
inline std::string format_duration(double seconds) {
    if (!std::isfinite(seconds)) return "-";
    if (seconds == 0) return "0 s";
    const double a = std::abs(seconds);
    // Switch unit where three_digits would print "1000".
    if (a >= 0.9995) return three_digits(seconds) + " s";
    if (a >= 0.9995e-3) return three_digits(seconds * 1e3) + " ms";
    if (a >= 0.9995e-6) return three_digits(seconds * 1e6) + " \u00b5s";
    return three_digits(seconds * 1e9) + " ns";
}

// The relative spread of a phase: "±1.2%" (coefficient of variation); empty
// for fewer than two samples, where there is no spread to show.
inline std::string format_spread(std::size_t n, double cv) {
    if (n < 2 || !std::isfinite(cv)) return "";
    const double pct = cv * 100;
    return fmt::format("\u00b1{}%", pct >= 10 ? fmt::format("{:.0f}", pct) : fmt::format("{:.1f}", pct));
}

// Decimal units, like MB/s: 8000000 -> "8.00 MB".
inline std::string format_bytes(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes < 1000) return fmt::format("{} B", bytes);
    if (b < 0.9995e6) return three_digits(b / 1e3) + " kB";
    if (b < 0.9995e9) return three_digits(b / 1e6) + " MB";
    if (b < 0.9995e12) return three_digits(b / 1e9) + " GB";
    return three_digits(b / 1e12) + " TB";
}

// Chunk sizes are usually powers of two: 65536 -> "64 KiB"; 0 -> "whole".
inline std::string format_chunk(std::uint64_t bytes) {
    if (bytes == 0) return "whole";
    if (bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
    if (bytes % (1u << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
    return fmt::format("{} B", bytes);
}

// MB/s figure: "25.6", "5714".
inline std::string format_rate(double mb_s) {
    if (!std::isfinite(mb_s)) return "-";
    return mb_s >= 1000 ? fmt::format("{:.0f}", mb_s) : three_digits(mb_s);
}

// Speed-up factor: "1.00x", "62.5x", "325x", "0.0032x".
inline std::string format_factor(double f) {
    if (!std::isfinite(f) || f <= 0) return "-";
    if (f < 0.1) return fmt::format("{:.2g}x", f);
    return (f >= 1000 ? fmt::format("{:.0f}", f) : three_digits(f)) + "x";
}

// payload / file: "0.32".
inline std::string format_ratio(double r) {
    if (!std::isfinite(r)) return "-";
    return fmt::format("{:.2f}", r);
}

// 0.123 -> "12%".
inline std::string format_percent(double fraction) {
    if (!std::isfinite(fraction) || fraction < 0) return "-";
    return fmt::format("{:.0f}%", fraction * 100);
}

// A plugin metric, by its name's unit suffix (the ABI asks for one):
// "codec_s" 0.194 -> "194 ms", "compressed_bytes" 7403189 -> "7.40 MB",
// anything else with six significant digits.
inline std::string format_metric(std::string_view name, double value) {
    if (!std::isfinite(value)) return "-";
    if (name.ends_with("_s")) return format_duration(value);
    if (name.ends_with("_bytes") && value >= 0 && value < 1.8e19)
        return format_bytes(static_cast<std::uint64_t>(std::llround(value)));
    return fmt::format("{:.6g}", value);
}

} // namespace formatbench::detail

// Axes, ticks and tick labels (axis.hpp).
#include "report/axis.hpp"

#include "report/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace formatbench::svg {
namespace {

// "1.00 ms" -> "1 ms", "2.50x" -> "2.5x", "0.20" -> "0.2": the console's
// figures keep three significant digits; a tick is a round number.
std::string drop_trailing_zeros(std::string s) {
    const std::size_t dot = s.find('.');
    if (dot == std::string::npos) return s;
    std::size_t end = dot + 1;
    while (end < s.size() && s[end] >= '0' && s[end] <= '9')
        ++end;
    std::size_t keep = end;
    while (keep > dot + 1 && s[keep - 1] == '0')
        --keep;
    if (keep == dot + 1) keep = dot;
    return s.erase(keep, end - keep);
}

// m×10^e with m of at most three significant digits: "10^5", "2×10^5".
rich_text power_of_ten(double v) {
    const double a = std::abs(v);
    int e = static_cast<int>(std::floor(std::log10(a)));
    double m = v / std::pow(10, e);
    if (std::abs(std::round(std::abs(m) * 100) / 100) >= 10) m /= 10, ++e; // 9.999 rounds to 10
    const std::string mantissa = fmt::format("{:.3g}", m);
    rich_text out(mantissa == "1" ? "10" : mantissa == "-1" ? "-10" : mantissa + "\u00d710");
    return out + superscript(std::to_string(e));
}

std::string bytes_text(double v) {
    if (v == 0) return "0 B";
    if (v < 0 || v != std::floor(v) || v >= 1.8e19) return fmt::format("{:g} B", v);
    const auto b = static_cast<std::uint64_t>(v);
    if (b % (std::uint64_t(1) << 30) == 0) return fmt::format("{} GiB", b >> 30);
    return detail::format_chunk(b); // MiB, KiB or B
}

struct candidate {
    double lo, hi; // domain (transformed)
    std::vector<double> ticks;
};

std::vector<candidate> linear_candidates(double lo, double hi) {
    std::vector<candidate> out;
    const int k0 = static_cast<int>(std::floor(std::log10(hi - lo))) - 2;
    for (int k = k0; k <= k0 + 4; ++k)
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * std::pow(10, k);
            const double a = std::floor(lo / step + 1e-9) * step, b = std::ceil(hi / step - 1e-9) * step;
            const auto n = static_cast<long>(std::llround((b - a) / step));
            if (n < 1 || n > 8) continue; // at most nine ticks
            candidate c{a, b, {}};
            for (long i = 0; i <= n; ++i) {
                const double t = a + static_cast<double>(i) * step;
                c.ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
            }
            out.push_back(std::move(c));
        }
    return out;
}

// Ticks at base^e for e a multiple of `step` (and 2, 5 times powers of ten
// when `with_2_5`), the domain widened to multiples of `step`.
candidate log_candidate(double base, double a, double b, int step, bool with_2_5) {
    const double lo = std::floor(a / step) * step, hi = std::ceil(b / step) * step;
    candidate c{lo, hi, {}};
    for (double e = lo; e <= hi + 1e-9; e += step) {
        c.ticks.push_back(std::pow(base, e));
        if (with_2_5 && e < hi) {
            c.ticks.push_back(2 * std::pow(base, e));
            c.ticks.push_back(5 * std::pow(base, e));
        }
    }
    return c;
}

std::vector<candidate> log_candidates(scale_kind kind, double min_v, double max_v) {
    const double base = kind == scale_kind::log10 ? 10 : 2;
    const auto lg = [&](double v) { return std::log(v) / std::log(base); };
    double a = std::floor(lg(min_v) + 1e-9), b = std::ceil(lg(max_v) - 1e-9);
    if (b <= a) b = a + 1;
    std::vector<candidate> out;
    if (kind == scale_kind::log10) {
        if (b - a <= 1) out.push_back(log_candidate(base, a, b, 1, true)); // 1, 2, 5, 10
        for (int s = 1; s <= std::max(1, static_cast<int>(b - a)); ++s)
            out.push_back(log_candidate(base, a, b, s, false));
    } else {
        for (int s : {1, 2, 3, 4, 5, 10, 20})
            out.push_back(log_candidate(base, a, b, s, false));
    }
    return out;
}

bool has_repeats(const std::vector<rich_text>& labels) {
    for (std::size_t k = 1; k < labels.size(); ++k)
        if (labels[k].plain() == labels[k - 1].plain()) return true;
    return false;
}

std::vector<rich_text> labels_of(const std::vector<double>& ticks, quantity q, scale_kind kind) {
    std::vector<rich_text> out;
    for (double t : ticks)
        out.push_back(format_value(t, q, kind == scale_kind::log10));
    // Ticks closer together than the quantity's usual precision (sizes
    // ratios of 0.99998 and 1.0 on one axis) would all read "1": then
    // plain numbers with the fewest significant digits that tell them apart.
    const bool numeric = q == quantity::plain || q == quantity::ratio || q == quantity::mb_s ||
                         q == quantity::factor || q == quantity::count;
    if (!numeric || !has_repeats(out)) return out;
    for (int digits = 2; digits <= 15; ++digits) {
        out.clear();
        for (double t : ticks)
            out.push_back(fmt::format("{:.{}g}{}", t, digits, q == quantity::factor ? "x" : ""));
        if (!has_repeats(out)) break;
    }
    return out;
}

} // namespace

rich_text format_value(double v, quantity q, bool exponent) {
    if (!std::isfinite(v)) return "-";
    switch (q) {
    case quantity::seconds: return drop_trailing_zeros(detail::format_duration(v));
    case quantity::bytes: return bytes_text(v);
    case quantity::count:
        if (v == 0) return "0";
        if (exponent || std::abs(v) >= 1000) return power_of_ten(v);
        return fmt::format("{:g}", v);
    case quantity::mb_s:
        if (v != 0 && std::abs(v) < 0.01) return fmt::format("{:.2g}", v);
        return drop_trailing_zeros(detail::format_rate(v));
    case quantity::factor:
        if (v == 0) return "0x";
        return drop_trailing_zeros(detail::format_factor(v));
    case quantity::ratio:
        if (v != 0 && std::abs(v) < 0.01) return fmt::format("{:.2g}", v);
        return drop_trailing_zeros(detail::format_ratio(v));
    case quantity::plain: break;
    }
    return fmt::format("{:.6g}", v);
}

bool scale::valid(double v) const {
    return std::isfinite(v) && (kind == scale_kind::linear || v > 0);
}

double scale::transform(double v) const {
    switch (kind) {
    case scale_kind::log10: return std::log10(v);
    case scale_kind::log2: return std::log2(v);
    case scale_kind::linear: break;
    }
    return v;
}

double scale::operator()(double v) const {
    return p0 + (transform(v) - lo) / (hi - lo) * (p1 - p0);
}

scale make_scale(const std::vector<double>& values, scale_kind kind, quantity q, bool include_zero, double p0,
                 double p1, bool horizontal, double font_size) {
    scale s;
    s.kind = kind;
    s.p0 = p0;
    s.p1 = p1;
    std::vector<double> v;
    for (double x : values)
        if (s.valid(x)) v.push_back(x);
    std::vector<candidate> cands;
    if (kind == scale_kind::linear) {
        double lo = v.empty() ? 0 : *std::min_element(v.begin(), v.end());
        double hi = v.empty() ? 1 : *std::max_element(v.begin(), v.end());
        if (include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
        if (hi == lo) {
            const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
            hi += pad;
            if (!include_zero || lo != 0) lo -= pad;
        }
        cands = linear_candidates(lo, hi);
    } else {
        const double lo = v.empty() ? 1 : *std::min_element(v.begin(), v.end());
        const double hi = v.empty() ? 10 : *std::max_element(v.begin(), v.end());
        cands = log_candidates(kind, lo, hi);
    }
    // The densest candidate whose labels keep apart (else the sparsest).
    const double gap = font_size * 0.8;
    for (std::size_t i = 0; i < cands.size(); ++i) {
        const candidate& c = cands[i];
        s.lo = c.lo;
        s.hi = c.hi;
        const std::vector<rich_text> labels = labels_of(c.ticks, q, kind);
        std::vector<std::pair<double, double>> at; // (pixel, room the label needs)
        for (std::size_t k = 0; k < c.ticks.size(); ++k)
            at.emplace_back(s(c.ticks[k]), horizontal ? text_width(labels[k], font_size) : font_size * 1.6);
        std::sort(at.begin(), at.end());
        bool fits = true;
        for (std::size_t k = 1; k < at.size() && fits; ++k)
            fits = at[k].first - at[k - 1].first >=
                   (horizontal ? (at[k].second + at[k - 1].second) / 2 + gap : at[k].second);
        if (fits || i + 1 == cands.size()) {
            s.ticks.clear();
            for (std::size_t k = 0; k < c.ticks.size(); ++k)
                s.ticks.push_back({c.ticks[k], labels[k]});
            break;
        }
    }
    return s;
}

} // namespace formatbench::svg

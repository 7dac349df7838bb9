// SVG chart writer (see svg.hpp). Layout: title and subtitle on top, the plot
// area with axes, ticks and axis titles, the legend on the right. Coordinates
// are computed here; the SVG uses presentation attributes only (no CSS), so a
// standalone file looks the same as the chart inlined in the report.
#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench::svg {
namespace {

constexpr double plot_height = 300;
constexpr double margin_left = 80, margin_top = 56, legend_width = 230, margin_right = 16;
constexpr const char* font = "font-family=\"sans-serif\"";

// Maps data values to pixels along one axis.
struct scale {
    double lo = 0, hi = 1; // domain (log10 of it when log)
    bool log = false;
    double p0 = 0, p1 = 1; // pixel range (p0 at lo)
    std::vector<double> ticks;

    bool valid(double v) const { return std::isfinite(v) && (!log || v > 0); }
    double operator()(double v) const {
        const double t = log ? std::log10(v) : v;
        return p0 + (t - lo) / (hi - lo) * (p1 - p0);
    }
};

// 1, 2 or 5 times a power of ten, near range / 5.
double nice_step(double range) {
    const double raw = range / 5;
    const double mag = std::pow(10, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

// A scale over the finite values (positive ones for log); include_zero for
// bars on a linear axis.
scale make_scale(std::vector<double> values, bool log, bool include_zero) {
    scale s;
    s.log = log;
    std::erase_if(values, [&](double v) { return !std::isfinite(v) || (log && v <= 0); });
    if (values.empty()) values = {log ? 1.0 : 0.0, log ? 10.0 : 1.0};
    double lo = *std::min_element(values.begin(), values.end());
    double hi = *std::max_element(values.begin(), values.end());
    if (log) {
        double a = std::floor(std::log10(lo)), b = std::ceil(std::log10(hi));
        if (b <= a) b = a + 1;
        s.lo = a;
        s.hi = b;
        const bool few = b - a <= 2;
        for (double e = a; e <= b + 1e-9; ++e) {
            s.ticks.push_back(std::pow(10, e));
            if (few && e < b) {
                s.ticks.push_back(2 * std::pow(10, e));
                s.ticks.push_back(5 * std::pow(10, e));
            }
        }
        return s;
    }
    if (include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
    if (hi == lo) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1), lo = include_zero ? lo : lo - (hi - lo);
    const double step = nice_step(hi - lo);
    s.lo = std::floor(lo / step) * step;
    s.hi = std::ceil(hi / step) * step;
    for (double t = s.lo; t <= s.hi + step * 1e-6; t += step)
        s.ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return s;
}

std::string tick_text(double v) {
    if (v == 0) return "0";
    const double a = std::abs(v);
    if (a >= 1e5 || a < 1e-3) {
        const int e = static_cast<int>(std::floor(std::log10(a) + 1e-9));
        const double m = v / std::pow(10, e);
        if (std::abs(m - std::round(m)) < 1e-6) return fmt::format("{}e{}", std::lround(m), e);
        return fmt::format("{:.2g}e{}", m, e);
    }
    return fmt::format("{:g}", v);
}

std::string axis_title(const axis& a) {
    return (a.unit.empty() ? a.title : a.title + " (" + a.unit + ")") + (a.log ? ", log scale" : "");
}

// "<svg ...>" with the title block; width and height in pixels.
std::string open_svg(const std::string& id, const std::string& title, const std::string& subtitle,
                     double width, double height) {
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "viewBox=\"0 0 {0:.0f} {1:.0f}\" class=\"chart\" data-chart=\"{2}\" role=\"img\" "
        "aria-label=\"{3}\">\n",
        width, height, escape(id), escape(title));
    out += fmt::format("<title>{}</title>\n", escape(title));
    out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width,
                       height);
    out += fmt::format(
        "<text x=\"{}\" y=\"22\" {} font-size=\"15\" font-weight=\"bold\" fill=\"#222\">{}</text>\n",
        margin_left, font, escape(title));
    if (!subtitle.empty())
        out += fmt::format("<text x=\"{}\" y=\"40\" {} font-size=\"11\" fill=\"#555\">{}</text>\n",
                           margin_left, font, escape(subtitle));
    return out;
}

// Horizontal grid lines, y ticks and labels, the y-axis title.
std::string y_axis(const scale& y, const axis& a, double x0, double x1) {
    std::string out;
    for (double t : y.ticks) {
        const double py = y(t);
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e4e4e4\"/>\n", x0, py,
            x1, py);
        out +=
            fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>\n",
                        x0 - 5, py, x0, py);
        out += fmt::format(
            "<text x=\"{:.1f}\" y=\"{:.1f}\" {} font-size=\"11\" text-anchor=\"end\" class=\"tick\" "
            "fill=\"#333\">{}</text>\n",
            x0 - 8, py + 4, font, escape(tick_text(t)));
    }
    const double mid = (y.p0 + y.p1) / 2;
    out +=
        fmt::format("<text x=\"16\" y=\"{0:.1f}\" {1} font-size=\"12\" text-anchor=\"middle\" fill=\"#222\" "
                    "transform=\"rotate(-90 16 {0:.1f})\" class=\"axis-title\">{2}</text>\n",
                    mid, font, escape(axis_title(a)));
    out +=
        fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n",
                    x0, y.p0, y.p1);
    return out;
}

std::string legend(const std::vector<std::string>& names, double x, double y0,
                   const std::string& extra_name) {
    std::string out = "<g class=\"legend\">\n";
    double y = y0;
    for (std::size_t i = 0; i < names.size(); ++i, y += 18) {
        out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", x,
                           y - 10, colour(i));
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" {} font-size=\"11\" fill=\"#222\" "
                           "class=\"legend-entry\">{}</text>\n",
                           x + 17, y, font, escape(names[i]));
    }
    if (!extra_name.empty()) {
        out +=
            fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#000\" "
                        "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n",
                        x, y - 4, x + 12);
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" {} font-size=\"11\" fill=\"#222\" "
                           "class=\"legend-entry\">{}</text>\n",
                           x + 17, y, font, escape(extra_name));
    }
    return out + "</g>\n";
}

} // namespace

std::string_view colour(std::size_t i) {
    static constexpr std::string_view palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    return palette[i % std::size(palette)];
}

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        const auto u = static_cast<unsigned char>(ch);
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            if (u < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
                out += "\xEF\xBF\xBD";
            else
                out += ch;
        }
    }
    return out;
}

std::string number(double v) {
    return std::isfinite(v) ? fmt::format("{:.9g}", v) : "";
}

std::string render(const bar_chart& c) {
    const std::size_t ns = std::max<std::size_t>(1, c.series.size());
    const std::size_t nc = c.categories.size();
    const double group = std::max(28.0, 14.0 * static_cast<double>(ns) + 12);
    const double plot_width = std::max(240.0, group * static_cast<double>(nc));
    // Category labels are rotated; leave room for the longest.
    std::size_t longest = 0;
    for (const auto& cat : c.categories)
        longest = std::max(longest, cat.size());
    const double label_room = std::min(180.0, 12 + 5.2 * static_cast<double>(longest) * 0.72);
    const double width = margin_left + plot_width + margin_right + legend_width;
    const double height = margin_top + plot_height + label_room + 30;

    std::vector<double> all;
    for (const auto& s : c.series) {
        all.insert(all.end(), s.values.begin(), s.values.end());
        all.insert(all.end(), s.hi.begin(), s.hi.end());
        if (c.y.log) all.insert(all.end(), s.lo.begin(), s.lo.end());
    }
    if (std::isfinite(c.reference)) all.push_back(c.reference);
    scale y = make_scale(all, c.y.log, !c.y.log);
    y.p0 = margin_top + plot_height;
    y.p1 = margin_top;
    const double x0 = margin_left, x1 = margin_left + plot_width;

    std::string out = open_svg(c.id, c.title, c.subtitle, width, height);
    out += y_axis(y, c.y, x0, x1);
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>\n",
                       x0, y.p0, x1, y.p0);
    const double base = c.y.log ? y.p0 : y(0.0);
    const double bar_w = (group - 10) / static_cast<double>(ns);
    for (std::size_t k = 0; k < nc; ++k) {
        const double gx = x0 + group * static_cast<double>(k);
        const double cx = gx + group / 2;
        out += fmt::format(
            "<text x=\"{0:.1f}\" y=\"{1:.1f}\" {2} font-size=\"11\" text-anchor=\"end\" "
            "transform=\"rotate(-35 {0:.1f} {1:.1f})\" class=\"category\" fill=\"#222\">{3}</text>\n",
            cx, y.p0 + 14, font, escape(c.categories[k]));
        for (std::size_t i = 0; i < c.series.size(); ++i) {
            const bar_series& s = c.series[i];
            const double v = k < s.values.size() ? s.values[k] : nan;
            if (!y.valid(v)) continue;
            const double lo = k < s.lo.size() ? s.lo[k] : nan, hi = k < s.hi.size() ? s.hi[k] : nan;
            const double bx = gx + 5 + bar_w * static_cast<double>(i);
            const double top = std::min(base, y(v)), h = std::abs(base - y(v));
            out += fmt::format(
                "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
                "fill=\"{}\" data-series=\"{}\" data-label=\"{}\" data-value=\"{}\"",
                bx, top, std::max(1.0, bar_w - 2), std::max(0.5, h), colour(i), escape(s.name),
                escape(c.categories[k]), number(v));
            if (std::isfinite(lo) && std::isfinite(hi))
                out += fmt::format(" data-lo=\"{}\" data-hi=\"{}\"", number(lo), number(hi));
            out += fmt::format("><title>{}: {}: {} {}</title></rect>\n", escape(s.name),
                               escape(c.categories[k]), fmt::format("{:.4g}", v), escape(c.y.unit));
            if (y.valid(lo) && y.valid(hi)) {
                const double ex = bx + (bar_w - 2) / 2;
                out += fmt::format(
                    "<path class=\"errorbar\" d=\"M{0:.1f} {1:.1f}V{2:.1f}M{3:.1f} {1:.1f}H{4:.1f}"
                    "M{3:.1f} {2:.1f}H{4:.1f}\" stroke=\"#111\" stroke-width=\"1\" fill=\"none\" "
                    "data-series=\"{5}\" data-label=\"{6}\" data-lo=\"{7}\" data-hi=\"{8}\"/>\n",
                    ex, y(lo), y(hi), ex - 3, ex + 3, escape(s.name), escape(c.categories[k]), number(lo),
                    number(hi));
            }
        }
    }
    if (y.valid(c.reference)) {
        out += fmt::format(
            "<line class=\"reference\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
            "stroke=\"#000\" stroke-dasharray=\"4,3\" data-value=\"{3}\"/>\n",
            x0, y(c.reference), x1, number(c.reference));
    }
    std::vector<std::string> names;
    for (const auto& s : c.series)
        names.push_back(s.name);
    out += legend(names, x1 + 20, margin_top + 8, "");
    return out + "</svg>\n";
}

std::string render(const xy_chart& c) {
    const double plot_width = 420;
    const double width = margin_left + plot_width + margin_right + legend_width;
    const double height = margin_top + plot_height + 56;
    std::vector<double> xs, ys;
    bool any_front = false;
    for (const auto& s : c.series)
        for (const auto& p : s.points) {
            xs.push_back(p.x);
            ys.push_back(p.y);
            any_front |= p.on_front;
        }
    scale x = make_scale(xs, c.x.log, false);
    x.p0 = margin_left;
    x.p1 = margin_left + plot_width;
    scale y = make_scale(ys, c.y.log, false);
    y.p0 = margin_top + plot_height;
    y.p1 = margin_top;

    std::string out = open_svg(c.id, c.title, c.subtitle, width, height);
    out += y_axis(y, c.y, x.p0, x.p1);
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>\n",
                       x.p0, y.p0, x.p1, y.p0);
    for (double t : x.ticks) {
        const double px = x(t);
        out += fmt::format(
            "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e4e4e4\"/>\n", px,
            y.p0, y.p1);
        out += fmt::format(
            "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", px, y.p0,
            y.p0 + 5);
        out += fmt::format(
            "<text x=\"{:.1f}\" y=\"{:.1f}\" {} font-size=\"11\" text-anchor=\"middle\" class=\"tick\" "
            "fill=\"#333\">{}</text>\n",
            px, y.p0 + 18, font, escape(tick_text(t)));
    }
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" {} font-size=\"12\" text-anchor=\"middle\" fill=\"#222\" "
        "class=\"axis-title\">{}</text>\n",
        (x.p0 + x.p1) / 2, y.p0 + 40, font, escape(axis_title(c.x)));

    // An SVG polyline's points, in order of x (sorts `v`).
    auto points_by_x = [&](std::vector<xy_point>& v) {
        std::sort(v.begin(), v.end(), [](const xy_point& a, const xy_point& b) { return a.x < b.x; });
        std::string d;
        for (const auto& p : v)
            d += fmt::format("{}{:.1f},{:.1f}", d.empty() ? "" : " ", x(p.x), y(p.y));
        return d;
    };
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const xy_series& s = c.series[i];
        std::vector<xy_point> pts;
        for (const auto& p : s.points)
            if (x.valid(p.x) && y.valid(p.y)) pts.push_back(p);
        if (s.lines && pts.size() > 1) {
            std::string d = points_by_x(pts);
            out += fmt::format("<polyline class=\"line\" points=\"{}\" fill=\"none\" stroke=\"{}\" "
                               "stroke-width=\"1.5\" data-series=\"{}\"/>\n",
                               d, colour(i), escape(s.name));
        }
        std::vector<xy_point> front;
        for (const auto& p : pts) {
            out += fmt::format(
                "<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\" "
                "stroke=\"{}\" stroke-width=\"{}\" data-series=\"{}\" data-label=\"{}\" data-x=\"{}\" "
                "data-y=\"{}\" data-front=\"{}\"><title>{}: {}: x {:.4g}, y {:.4g}</title></circle>\n",
                x(p.x), y(p.y), p.on_front ? 5.5 : 4, colour(i), p.on_front ? "#000" : "#fff",
                p.on_front ? 2 : 1, escape(s.name), escape(p.label), number(p.x), number(p.y),
                p.on_front ? 1 : 0, escape(s.name), escape(p.label), p.x, p.y);
            if (p.on_front) front.push_back(p);
        }
        if (front.size() > 1) {
            std::string d = points_by_x(front);
            out += fmt::format("<polyline class=\"front\" points=\"{}\" fill=\"none\" stroke=\"{}\" "
                               "stroke-width=\"2\" stroke-dasharray=\"5,3\" data-series=\"{}\"/>\n",
                               d, colour(i), escape(s.name));
        }
    }
    std::vector<std::string> names;
    for (const auto& s : c.series)
        names.push_back(s.name);
    out += legend(names, x.p1 + 20, margin_top + 8, any_front ? c.front_name : "");
    return out + "</svg>\n";
}

} // namespace formatbench::svg

// SVG drawing pieces (svg_draw.hpp).
#include "report/svg_draw.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace formatbench::svg {
namespace {

constexpr double legend_size = 11;            // font size of legend entries
constexpr double legend_row = 16;             // height of one row of the legend
constexpr double key_width = 26, key_gap = 5; // the key before an entry's text
constexpr double entry_gap = 16;              // between entries on a row
constexpr double title_size = 15, subtitle_size = 11;

std::string key_svg(const legend_entry& e, double x, double mid) {
    const series_style st = style(e.style);
    switch (e.key) {
    case legend_key::bar:
        return fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"10\" fill=\"{}\"/>\n",
                           x + 7, mid - 5, e.fill.empty() ? std::string(st.colour) : escape(e.fill));
    case legend_key::front:
        return fmt::format(
            "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#000000\" "
            "stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>\n",
            x, mid, x + key_width);
    case legend_key::line: {
        std::string out = fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
                                      "stroke=\"{3}\" stroke-width=\"2\"",
                                      x, mid, x + key_width, st.colour);
        if (!st.dash.empty()) out += fmt::format(" stroke-dasharray=\"{}\"", st.dash);
        return out + "/>\n" +
               marker(st.marker, x + key_width / 2, mid, 3.5, st.colour, "#333333", 0.6, "", "");
    }
    case legend_key::marker: break;
    }
    return marker(st.marker, x + key_width / 2, mid, 4, st.colour, "#333333", 0.6, "", "");
}

} // namespace

std::string escape(std::string_view t) {
    std::string out;
    out.reserve(t.size());
    for (char ch : t) {
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

std::string bar_fill(const std::string& id, std::size_t style_index) {
    const series_style st = style(style_index);
    if (st.hatch == hatch_kind::none) return std::string(st.colour);
    return fmt::format("url(#{})", escape(id));
}

std::string hatch_pattern(const std::string& id, std::size_t style_index) {
    const series_style st = style(style_index);
    if (st.hatch == hatch_kind::none) return "";
    // White stripes 2 px wide every 6 px, at 45 degrees; crossed adds the
    // perpendicular ones.
    std::string out =
        fmt::format("<pattern id=\"{}\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
                    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"{}\"/>"
                    "<rect width=\"2\" height=\"6\" fill=\"#ffffff\"/>",
                    escape(id), st.colour);
    if (st.hatch == hatch_kind::crossed) out += "<rect width=\"6\" height=\"2\" fill=\"#ffffff\"/>";
    return out + "</pattern>\n";
}

std::string text(double x, double y, const rich_text& t, const text_style& s) {
    std::string out = fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-family=\"{}\" font-size=\"{:g}\"", x,
                                  y, font_family, s.size);
    if (s.bold) out += " font-weight=\"bold\"";
    if (s.anchor != "start") out += fmt::format(" text-anchor=\"{}\"", s.anchor);
    out += fmt::format(" fill=\"{}\"", s.fill);
    if (!s.cls.empty()) out += fmt::format(" class=\"{}\"", s.cls);
    if (!s.extra.empty()) out += " " + s.extra;
    out += ">";
    // A superscript is raised by 0.4 em of the text and drawn smaller; the
    // run after it comes back down to the baseline.
    const double raise = s.size * 0.4;
    bool raised = false;
    for (const text_run& r : t.runs) {
        if (r.text.empty()) continue;
        if (r.superscript) {
            out += fmt::format("<tspan dy=\"{:g}\" font-size=\"{:g}\">{}</tspan>", -raise,
                               s.size * superscript_scale, escape(r.text));
            raised = true;
        } else if (raised) {
            out += fmt::format("<tspan dy=\"{:g}\">{}</tspan>", raise, escape(r.text));
            raised = false;
        } else {
            out += escape(r.text);
        }
    }
    return out + "</text>\n";
}

std::string marker(marker_shape shape, double cx, double cy, double r, std::string_view fill,
                   std::string_view stroke, double stroke_width, const std::string& attributes,
                   const std::string& content) {
    std::string tag, geometry;
    switch (shape) {
    case marker_shape::circle:
        tag = "circle";
        geometry = fmt::format("cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:g}\"", cx, cy, r);
        break;
    case marker_shape::square: {
        const double h = r * 0.9; // about the area of the circle
        tag = "rect";
        geometry = fmt::format("x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"", cx - h, cy - h,
                               2 * h, 2 * h);
        break;
    }
    case marker_shape::diamond: {
        const double h = r * 1.25;
        tag = "path";
        geometry = fmt::format("d=\"M{0:.1f} {1:.1f}L{2:.1f} {3:.1f}L{0:.1f} {4:.1f}L{5:.1f} {3:.1f}Z\"", cx,
                               cy - h, cx + h, cy, cy + h, cx - h);
        break;
    }
    case marker_shape::triangle_up:
    case marker_shape::triangle_down: {
        const double h = r * 1.3, s = shape == marker_shape::triangle_up ? 1 : -1;
        tag = "path";
        geometry = fmt::format("d=\"M{:.1f} {:.1f}L{:.1f} {:.1f}L{:.1f} {:.1f}Z\"", cx, cy - s * h,
                               cx + h * 0.87, cy + s * h * 0.5, cx - h * 0.87, cy + s * h * 0.5);
        break;
    }
    }
    std::string out = fmt::format("<{} {} fill=\"{}\" stroke=\"{}\" stroke-width=\"{:g}\"", tag, geometry,
                                  fill, stroke, stroke_width);
    if (!attributes.empty()) out += " " + attributes;
    if (content.empty()) return out + "/>\n";
    return out + ">" + content + "</" + tag + ">\n";
}

std::string title_block(const rich_text& title, const rich_text& subtitle, double x, double width,
                        double& bottom) {
    std::string out;
    for (const rich_text& line : wrap_text(title, title_size, width, true)) {
        bottom += title_size * 1.3;
        out += text(x, bottom, line, {title_size, true, "start", "#111111", "chart-title", ""});
    }
    for (const rich_text& line : wrap_text(subtitle, subtitle_size, width)) {
        bottom += subtitle_size * 1.45;
        out += text(x, bottom, line, {subtitle_size, false, "start", "#444444", "subtitle", ""});
    }
    bottom += subtitle_size * descent;
    return out;
}

std::string legend(const std::vector<legend_entry>& entries, double x, double top, double width,
                   double& bottom) {
    std::string out = "<g class=\"legend\">\n";
    const double text_room = width - key_width - key_gap;
    double cx = x, row_top = top;
    bottom = top;
    for (const legend_entry& e : entries) {
        const std::vector<rich_text> lines = wrap_text(e.name, legend_size, text_room);
        double w = 0;
        for (const rich_text& l : lines)
            w = std::max(w, text_width(l, legend_size));
        const double entry_width = key_width + key_gap + w;
        if (cx > x && cx + entry_width > x + width) { // next row
            cx = x;
            row_top = bottom;
        }
        const double mid = row_top + legend_row / 2;
        out += key_svg(e, cx, mid);
        double baseline = mid + legend_size * 0.35;
        for (const rich_text& l : lines) {
            out += text(cx + key_width + key_gap, baseline, l,
                        {legend_size, false, "start", "#222222", "legend-entry", ""});
            baseline += legend_row;
        }
        bottom = std::max(bottom,
                          row_top + legend_row * static_cast<double>(std::max<std::size_t>(1, lines.size())));
        cx += entry_width + entry_gap;
    }
    return out + "</g>\n";
}

} // namespace formatbench::svg

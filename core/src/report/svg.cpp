// SVG charts (see svg.hpp). Layout from the top: title and subtitle, the
// plot with its axes, the x-axis title, the legend. Coordinates are computed
// here from measured text (text_metrics.hpp); the SVG uses presentation
// attributes only (no CSS), so a standalone file looks the same as the
// chart inlined in the report.
#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace formatbench::svg {
namespace {

constexpr double pad = 12;             // between the chart's edge and anything drawn
constexpr double tick_size = 11;       // tick and category labels
constexpr double axis_title_size = 12; // axis titles
constexpr double inset = 10;           // x-y charts: between the plot frame and the outermost data
constexpr std::string_view grid = "#e4e4e4", ink = "#333333";

std::string axis_title(const axis& a) {
    std::string t = a.unit.empty() ? a.title : a.title + " (" + a.unit + ")";
    if (a.scale != scale_kind::linear) t += ", log scale";
    return t;
}

std::string open_svg(const std::string& id, const std::string& title, double width, double height,
                     const data_attributes& data) {
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "viewBox=\"0 0 {0:.0f} {1:.0f}\" class=\"chart\" data-chart=\"{2}\" role=\"img\" aria-label=\"{3}\"",
        width, height, escape(id), escape(title));
    for (const auto& [k, v] : data)
        out += fmt::format(" data-{}=\"{}\"", k, escape(v));
    out += fmt::format(">\n<title>{}</title>\n", escape(title));
    out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width,
                       height);
    return out;
}

std::string line(double x1, double y1, double x2, double y2, std::string_view stroke,
                 std::string extra = "") {
    return fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"{}{}/>\n",
                       x1, y1, x2, y2, stroke, extra.empty() ? "" : " ", extra);
}

double widest(const std::vector<tick>& ticks) {
    double w = 0;
    for (const tick& t : ticks)
        w = std::max(w, text_width(t.label, tick_size));
    return w;
}

// A horizontal scale over [p0, right]; the right end moves in until the
// last tick's label (centred on it) ends at `limit`.
scale horizontal_scale(const std::vector<double>& values, const axis& a, bool include_zero, double p0,
                       double right, double limit) {
    double end = right;
    scale s;
    for (int round = 0; round < 3; ++round) {
        s = make_scale(values, a.scale, a.kind, include_zero, p0, end, true, tick_size);
        double over = 0;
        for (const tick& t : s.ticks)
            over = std::max(over, s(t.value) + text_width(t.label, tick_size) / 2 - limit);
        if (over <= 0) break;
        end -= over;
    }
    return s;
}

// Tick marks and labels under a horizontal axis at y = base, the grid up
// to y = top, and the axis title (wrapped) under them; `bottom` is set to
// the lowest pixel used.
std::string x_axis(const scale& s, const axis& a, double top, double base, double width, double& bottom) {
    std::string out;
    for (const tick& t : s.ticks) {
        const double px = s(t.value);
        out += line(px, top, px, base, grid);
        out += line(px, base, px, base + 5, ink);
        out += text(px, base + 18, t.label, {tick_size, false, "middle", ink, "tick", ""});
    }
    double y = base + 22 + axis_title_size * descent;
    for (const rich_text& l : wrap_text(axis_title(a), axis_title_size, width - 2 * pad)) {
        y += axis_title_size * 1.3;
        out += text(width / 2, y, l, {axis_title_size, false, "middle", "#222222", "axis-title", ""});
    }
    bottom = y + axis_title_size * descent;
    return out;
}

std::string bar_tooltip(const std::string& series, const std::string& category, double v, const axis& a) {
    return fmt::format("<title>{}: {}: {}{}{}</title>", escape(series), escape(category),
                       escape(format_value(v, a.kind).plain()), a.unit.empty() ? "" : " ", escape(a.unit));
}

} // namespace

std::string render(const bar_chart& c) {
    const double width = chart_width;
    double top = 4;
    std::string body = title_block(c.title, c.subtitle, pad, width - 2 * pad, top);

    const std::size_t ns = std::max<std::size_t>(1, c.series.size());
    const std::size_t nc = c.categories.size();
    const double label_max = width * 0.4, line_h = 13;
    std::vector<std::vector<rich_text>> labels;
    double label_w = 0;
    for (const std::string& cat : c.categories) {
        labels.push_back(wrap_text(cat, tick_size, label_max));
        for (const rich_text& l : labels.back())
            label_w = std::max(label_w, text_width(l, tick_size));
    }
    const double bar = std::clamp(48.0 / static_cast<double>(ns), 4.0, 12.0);
    const double plot_top = top + 12;
    std::vector<double> group_top, group_h;
    double y = plot_top;
    for (std::size_t k = 0; k < nc; ++k) {
        const double h =
            std::max(bar * static_cast<double>(ns), line_h * static_cast<double>(labels[k].size())) + 8;
        group_top.push_back(y);
        group_h.push_back(h);
        y += h;
    }
    const double plot_bottom = std::max(y, plot_top + 20);

    std::vector<double> all;
    for (const auto& s : c.series) {
        all.insert(all.end(), s.values.begin(), s.values.end());
        all.insert(all.end(), s.hi.begin(), s.hi.end());
        if (c.value.scale != scale_kind::linear) all.insert(all.end(), s.lo.begin(), s.lo.end());
    }
    if (std::isfinite(c.reference)) all.push_back(c.reference);
    // Bars after the eighth series are hatched (palette.hpp).
    std::vector<std::string> fills;
    std::string patterns;
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const std::string pattern_id = fmt::format("{}-hatch-{}", c.id, i);
        fills.push_back(bar_fill(pattern_id, i));
        patterns += hatch_pattern(pattern_id, i);
    }
    if (!patterns.empty()) body += "<defs>\n" + patterns + "</defs>\n";
    const double x0 = pad + label_w + 8;
    const bool linear = c.value.scale == scale_kind::linear;
    const scale xs = horizontal_scale(all, c.value, linear, x0, width - pad - 4, width - pad);
    const double x1 = xs.p1;

    double axis_bottom = 0;
    body += x_axis(xs, c.value, plot_top, plot_bottom, width, axis_bottom);
    body += line(x0, plot_top, x0, plot_bottom, ink);
    body += line(x0, plot_bottom, x1, plot_bottom, ink);
    const double base = linear ? xs(0.0) : x0;
    for (std::size_t k = 0; k < nc; ++k) {
        const double mid = group_top[k] + group_h[k] / 2;
        double baseline = mid - line_h * (static_cast<double>(labels[k].size()) - 1) / 2 + tick_size * 0.35;
        for (const rich_text& l : labels[k]) {
            body += text(x0 - 8, baseline, l, {tick_size, false, "end", "#222222", "category", ""});
            baseline += line_h;
        }
        const double first = mid - bar * static_cast<double>(ns) / 2;
        for (std::size_t i = 0; i < c.series.size(); ++i) {
            const bar_series& s = c.series[i];
            const double v = k < s.values.size() ? s.values[k] : nan;
            if (!xs.valid(v)) continue;
            const double lo = k < s.lo.size() ? s.lo[k] : nan, hi = k < s.hi.size() ? s.hi[k] : nan;
            const double by = first + bar * static_cast<double>(i), bh = std::max(2.0, bar - 1);
            const double left = std::min(base, xs(v)), w = std::abs(xs(v) - base);
            body += fmt::format(
                "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
                "fill=\"{}\" data-series=\"{}\" data-label=\"{}\" data-value=\"{}\"",
                left, by, std::max(0.5, w), bh, fills[i], escape(s.name), escape(c.categories[k]), number(v));
            if (std::isfinite(lo) && std::isfinite(hi))
                body += fmt::format(" data-lo=\"{}\" data-hi=\"{}\"", number(lo), number(hi));
            body += fmt::format(">{}</rect>\n", bar_tooltip(s.name, c.categories[k], v, c.value));
            if (xs.valid(lo) && xs.valid(hi)) {
                const double ey = by + bh / 2, cap = std::max(2.0, bh / 2);
                body += fmt::format(
                    "<path class=\"errorbar\" d=\"M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}"
                    "M{2:.1f} {3:.1f}V{4:.1f}\" stroke=\"#111111\" stroke-width=\"1\" fill=\"none\" "
                    "data-series=\"{5}\" data-label=\"{6}\" data-lo=\"{7}\" data-hi=\"{8}\"/>\n",
                    xs(lo), ey, xs(hi), ey - cap, ey + cap, escape(s.name), escape(c.categories[k]),
                    number(lo), number(hi));
            }
        }
    }
    if (xs.valid(c.reference))
        body += line(xs(c.reference), plot_top, xs(c.reference), plot_bottom, "#000000",
                     fmt::format("stroke-dasharray=\"4,3\" class=\"reference\" data-value=\"{}\"",
                                 number(c.reference)));

    std::vector<legend_entry> entries;
    for (std::size_t i = 0; i < c.series.size(); ++i)
        entries.push_back({c.series[i].name, i, legend_key::bar, fills[i]});
    double bottom = axis_bottom;
    body += legend(entries, pad, axis_bottom + 8, width - 2 * pad, bottom);
    return open_svg(c.id, c.title, width, std::ceil(bottom + pad), c.data) + body + "</svg>\n";
}

std::string render(const xy_chart& c) {
    const double width = chart_width;
    double top = 4;
    std::string body = title_block(c.title, c.subtitle, pad, width - 2 * pad, top);
    const double plot_top = top + 12, plot_bottom = plot_top + c.plot_height;

    std::vector<double> xv = c.x_cover, yv = c.y_cover;
    for (const auto& s : c.series)
        for (const auto& p : s.points) {
            xv.push_back(p.x);
            yv.push_back(p.y);
        }
    const scale ys =
        make_scale(yv, c.y.scale, c.y.kind, false, plot_bottom - inset, plot_top + inset, false, tick_size);
    const std::vector<rich_text> y_title = wrap_text(axis_title(c.y), axis_title_size, c.plot_height);
    const double title_room = axis_title_size * 1.3 * static_cast<double>(y_title.size());
    const double x0 = pad + title_room + 6 + widest(ys.ticks) + 8;
    const scale xs = horizontal_scale(xv, c.x, false, x0 + inset, width - pad - inset, width - pad);
    const double x1 = xs.p1 + inset;

    // Grid, y ticks and labels, the rotated y-axis title, the axes.
    for (const tick& t : ys.ticks) {
        const double py = ys(t.value);
        body += line(x0, py, x1, py, grid);
        body += line(x0 - 5, py, x0, py, ink);
        body += text(x0 - 8, py + tick_size * 0.35, t.label, {tick_size, false, "end", ink, "tick", ""});
    }
    const double mid = (plot_top + plot_bottom) / 2;
    for (std::size_t j = 0; j < y_title.size(); ++j) {
        const double bx = pad + axis_title_size * (0.95 + 1.3 * static_cast<double>(j));
        body += text(bx, mid, y_title[j],
                     {axis_title_size, false, "middle", "#222222", "axis-title",
                      fmt::format("transform=\"rotate(-90 {:.1f} {:.1f})\"", bx, mid)});
    }
    double axis_bottom = 0;
    body += x_axis(xs, c.x, plot_top, plot_bottom, width, axis_bottom);
    body += line(x0, plot_top, x0, plot_bottom, ink);
    body += line(x0, plot_bottom, x1, plot_bottom, ink);

    auto in_x_order = [](std::vector<xy_point> pts) {
        std::stable_sort(pts.begin(), pts.end(),
                         [](const xy_point& a, const xy_point& b) { return a.x < b.x; });
        return pts;
    };
    auto polyline = [&](const std::vector<xy_point>& pts) {
        std::string d;
        for (const auto& p : pts)
            d += fmt::format("{}{:.1f},{:.1f}", d.empty() ? "" : " ", xs(p.x), ys(p.y));
        return d;
    };
    std::vector<std::vector<xy_point>> drawn(c.series.size());
    std::vector<xy_point> front;
    for (std::size_t i = 0; i < c.series.size(); ++i)
        for (const auto& p : c.series[i].points)
            if (xs.valid(p.x) && ys.valid(p.y)) {
                drawn[i].push_back(p);
                if (p.on_front) front.push_back(p);
            }
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const xy_series& s = c.series[i];
        if (!s.lines || drawn[i].size() < 2) continue;
        const series_style st = style(s.style);
        const std::vector<xy_point> pts = in_x_order(drawn[i]);
        std::string data_x, data_y;
        for (const auto& p : pts) {
            data_x += (data_x.empty() ? "" : " ") + number(p.x);
            data_y += (data_y.empty() ? "" : " ") + number(p.y);
        }
        body += fmt::format(
            "<polyline class=\"line\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"",
            polyline(pts), st.colour);
        if (!st.dash.empty()) body += fmt::format(" stroke-dasharray=\"{}\"", st.dash);
        body += fmt::format(" data-series=\"{}\" data-xs=\"{}\" data-ys=\"{}\"/>\n", escape(s.name), data_x,
                            data_y);
    }
    const bool with_front = !c.front_name.empty() && !front.empty();
    if (with_front && front.size() > 1)
        body += fmt::format("<polyline class=\"front\" points=\"{}\" fill=\"none\" stroke=\"#000000\" "
                            "stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>\n",
                            polyline(in_x_order(front)));
    // Markers of scattered series (no lines) that would cover one another
    // (raw, npy and netcdf all at a size ratio of 1 and alike in speed) are
    // set side by side: each group of markers closer than a marker's width
    // is spread along x around its centre, as a beeswarm does; data-x keeps
    // the value, data-shift-x says how far the marker was moved.
    constexpr double spacing = 15; // px: the widest marker (a diamond of r 5.5, 13.8 px) and a gap
    std::vector<std::vector<double>> shift(c.series.size());
    {
        struct placed {
            std::size_t series, point;
            double x, y; // where it is drawn (x moves)
        };
        std::vector<placed> ps;
        for (std::size_t i = 0; i < c.series.size(); ++i) {
            shift[i].assign(drawn[i].size(), 0);
            if (c.series[i].lines) continue;
            for (std::size_t k = 0; k < drawn[i].size(); ++k)
                if (drawn[i][k].marked) ps.push_back({i, k, xs(drawn[i][k].x), ys(drawn[i][k].y)});
        }
        // Groups of markers joined by closeness, each spread around its
        // centre; again until none is close to another (a spread group may
        // reach a neighbour: the next round joins them).
        for (int round = 0; round < 20; ++round) {
            std::vector<std::size_t> parent(ps.size());
            for (std::size_t k = 0; k < ps.size(); ++k)
                parent[k] = k;
            auto root = [&](std::size_t k) {
                while (parent[k] != k)
                    k = parent[k] = parent[parent[k]];
                return k;
            };
            bool close = false;
            for (std::size_t a = 0; a < ps.size(); ++a)
                for (std::size_t b = a + 1; b < ps.size(); ++b)
                    if (std::abs(ps[a].x - ps[b].x) < spacing - 0.01 &&
                        std::abs(ps[a].y - ps[b].y) < spacing) {
                        parent[root(a)] = root(b);
                        close = true;
                    }
            if (!close) break;
            std::map<std::size_t, std::vector<std::size_t>> groups;
            for (std::size_t k = 0; k < ps.size(); ++k)
                groups[root(k)].push_back(k);
            for (auto& [r, members] : groups) {
                if (members.size() < 2) continue;
                // Left to right as they are, ties in series order: the same layout every time.
                std::stable_sort(members.begin(), members.end(),
                                 [&](std::size_t a, std::size_t b) { return ps[a].x < ps[b].x; });
                double centre = 0;
                for (std::size_t k : members)
                    centre += ps[k].x;
                centre /= static_cast<double>(members.size());
                const double span = spacing * static_cast<double>(members.size() - 1);
                // Kept inside the plot where it is wide enough.
                const double start = std::clamp(centre - span / 2, x0 + spacing / 2,
                                                std::max(x0 + spacing / 2, x1 - spacing / 2 - span));
                for (std::size_t j = 0; j < members.size(); ++j)
                    ps[members[j]].x = start + spacing * static_cast<double>(j);
            }
        }
        for (const placed& p : ps)
            shift[p.series][p.point] = p.x - xs(drawn[p.series][p.point].x);
    }
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const xy_series& s = c.series[i];
        const series_style st = style(s.style);
        for (std::size_t k = 0; k < drawn[i].size(); ++k) {
            const xy_point& p = drawn[i][k];
            if (!p.marked) continue;
            std::string attributes = fmt::format(
                "class=\"point\" data-series=\"{}\" data-label=\"{}\" data-x=\"{}\" data-y=\"{}\" "
                "data-front=\"{}\"",
                escape(s.name), escape(p.label), number(p.x), number(p.y), p.on_front ? 1 : 0);
            for (const auto& [name, v] : p.data)
                attributes += fmt::format(" data-{}=\"{}\"", name, escape(v));
            if (shift[i][k] != 0) attributes += fmt::format(" data-shift-x=\"{:.1f}\"", shift[i][k]);
            const std::string tooltip = fmt::format(
                "<title>{}: {}: x {}, y {}</title>", escape(s.name), escape(p.label),
                escape(format_value(p.x, c.x.kind).plain()), escape(format_value(p.y, c.y.kind).plain()));
            body += marker(st.marker, xs(p.x) + shift[i][k], ys(p.y), p.on_front ? 5.5 : 4, st.colour,
                           p.on_front ? "#000000" : ink, p.on_front ? 1.8 : 0.6, attributes, tooltip);
        }
    }

    std::vector<legend_entry> entries;
    for (const auto& s : c.series)
        entries.push_back({s.legend.empty() ? rich_text(s.name) : s.legend, s.style,
                           s.lines ? legend_key::line : legend_key::marker, ""});
    if (with_front) entries.push_back({c.front_name, 0, legend_key::front, ""});
    double bottom = axis_bottom;
    body += legend(entries, pad, axis_bottom + 8, width - 2 * pad, bottom);
    return open_svg(c.id, c.title.plain(), width, std::ceil(bottom + pad), c.data) + body + "</svg>\n";
}

} // namespace formatbench::svg

// The SVG charts of the HTML report: horizontal bar charts with error bars
// and x-y charts (lines or markers, linear or log axes, an optional Pareto
// front). A chart has a fixed width (two fit side by side on the report's
// page) and grows downwards with its categories and legend, so any number of
// cases, runs or series fits the page; every title, label and legend entry
// is measured (text_metrics.hpp) and wrapped, never cut. Series take their
// colour, marker and dash from palette.hpp. Output is well-formed XML (every
// text escaped), needs no script, style sheet or font file, and carries the
// plotted numbers on each mark as data-* attributes (data-series,
// data-label, data-value / data-x, data-y, data-lo, data-hi, data-front; a
// line its vertices' values in drawing order as data-xs and data-ys, space
// separated) so tests and readers can check the chart against the record.
#pragma once

#include "report/axis.hpp"
#include "report/svg_draw.hpp"

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace formatbench::svg {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The width of every chart: two side by side within the report's 1200 px
// page; the page's CSS scales charts down to narrower screens and paper.
inline constexpr double chart_width = 560;

struct axis {
    std::string title;                     // e.g. "write throughput"
    std::string unit;                      // e.g. "MB/s", shown as "title (unit)"; "" when the ticks say it
    scale_kind scale = scale_kind::linear; // log axes add ", log scale" to the title
    quantity kind = quantity::plain;       // how ticks are labelled
};

// Extra data-* attributes of a mark: (name without "data-", value).
using data_attributes = std::vector<std::pair<std::string, std::string>>;

struct bar_series {
    std::string name;
    std::vector<double> values; // one per category; NaN = no bar
    std::vector<double> lo, hi; // error bar ends per category (NaN or empty = none)
};

// Categories down the left, one bar per series in each, values along x.
struct bar_chart {
    std::string id; // identifies the chart (data-chart attribute, SVG file name)
    std::string title;
    std::string subtitle; // e.g. what the error bars show
    std::vector<std::string> categories;
    axis value;
    std::vector<bar_series> series; // series i is drawn in style i
    double reference = nan;         // a vertical reference line (e.g. speed-up 1)
    data_attributes data;           // data-* attributes of the <svg> element
};

struct xy_point {
    double x = 0, y = 0;
    std::string label;     // e.g. the case's row; data-label and tooltip
    bool on_front = false; // drawn emphasised and joined by the front line
    data_attributes data;  // more data-* attributes
    // Drawn with a marker (class "point"); a point without one is only a
    // vertex of its series' line (a CDF's percentiles between p50 and p99).
    bool marked = true;
};

struct xy_series {
    std::string name;             // data-series
    rich_text legend;             // legend text ("" = name)
    std::size_t style = 0;        // palette.hpp index
    std::vector<xy_point> points; // drawn in x order when lines
    bool lines = true;            // connect the points (else markers only)
};

struct xy_chart {
    std::string id;
    rich_text title, subtitle;
    axis x, y;
    std::vector<xy_series> series;
    std::string front_name;               // legend text of the front, drawn when a point is on_front
    std::vector<double> x_cover, y_cover; // values the axes also cover (shared axes of small multiples)
    data_attributes data;                 // data-* attributes of the <svg> element
    double plot_height = 220;
};

// A complete <svg> element with the SVG namespace, suitable both inline in
// XHTML and as a standalone .svg file (prefix standalone_header).
std::string render(const bar_chart& chart);
std::string render(const xy_chart& chart);

inline constexpr std::string_view standalone_header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

} // namespace formatbench::svg

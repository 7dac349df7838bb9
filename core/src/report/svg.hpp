// A small SVG chart writer for the HTML report: grouped bar charts with error
// bars and x-y charts (lines or markers, linear or log axes, an optional
// highlighted front). Output is well-formed XML (every text escaped), needs
// no script, style sheet or font beyond the generic families, and carries the
// plotted numbers on each mark as data-* attributes (data-series,
// data-label, data-value / data-x, data-y, data-lo, data-hi) so tests and
// readers can check the chart against the record.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench::svg {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// XML-escapes text for element content and attribute values (& < > " '),
// and replaces characters XML 1.0 forbids (control characters other than
// tab, newline and carriage return) with U+FFFD.
std::string escape(std::string_view text);

// A number as written into attributes: 9 significant digits, "nan" never
// (non-finite values are left out by the callers).
std::string number(double v);

struct axis {
    std::string title; // e.g. "write throughput"
    std::string unit;  // e.g. "MB/s"; shown as "title (unit)"
    bool log = false;  // log10 scale; non-positive values are then not drawn
};

struct bar_series {
    std::string name;
    std::vector<double> values; // one per category; NaN = no bar
    std::vector<double> lo, hi; // error bar ends per category (NaN or empty = none)
};

struct bar_chart {
    std::string id; // identifies the chart (data-chart attribute, SVG file name)
    std::string title;
    std::string subtitle; // e.g. what the error bars show
    std::vector<std::string> categories;
    axis y;
    std::vector<bar_series> series;
    double reference = nan; // a horizontal reference line (e.g. speed-up 1)
};

struct xy_point {
    double x = 0, y = 0;
    std::string label;     // e.g. the format; shown as a tooltip and data-label
    bool on_front = false; // drawn emphasised (Pareto front)
};

struct xy_series {
    std::string name;
    std::vector<xy_point> points; // drawn in x order when lines
    bool lines = true;            // connect the points (else markers only)
};

struct xy_chart {
    std::string id, title, subtitle;
    axis x, y;
    std::vector<xy_series> series;
    std::string front_name; // legend text for the front, when a point is on_front
};

// A complete <svg> element with the SVG namespace, suitable both inline in
// XHTML and as a standalone .svg file (prefix standalone_header).
std::string render(const bar_chart& chart);
std::string render(const xy_chart& chart);

inline constexpr std::string_view standalone_header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

// The colour of series i (a fixed palette, distinguishable in grey too).
std::string_view colour(std::size_t i);

} // namespace formatbench::svg

// Drawing pieces shared by the SVG charts (svg.cpp): escaped text with
// superscripts, markers, the title block and the legend. Every piece is
// drawn with presentation attributes only (no CSS class carries a style), so
// a chart looks the same inline in the report and as a standalone file, and
// every piece returns how much room it took, so nothing is drawn outside the
// chart's viewBox.
#pragma once

#include "report/palette.hpp"
#include "report/text_metrics.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace formatbench::svg {

// XML-escapes text for element content and attribute values (& < > " '),
// and replaces characters XML 1.0 forbids (control characters other than
// tab, newline and carriage return) with U+FFFD.
std::string escape(std::string_view text);

// A number as written into attributes: 9 significant digits; "" for a value
// that is not finite.
std::string number(double v);

// Vertical extent of a line of text at `size` around its baseline, for
// layout: DejaVu Sans ascends 0.93 em and descends 0.24 em; a superscript
// raises the top to 1.05 em.
inline constexpr double ascent = 1.05, descent = 0.25;

struct text_style {
    double size = 11;
    bool bold = false;
    std::string_view anchor = "start"; // start, middle, end
    std::string_view fill = "#222222";
    std::string_view cls; // class attribute (for readers and tests, never for style)
    std::string extra;    // more attributes, e.g. a transform
};

// A <text> element with its runs (superscripts as raised, smaller tspans).
std::string text(double x, double y, const rich_text& t, const text_style& s);

// A marker of `shape` centred at (cx, cy), `r` about its radius; `attributes`
// are added to the element (class, data-*), `content` goes inside it (a
// <title> tooltip).
std::string marker(marker_shape shape, double cx, double cy, double r, std::string_view fill,
                   std::string_view stroke, double stroke_width, const std::string& attributes,
                   const std::string& content);

// The title (bold, wrapped) and the subtitle (wrapped) from the top of the
// chart, left-aligned at x, within `width`; returns the SVG and adds the
// height used to `bottom`.
std::string title_block(const rich_text& title, const rich_text& subtitle, double x, double width,
                        double& bottom);

enum class legend_key {
    bar,    // a filled square
    line,   // a line with its dash pattern and a marker
    marker, // a marker alone
    front,  // a black dashed line (the Pareto front)
};

struct legend_entry {
    rich_text name;
    std::size_t style = 0;
    legend_key key = legend_key::bar;
    std::string fill; // a bar key's fill when not the style's colour (a hatching: "url(#id)")
};

// The fill of bars in style i: its colour, or "url(#ID)" of the hatching
// pattern hatch_pattern(ID, i) defines (ID unique in the page).
std::string bar_fill(const std::string& id, std::size_t style_index);
std::string hatch_pattern(const std::string& id, std::size_t style_index);

// Entries flow left to right from (x, top) and wrap at x + width; an entry
// wider than the row wraps its text. Returns the SVG; `bottom` is set to the
// lowest pixel drawn.
std::string legend(const std::vector<legend_entry>& entries, double x, double top, double width,
                   double& bottom);

} // namespace formatbench::svg

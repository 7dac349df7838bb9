// Small multiples: how the lines of one chart that would be too crowded are
// split into several small charts, one per combination of the attributes
// that are not compared within a chart ("f64, chunk whole"), each with at
// most `max_lines` lines. Attributes that name what is compared (record,
// format, plugin option) tell the lines of a chart apart; the others that
// vary make the facets. When that leaves every chart with a single line, the
// facet attribute with the most values moves into the lines (a sweep of
// zlib's level alone compares counts, not one line per chart). A facet with
// more than `max_lines` lines is split into parts of near-equal size.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace formatbench {

// A line's attributes (name, value), in any order; a missing name has the
// value "".
using facet_attributes = std::vector<std::pair<std::string, std::string>>;

struct facet_chart {
    facet_attributes fixed;         // the facet: its attributes' values, in plan order
    std::vector<std::size_t> lines; // indexes of the lines drawn, in input order
    std::size_t part = 1, parts = 1;
};

struct facet_plan {
    std::vector<std::string> series; // attributes that vary between the lines of a chart
    std::vector<std::string> facets; // attributes that vary between charts
    std::vector<facet_chart> charts; // in order of their first line
};

// `compared(name)`: whether an attribute tells lines apart within a chart.
// Attributes are ordered by first appearance among the lines.
facet_plan plan_facets(const std::vector<facet_attributes>& lines,
                       const std::function<bool(const std::string&)>& compared, std::size_t max_lines);

} // namespace formatbench

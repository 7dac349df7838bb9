// Sweeps found in results records, ready to draw as small multiples. A
// numeric parameter (a data set's count, the chunk size, a numeric plugin
// option) is swept where cases that agree on everything else take two or
// more values of it; each such family of cases is one line of time against
// the parameter. The lines of a parameter are split into charts by
// facets.hpp (one chart per combination of the other attributes that vary,
// at most max_lines_per_chart lines), and each line keeps one style index
// in every chart of the parameter, so a format has one colour throughout,
// while the lines of one chart never share a style.
#pragma once

#include "report/axis.hpp"
#include "results/result.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace formatbench {

inline constexpr std::size_t max_lines_per_chart = 8;

struct sweep_case {
    std::size_t record = 0; // index of its record
    const case_result* c = nullptr;
    std::string row; // its row label in its data set (figures.hpp)
};

struct sweep_point {
    double x = 0;
    const sweep_case* source = nullptr;
};

struct sweep_line {
    std::string key;                 // what tells it apart, as plain text (unique within the parameter)
    svg::rich_text name;             // the same, as the legend shows it ("zlib level=1, count 10^3")
    std::size_t style = 0;           // palette.hpp index, one per key across the charts of the parameter
    std::vector<sweep_point> points; // in x order
};

struct sweep_chart {
    std::string id;         // the facet's values, for chart ids ("f64-chunk whole"; "" for one facet)
    svg::rich_text facet;   // the facet as people read it ("f64, chunk whole"; empty: one facet)
    std::string facet_json; // its exact values for readers: {"dtype":"f64","chunk":"0"}
    std::size_t part = 1, parts = 1;
    std::vector<sweep_line> lines;
};

struct sweep {
    std::string parameter; // "count", "chunk", "option level"
    std::string title;     // for axis and chart titles: "count", "chunk size", "level"
    svg::quantity quantity = svg::quantity::plain;
    svg::scale_kind scale = svg::scale_kind::linear; // for every chart of the parameter
    std::vector<sweep_chart> charts;
};

// The sweeps among `cases` (each with samples), parameters in name order.
// `record_names` name the records; with more than one, lines are per record.
std::vector<sweep> find_sweeps(const std::vector<sweep_case>& cases,
                               const std::vector<std::string>& record_names);

} // namespace formatbench

// Chart axes: how values map to pixels (linear, log10, log2), where the
// ticks go, and how tick labels are written, by the kind of quantity on the
// axis. Labels use the console's formatters (units.hpp) with trailing zeros
// dropped, so a chart says "1 ms", "64 KiB", "250 MB/s" and "2x" like the
// tables beside it; counts are written 10^5, 2×10^5 (superscripts). Ticks
// of log10 axes sit on powers of ten (with 2 and 5 between them when the
// axis spans one decade), of log2 axes on powers of two; ticks are
// thinned until their labels cannot overlap at the axis length given.
#pragma once

#include "report/text_metrics.hpp"

#include <string>
#include <vector>

namespace formatbench::svg {

enum class quantity {
    plain,   // a number: "6", "0.5"
    seconds, // "1 ms", "250 µs"
    bytes,   // "4 KiB", "1 MiB"
    count,   // "500", "10^5", "2×10^5"
    mb_s,    // "250", "1500" (the unit is in the axis title)
    factor,  // "1x", "0.5x"
    ratio,   // "0.5", "1", "2.5"
};

enum class scale_kind { linear, log10, log2 };

// A number as a label of its quantity. `exponent` writes counts as powers of
// ten even below 10^3 (the ticks of a log10 count axis: 10^0 .. 10^6).
rich_text format_value(double v, quantity q, bool exponent = false);

struct tick {
    double value = 0;
    rich_text label;
};

// Maps data values to pixels along one axis.
struct scale {
    scale_kind kind = scale_kind::linear;
    double lo = 0, hi = 1; // domain, in log10 / log2 of the values on log axes
    double p0 = 0, p1 = 1; // pixels of lo and hi
    std::vector<tick> ticks;

    bool valid(double v) const; // drawable: finite, and positive on log axes
    double operator()(double v) const;
    double transform(double v) const; // v, or its log10 / log2
};

// A scale whose domain covers the finite `values` (the positive ones on log
// axes) and lands on ticks, with the ticks' labels. `include_zero` for bars
// on linear axes. p0 and p1 are the pixels of the domain's ends; along a
// horizontal axis labels need their width plus a gap between neighbouring
// ticks, along a vertical one about twice the font size.
scale make_scale(const std::vector<double>& values, scale_kind kind, quantity q, bool include_zero, double p0,
                 double p1, bool horizontal, double font_size);

} // namespace formatbench::svg

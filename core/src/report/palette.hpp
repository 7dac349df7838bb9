// How the charts tell series apart: the eight colours of Okabe and Ito's
// colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008),
// a marker shape, a dash pattern and a bar hatching per series. Series i of
// a chart gets style(i); the colour repeats only after eight series, and
// then the dash pattern and the hatching differ, so (colour, dash) is unique
// for the first 32 series, (colour, hatch) for the first 24 and (colour,
// marker) for the first 40. The marker shape changes with every series, so
// a chart printed in grey keeps its series apart too. Yellow comes last: it
// is the weakest of the eight on white paper.
#pragma once

#include <cstddef>
#include <string_view>

namespace formatbench::svg {

enum class marker_shape { circle, square, diamond, triangle_up, triangle_down };

enum class hatch_kind { none, diagonal, crossed };

struct series_style {
    std::string_view colour; // "#0072B2"
    std::string_view dash;   // SVG stroke-dasharray; "" = solid
    marker_shape marker = marker_shape::circle;
    hatch_kind hatch = hatch_kind::none; // white stripes over a bar's colour
};

inline constexpr std::size_t palette_size = 8;

std::string_view palette_colour(std::size_t i); // i modulo palette_size
series_style style(std::size_t i);

} // namespace formatbench::svg

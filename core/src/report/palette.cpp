// Series styles (palette.hpp).
#include "report/palette.hpp"

#include <iterator>

namespace formatbench::svg {
namespace {

// Okabe-Ito: blue, orange, bluish green, vermillion, sky blue, reddish
// purple, black, yellow. Neighbours differ in hue and lightness.
constexpr std::string_view colours[palette_size] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                                    "#56B4E9", "#CC79A7", "#000000", "#F0E442"};
constexpr std::string_view dashes[] = {"", "7,3", "2,2", "8,3,2,3"};
constexpr marker_shape markers[] = {marker_shape::circle, marker_shape::square, marker_shape::diamond,
                                    marker_shape::triangle_up, marker_shape::triangle_down};
constexpr hatch_kind hatches[] = {hatch_kind::none, hatch_kind::diagonal, hatch_kind::crossed};

} // namespace

std::string_view palette_colour(std::size_t i) {
    return colours[i % palette_size];
}

series_style style(std::size_t i) {
    return {colours[i % palette_size], dashes[(i / palette_size) % std::size(dashes)],
            markers[i % std::size(markers)], hatches[(i / palette_size) % std::size(hatches)]};
}

} // namespace formatbench::svg

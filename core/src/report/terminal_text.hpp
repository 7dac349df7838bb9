// Text for a terminal of a given width: how many columns a string takes,
// a label shortened in the middle with an ellipsis, and prose wrapped at
// spaces. Widths count UTF-8 code points (µ, ±, … and × are one column
// each); the text handed in is already escaped (base/text.hpp), so it holds
// no control characters.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace formatbench::detail {

// Columns `s` takes on a terminal.
std::size_t display_width(const std::string& s);

// `s` padded with spaces to `width` columns, on the left when `right`.
std::string pad_to(const std::string& s, std::size_t width, bool right);

// `s` when it fits in `width` columns; otherwise its start and its end with
// "…" between them, `width` columns in all (the start keeps the extra
// column when the two halves differ), so "gfortran (f0.16) / list-directed"
// at 20 is "gfortran (…-directed". Never cuts inside a code point.
std::string shorten_middle(const std::string& s, std::size_t width);
// The same cut after the first `head` columns (at most width - 1): the
// rest of the width keeps the end.
std::string shorten_at(const std::string& s, std::size_t width, std::size_t head);

// `text` broken at spaces into lines of at most `width` columns; lines after
// the first start with `indent`. A word longer than a line stays whole on
// its own line (a path or a URL is not cut). width 0: one line, unchanged.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width,
                                    const std::string& indent = "");

// Like wrap_words, but breaks only after `separator` (the separator stays at
// the end of the line it ends, trailing spaces dropped): the context line
// "host h | CPU | 2 cores | ..." wraps between its parts.
std::vector<std::string> wrap_at(const std::string& text, const std::string& separator, std::size_t width,
                                 const std::string& indent = "");

} // namespace formatbench::detail

// Text as the SVG charts draw it: rich text (plain runs and superscripts,
// for 10^5), an upper estimate of its width, and word wrapping to a width.
// The charts lay themselves out without a browser, so every label, legend
// entry and title is measured here. The estimate uses the advance widths of
// DejaVu Sans (Book and Bold), the first family the charts ask for and the
// widest of the common sans-serif faces, so text drawn in it or in a
// narrower fallback (Verdana, Arial, Helvetica, Liberation Sans) fits the
// room the layout gave it. Kerning only narrows text; it is ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace formatbench::svg {

// The font-family the charts set on every text element.
inline constexpr std::string_view font_family = "DejaVu Sans, Verdana, sans-serif";
// A superscript is drawn at this fraction of its text's size.
inline constexpr double superscript_scale = 0.7;

struct text_run {
    std::string text; // UTF-8
    bool superscript = false;
};

struct rich_text {
    std::vector<text_run> runs;

    rich_text() = default;
    rich_text(std::string plain) { // implicit: plain text is rich text with one run
        if (!plain.empty()) runs.push_back({std::move(plain), false});
    }
    rich_text(const char* plain) : rich_text(std::string(plain)) {}

    rich_text& operator+=(const rich_text& other);
    bool empty() const;
    // The text without markup, superscripts written as "^5" (titles, tooltips).
    std::string plain() const;
};
rich_text operator+(rich_text a, const rich_text& b);
rich_text superscript(std::string text);

// Upper estimate of the advance width of `text` at `size` pixels.
double text_width(const rich_text& text, double size, bool bold = false);

// Splits `text` at spaces into lines no wider than `max_width`; a word wider
// than that alone is broken between characters. Never loses a character
// other than spaces (a run of spaces becomes one, or a line break). Empty
// text gives no line.
std::vector<rich_text> wrap_text(const rich_text& text, double size, double max_width, bool bold = false);

} // namespace formatbench::svg

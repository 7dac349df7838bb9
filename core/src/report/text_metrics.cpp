// Text width estimates and wrapping (text_metrics.hpp).
#include "report/text_metrics.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace formatbench::svg {
namespace {

// Advance widths of U+0020..U+007E in thousandths of an em, rounded up, read
// from the hmtx table of DejaVuSans.ttf and DejaVuSans-Bold.ttf (DejaVu
// fonts 2.37, Debian's fonts-dejavu-core).
constexpr std::uint16_t book[95] = {
    318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361,  318, 337, 637, 637, 637,
    637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531, 1000, 685, 687, 699, 771, 632,
    576, 775, 752, 295, 295, 656, 558, 863, 749, 788, 604, 788, 695, 635,  611, 732, 685, 989, 686,
    611, 686, 391, 337, 391, 838, 500, 500, 613, 635, 550, 635, 616, 353,  635, 634, 278, 278, 580,
    278, 975, 634, 612, 635, 635, 412, 521, 393, 634, 592, 818, 592, 592,  525, 637, 337, 637, 838};
constexpr std::uint16_t bold_widths[95] = {
    349, 457,  521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416,  380, 366, 696, 696,  696,
    696, 696,  696, 696, 696, 696,  696, 400, 400, 838, 838, 838, 581, 1000, 774, 763, 734, 831,  684,
    684, 821,  837, 373, 373, 775,  638, 996, 837, 851, 733, 851, 771, 721,  683, 813, 774, 1104, 771,
    725, 726,  458, 366, 458, 838,  500, 500, 675, 716, 593, 716, 679, 436,  716, 712, 343, 343,  666,
    343, 1042, 712, 688, 716, 716,  494, 596, 479, 712, 652, 924, 646, 652,  583, 712, 366, 712,  838};
// Any other code point: the widest advance of the face (CJK and symbols are
// at most one em; DejaVu's widest Latin glyph is 1.104 em in bold).
constexpr double other_book = 1.0, other_bold = 1.104;

// Decodes one UTF-8 code point at text[i], advancing i; malformed bytes
// count as one unknown character each.
char32_t next_code_point(std::string_view text, std::size_t& i) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
    if (extra <= 0 || i + static_cast<std::size_t>(extra) >= text.size()) {
        ++i;
        return extra == 0 ? b : 0xFFFD;
    }
    char32_t cp = b & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
        const auto c = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
        if ((c & 0xC0) != 0x80) {
            ++i;
            return 0xFFFD;
        }
        cp = (cp << 6) | (c & 0x3F);
    }
    i += static_cast<std::size_t>(extra) + 1;
    return cp;
}

double em_width(char32_t cp, bool bold) {
    if (cp >= 0x20 && cp <= 0x7E) return (bold ? bold_widths : book)[cp - 0x20] / 1000.0;
    switch (cp) {                                // the non-ASCII characters the report itself writes
    case U'\u00b5': return bold ? 0.736 : 0.636; // micro sign
    case U'\u00d7': return 0.838;                // multiplication sign
    case U'\u00b7': return bold ? 0.380 : 0.318; // middle dot
    case U'\u2013': return 0.5;                  // en dash
    case U'\u2026': return 1.0;                  // ellipsis
    case U'\u00b1': return 0.838;                // plus-minus
    default: return bold ? other_bold : other_book;
    }
}

double run_width(std::string_view text, double size, bool bold) {
    double em = 0;
    for (std::size_t i = 0; i < text.size();)
        em += em_width(next_code_point(text, i), bold);
    return em * size;
}

// The text split into words at spaces, each word a rich text of its own.
std::vector<rich_text> words_of(const rich_text& text) {
    std::vector<rich_text> words(1);
    for (const text_run& r : text.runs) {
        if (r.superscript) {
            words.back().runs.push_back(r);
            continue;
        }
        std::string part;
        for (char ch : r.text) {
            if (ch != ' ') {
                part += ch;
                continue;
            }
            if (!part.empty()) words.back().runs.push_back({std::move(part), false});
            part.clear();
            if (!words.back().empty()) words.emplace_back();
        }
        if (!part.empty()) words.back().runs.push_back({std::move(part), false});
    }
    if (words.back().empty()) words.pop_back();
    return words;
}

// Breaks one word wider than max_width between code points.
std::vector<rich_text> break_word(const rich_text& word, double size, double max_width, bool bold) {
    std::vector<rich_text> pieces(1);
    double used = 0;
    for (const text_run& r : word.runs) {
        const double s = r.superscript ? size * superscript_scale : size;
        std::size_t i = 0;
        while (i < r.text.size()) {
            const std::size_t start = i;
            const double w = em_width(next_code_point(r.text, i), bold) * s;
            if (used + w > max_width && !pieces.back().empty()) {
                pieces.emplace_back();
                used = 0;
            }
            rich_text& piece = pieces.back();
            if (piece.runs.empty() || piece.runs.back().superscript != r.superscript)
                piece.runs.push_back({"", r.superscript});
            piece.runs.back().text.append(r.text, start, i - start);
            used += w;
        }
    }
    return pieces;
}

} // namespace

rich_text& rich_text::operator+=(const rich_text& other) {
    for (const text_run& r : other.runs) {
        if (r.text.empty()) continue;
        if (!runs.empty() && runs.back().superscript == r.superscript)
            runs.back().text += r.text;
        else
            runs.push_back(r);
    }
    return *this;
}

bool rich_text::empty() const {
    return std::all_of(runs.begin(), runs.end(), [](const text_run& r) { return r.text.empty(); });
}

std::string rich_text::plain() const {
    std::string out;
    for (const text_run& r : runs)
        out += (r.superscript ? "^" : "") + r.text;
    return out;
}

rich_text operator+(rich_text a, const rich_text& b) {
    a += b;
    return a;
}

rich_text superscript(std::string text) {
    rich_text r;
    if (!text.empty()) r.runs.push_back({std::move(text), true});
    return r;
}

double text_width(const rich_text& text, double size, bool bold) {
    double w = 0;
    for (const text_run& r : text.runs)
        w += run_width(r.text, r.superscript ? size * superscript_scale : size, bold);
    return w;
}

std::vector<rich_text> wrap_text(const rich_text& text, double size, double max_width, bool bold) {
    std::vector<rich_text> lines;
    const double space = run_width(" ", size, bold);
    double used = 0;
    for (const rich_text& word : words_of(text)) {
        const double w = text_width(word, size, bold);
        if (!lines.empty() && used + space + w <= max_width) {
            lines.back() += " " + word;
            used += space + w;
            continue;
        }
        if (w <= max_width) {
            lines.push_back(word);
            used = w;
            continue;
        }
        std::vector<rich_text> pieces = break_word(word, size, max_width, bold);
        used = text_width(pieces.back(), size, bold);
        std::move(pieces.begin(), pieces.end(), std::back_inserter(lines));
    }
    return lines;
}

} // namespace formatbench::svg

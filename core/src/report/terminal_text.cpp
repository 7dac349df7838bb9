// Widths, ellipses and word wrap for terminal text (terminal_text.hpp).
#include "report/terminal_text.hpp"

#include <algorithm>

namespace formatbench::detail {
namespace {

bool continuation(unsigned char ch) {
    return (ch & 0xC0) == 0x80;
}

// The byte offset after the first `columns` code points of `s`.
std::size_t offset_after(const std::string& s, std::size_t columns) {
    std::size_t i = 0;
    for (std::size_t seen = 0; i < s.size(); ++i) {
        if (!continuation(static_cast<unsigned char>(s[i]))) {
            if (seen == columns) break;
            ++seen;
        }
    }
    return i;
}

// Splits `text` into pieces that each end just after a break point (or at
// the end), then packs them into lines; `piece_end` finds the next break.
template <class NextBreak>
std::vector<std::string> pack(const std::string& text, std::size_t width, const std::string& indent,
                              NextBreak next_break) {
    std::vector<std::string> pieces;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = next_break(at);
        pieces.push_back(text.substr(at, end - at));
        at = end;
    }
    std::vector<std::string> lines;
    std::string line;
    auto trimmed = [](std::string s) {
        while (!s.empty() && s.back() == ' ')
            s.pop_back();
        return s;
    };
    for (const std::string& piece : pieces) {
        const std::string prefix = lines.empty() ? "" : indent;
        if (!line.empty() && display_width(prefix + line + trimmed(piece)) > width) {
            lines.push_back(prefix + trimmed(line));
            line.clear();
        }
        if (line.empty()) {
            std::size_t skip = 0; // a line never starts with the spaces of a break
            while (skip < piece.size() && piece[skip] == ' ' && !lines.empty())
                ++skip;
            line = piece.substr(skip);
        } else {
            line += piece;
        }
    }
    if (!line.empty() || lines.empty()) lines.push_back((lines.empty() ? "" : indent) + trimmed(line));
    return lines;
}

} // namespace

std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
        n += !continuation(ch);
    return n;
}

std::string pad_to(const std::string& s, std::size_t width, bool right) {
    const std::string fill(width - std::min(width, display_width(s)), ' ');
    return right ? fill + s : s + fill;
}

std::string shorten_middle(const std::string& s, std::size_t width) {
    return shorten_at(s, width, width == 0 ? 0 : width / 2);
}

std::string shorten_at(const std::string& s, std::size_t width, std::size_t head) {
    const std::size_t have = display_width(s);
    if (have <= width) return s;
    if (width == 0) return "";
    const std::size_t keep = width - 1;
    head = std::min(head, keep);
    const std::size_t tail = keep - head;
    std::string out = s.substr(0, offset_after(s, head));
    out += "\u2026";
    out += s.substr(offset_after(s, have - tail));
    return out;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width, const std::string& indent) {
    if (width == 0) return {text};
    // A piece is a word with the spaces that follow it.
    return pack(text, width, indent, [&](std::size_t at) {
        std::size_t i = text.find(' ', at);
        if (i == std::string::npos) return text.size();
        while (i < text.size() && text[i] == ' ')
            ++i;
        return i;
    });
}

std::vector<std::string> wrap_at(const std::string& text, const std::string& separator, std::size_t width,
                                 const std::string& indent) {
    if (width == 0 || separator.empty()) return {text};
    return pack(text, width, indent, [&](std::size_t at) {
        const std::size_t i = text.find(separator, at);
        return i == std::string::npos ? text.size() : i + separator.size();
    });
}

} // namespace formatbench::detail

// UTF-8 checks and escaping (text.hpp).
#include "base/text.hpp"

#include <cstring>

namespace formatbench {

std::size_t first_invalid_utf8(std::string_view t) {
    std::size_t i = 0;
    while (i < t.size()) {
        auto c = static_cast<unsigned char>(t[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || i + n > t.size() || (n == 2 && c < 0xC2)) return i;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(t[i + k]) & 0xC0) != 0x80) return i;
        auto c1 = static_cast<unsigned char>(t[i + 1 < t.size() ? i + 1 : i]);
        if ((n == 3 && c == 0xE0 && c1 < 0xA0) || (n == 3 && c == 0xED && c1 >= 0xA0) ||
            (n == 4 && c == 0xF0 && c1 < 0x90) || (n == 4 && (c > 0xF4 || (c == 0xF4 && c1 >= 0x90))))
            return i; // overlong, surrogate or beyond U+10FFFF
        i += n;
    }
    return std::string_view::npos;
}

std::string escape_text(std::string_view text) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    auto escaped = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    while (!text.empty()) {
        const std::size_t bad = first_invalid_utf8(text);
        const std::string_view good = text.substr(0, bad);
        for (std::size_t i = 0; i < good.size(); ++i) {
            const auto c = static_cast<unsigned char>(good[i]);
            // C1 controls are U+0080..U+009F, encoded C2 80..C2 9F.
            const bool c1 =
                c == 0xC2 && i + 1 < good.size() && static_cast<unsigned char>(good[i + 1]) < 0xA0;
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
                escaped(c);
            } else if (c1) {
                escaped(c);
                escaped(static_cast<unsigned char>(good[++i]));
            } else {
                out += static_cast<char>(c);
            }
        }
        if (bad == std::string_view::npos) break;
        escaped(static_cast<unsigned char>(text[bad]));
        text.remove_prefix(bad + 1);
    }
    return out;
}

std::string escape_line(std::string_view text) {
    std::string out;
    for (char c : escape_text(text)) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else
            out += c;
    }
    return out;
}

std::string markdown_text(std::string_view text) {
    std::string out;
    for (char c : escape_line(text)) {
        switch (c) {
        case '\\':
        case '|':
        case '`':
        case '*':
        case '_':
            out += '\\';
            out += c;
            break;
        case '(': // "](" would make "[text](url)" a link
            if (!out.empty() && out.back() == ']') out += '\\';
            out += c;
            break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string bounded_string(const char* buffer, std::size_t size) {
    if (!buffer) return {};
    const void* nul = std::memchr(buffer, 0, size);
    return std::string(buffer, nul ? static_cast<const char*>(nul) - buffer : size);
}

std::string shell_word(std::string_view text) {
    constexpr std::string_view plain_characters =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=+@%";
    if (!text.empty() && text.find_first_not_of(plain_characters) == std::string_view::npos)
        return std::string(text);
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
    return out + "'";
}

} // namespace formatbench

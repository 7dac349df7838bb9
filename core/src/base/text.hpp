// Text that comes from outside (a plugin's messages and descriptor strings, a
// study's labels) before it is stored or shown: UTF-8 checked, and escaped
// where it is not valid or holds control characters, so a record stays JSON
// and a terminal never receives an escape sequence it did not ask for.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace formatbench {

// The offset of the first byte that is not part of valid UTF-8 (overlong
// forms, surrogates and code points beyond U+10FFFF are invalid), or npos.
std::size_t first_invalid_utf8(std::string_view text);

// Valid UTF-8 is kept; every byte that is not, and every control character
// (C0 but newline and tab, DEL, C1), becomes "\xHH".
std::string escape_text(std::string_view text);

// escape_text for a message that must stay on one line: newline and tab
// become "\n" and "\t" too.
std::string escape_line(std::string_view text);

// escape_line for Markdown (a table cell, a list item): also every
// character Markdown or the HTML it may hold would read as markup is made
// literal ('\\', '|', '`', '*', '_' and the '(' of "](" with a backslash;
// '<', '>', '&' as entities), so a label cannot become a link, a script or
// another table cell; "[2.00, 20.0]" stays as it is.
std::string markdown_text(std::string_view text);

// A C string from a buffer of `size` bytes that a plugin may have left
// without its NUL: read up to the first NUL or the end, never beyond.
std::string bounded_string(const char* buffer, std::size_t size);

// `text` as one word of a shell command line (a command the user may copy):
// unchanged when it holds only characters no shell treats specially, else in
// single quotes.
std::string shell_word(std::string_view text);

} // namespace formatbench

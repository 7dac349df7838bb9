// The C++ side of a call into fortran_io.f90: a buffer for the runtime's
// message, the runtime's iostat codes, and its message as one line of text
// for the plugin's errors.
#pragma once

#include "fortran_io.h"

#include <cstdint>
#include <string>

namespace formatbench::detail {

// Receives the runtime's message of one failed call.
struct runtime_message {
    char text[1024] = {};
    char* data() noexcept { return text; }
    static constexpr std::int64_t size = sizeof(text);
};

// iso_fortran_env's iostat_end (end of file) and iostat_eor (end of record).
int iostat_end() noexcept;
int iostat_eor() noexcept;
// libgfortran's LIBERROR_OS (libgfortran.h): the operating system refused;
// every other positive iostat is the runtime's own (a bad number, a bad
// format, a file structure it cannot read).
inline constexpr int iostat_os_error = 5000;

// The runtime's message on one line: a format error comes as three lines
// (message, format, a caret under the bad character) and becomes
// "message (at character N of the format)".
std::string one_line(const runtime_message& m);

} // namespace formatbench::detail

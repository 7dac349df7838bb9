// Terminal colour (colour.hpp).
#include "base/colour.hpp"

#include "base/launcher.hpp"

#include <unistd.h>

#include <cstdlib>

namespace formatbench {

colour_mode parse_colour_mode(std::string_view word) {
    if (word == "always") return colour_mode::always;
    if (word == "never") return colour_mode::never;
    return colour_mode::automatic;
}

bool colour_wanted(colour_mode mode, int fd) {
    if (mode != colour_mode::automatic) return mode == colour_mode::always;
    if (!::isatty(fd)) return false;
    // Open MPI gives each rank a pseudo-terminal whatever mpirun's own
    // output is (a pipe, a file); the rank cannot see that output, so under
    // a launcher only --color always colours.
    if (launcher_variables_set()) return false;
    if (const char* no = std::getenv("NO_COLOR"); no && *no) return false;
    const char* term = std::getenv("TERM");
    return !(term && std::string_view(term) == "dumb");
}

std::string paint(tone t, std::string_view text, bool on) {
    if (!on) return std::string(text);
    const char* sgr = t == tone::good ? "32" : t == tone::bad ? "1;31" : t == tone::warn ? "33" : "2";
    return std::string("\033[") + sgr + "m" + std::string(text) + "\033[0m";
}

} // namespace formatbench

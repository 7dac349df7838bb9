// Whether and how text for a terminal is coloured: the one place that decides
// (--color auto|always|never, NO_COLOR, TERM) and the one palette of SGR
// escapes. Never colour into a file or a pipe unless told to (always).
#pragma once

#include <string>
#include <string_view>

namespace formatbench {

enum class colour_mode { automatic, always, never };

// "auto", "always", "never"; the CLI checks the word before calling.
colour_mode parse_colour_mode(std::string_view word);

// always: true; never: false; automatic: `fd` is a terminal, no MPI
// launcher started the process (launcher.hpp: Open MPI hands every rank a
// pseudo-terminal even when mpirun's output is piped), NO_COLOR is unset or
// empty (https://no-color.org) and TERM is not "dumb".
bool colour_wanted(colour_mode mode, int fd);

enum class tone { good, bad, warn, faint };

// `text` in the tone's colour when `on`, else `text` unchanged.
std::string paint(tone t, std::string_view text, bool on);

} // namespace formatbench

// Where an output's text goes: a file, written so that no reader ever sees
// half of it, or standard output. What the user named is respected: an
// existing regular file is replaced atomically (a temporary file beside it,
// then rename), but a path that is not a regular file (a character device
// such as /dev/null, a FIFO, a symbolic link) is written through, never
// replaced. A failed write, also to standard output (a full disk, a closed
// pipe), is an error naming the path.
#pragma once

#include <string>

namespace formatbench {

// "" or "-" is standard output. Throws std::runtime_error naming the path.
void write_output_file(const std::string& path, const std::string& text);

// Checks, before anything runs, that `path` can be written: not a folder,
// and an existing, writable folder to hold it. Throws usage_error naming
// `what` (e.g. "--json") and the path.
void check_output_path(const std::string& path, const std::string& what);

// Flushes standard output; throws std::runtime_error when anything written
// to it was lost (a full disk, a closed pipe, /dev/full).
void flush_standard_output();

} // namespace formatbench

// Progress on standard error while a study runs (docs/cli.md, "Progress"):
// a status line redrawn in place on a terminal (bar), or one line per
// finished case (lines), each with the time spent and the time left (ETA);
// with `verbose`, one line per repetition as well.
#pragma once

#include "run/observer.hpp"

#include <memory>

namespace formatbench {

enum class progress_mode { bar, lines, none };

struct progress_options {
    progress_mode mode = progress_mode::lines;
    bool verbose = false; // a line per repetition with its write and read times
    bool colour = false;  // SGR colours in what is printed (the caller decides: base/colour.hpp)
};

std::unique_ptr<observer> make_progress(const progress_options& options);

} // namespace formatbench

// Progress on standard error while a study runs: one line per finished case
// with its median times, or its status and reason.
#pragma once

#include "run/observer.hpp"

#include <memory>

namespace formatbench {

std::unique_ptr<observer> make_progress_lines();

} // namespace formatbench

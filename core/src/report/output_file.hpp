// Writes a run's results to the outputs a study or the command line asks
// for. Files are written to a temporary name and renamed, so no reader ever
// sees half a file.
#pragma once

#include "results/result.hpp"

#include <string>
#include <vector>

namespace formatbench {

// Writes `text` to `path` atomically (PATH.tmp-PID, then rename).
void write_file_atomically(const std::string& path, const std::string& text);

// Renders every output; "" or "-" as path means standard output.
void write_outputs(const study_result& result, const std::vector<output_spec>& outputs);

} // namespace formatbench

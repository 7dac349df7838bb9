// The concrete reporters, one per file (console.cpp, json.cpp, csv.cpp,
// markdown.cpp); the output table (outputs.cpp) names them.
#pragma once

#include "report/reporter.hpp"

#include <memory>

namespace formatbench::detail {

std::unique_ptr<reporter> make_console_reporter();
std::unique_ptr<reporter> make_json_reporter();
std::unique_ptr<reporter> make_csv_reporter();
std::unique_ptr<reporter> make_markdown_reporter();

} // namespace formatbench::detail

// The concrete reporters, one per file (console.cpp, json.cpp, csv.cpp,
// markdown.cpp); the output table (outputs.cpp) names them.
#pragma once

#include "report/reporter.hpp"

#include <memory>

namespace formatbench::detail {

std::unique_ptr<reporter> make_console_reporter(const render_options& style);
std::unique_ptr<reporter> make_json_reporter(const render_options& style); // the record: style ignored
std::unique_ptr<reporter> make_csv_reporter(const render_options& style);
std::unique_ptr<reporter> make_markdown_reporter(const render_options& style);

} // namespace formatbench::detail

// make_reporter: the reporter for an output format name.
#include "report/reporter.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "report/reporters.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace formatbench {

std::unique_ptr<reporter> make_reporter(std::string_view format) {
    if (format == "console") return detail::make_console_reporter();
    if (format == "json") return detail::make_json_reporter();
    if (format == "csv") return detail::make_csv_reporter();
    if (format == "markdown") return detail::make_markdown_reporter();
    const std::vector<std::string> known = {"console", "json", "csv", "markdown"};
    throw usage_error(fmt::format("unknown report format '{}'{}; known formats: {}", format,
                                  did_you_mean(format, known), join(known)));
}

} // namespace formatbench

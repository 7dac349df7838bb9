// The reporters share one interface and write to a stream: console (fmt),
// JSON, CSV (RFC 4180) and Markdown.
#pragma once

#include "results/result.hpp"

#include <memory>
#include <ostream>
#include <string_view>

namespace formatbench {

class reporter {
public:
    virtual ~reporter() = default;
    virtual void write(const study_result& result, std::ostream& out) const = 0;
};

// "console", "json", "csv", "markdown"; throws usage_error for another name.
std::unique_ptr<reporter> make_reporter(std::string_view format);

} // namespace formatbench

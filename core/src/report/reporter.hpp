// The reporters share one interface and write a whole record to a stream:
// console (fmt), JSON, CSV (RFC 4180) and Markdown. The output table
// (outputs.hpp) makes them observers that write when a run ends.
#pragma once

#include "report/units.hpp"
#include "results/result.hpp"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace formatbench {

// How the human-readable outputs print: colour (console only; the caller
// decides, base/colour.hpp) and the throughput unit (console, CSV, Markdown).
// The console's layout (report/table_layout.hpp): `width` columns (0:
// unlimited) and the columns chosen (empty: the default view).
struct render_options {
    bool colour = false;
    rate_unit units = rate_unit::si;
    std::size_t width = 0;
    std::vector<std::string> columns;
};

class reporter {
public:
    virtual ~reporter() = default;
    virtual void write(const study_result& result, std::ostream& out) const = 0;
};

} // namespace formatbench

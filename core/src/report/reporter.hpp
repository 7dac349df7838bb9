// The reporters share one interface and write a whole record to a stream:
// console (fmt), JSON, CSV (RFC 4180) and Markdown. The output table
// (outputs.hpp) makes them observers that write when a run ends.
#pragma once

#include "report/units.hpp"
#include "results/result.hpp"

#include <memory>
#include <ostream>

namespace formatbench {

// How the human-readable outputs print: colour (console only; the caller
// decides, base/colour.hpp) and the throughput unit (console, CSV, Markdown).
struct render_options {
    bool colour = false;
    rate_unit units = rate_unit::si;
};

class reporter {
public:
    virtual ~reporter() = default;
    virtual void write(const study_result& result, std::ostream& out) const = 0;
};

} // namespace formatbench

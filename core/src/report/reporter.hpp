// The reporters share one interface and write a whole record to a stream:
// console (fmt), JSON, CSV (RFC 4180) and Markdown. The output table
// (outputs.hpp) makes them observers that write when a run ends.
#pragma once

#include "results/result.hpp"

#include <memory>
#include <ostream>

namespace formatbench {

class reporter {
public:
    virtual ~reporter() = default;
    virtual void write(const study_result& result, std::ostream& out) const = 0;
};

} // namespace formatbench

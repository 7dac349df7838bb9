// Names of the result enumerations, as they appear in the JSON record and reports.
#include "results/result.hpp"

namespace formatbench {

const char* to_string(case_status s) noexcept {
    switch (s) {
    case case_status::ok: return "ok";
    case case_status::failed: return "failed";
    case case_status::crashed: return "crashed";
    case case_status::timeout: return "timeout";
    case case_status::skipped: return "skipped";
    }
    return "?";
}

} // namespace formatbench

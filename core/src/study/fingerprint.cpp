// The named values of a case and of a study (fingerprint.hpp).
#include "study/fingerprint.hpp"

#include "study/fields.hpp"
#include "study/identity.hpp"

#include <fmt/format.h>

namespace formatbench::detail {

named_values case_values(const case_spec& c) {
    named_values v;
    for (const auto& f : dataset_fields())
        if (f.text) v.emplace_back("dataset." + f.key, f.text(c.dataset));
    v.emplace_back("format.label", c.format.label);
    v.emplace_back("format.plugin", c.format.plugin);
    v.emplace_back("format.options", canonical_options(c.format.options));
    v.emplace_back("format.tolerance",
                   fmt::format("abs={},rel={}", c.format.tolerance.abs, c.format.tolerance.rel));
    for (const auto& f : run_fields())
        if (f.text) v.emplace_back("run." + f.key, f.text(c.params));
    v.emplace_back("key", c.key);
    return v;
}

named_values study_values(const study& s) {
    named_values v;
    for (const auto& f : study_fields())
        if (f.text) v.emplace_back(f.key, f.text(s));
    v.emplace_back("baseline", s.baseline);
    return v;
}

} // namespace formatbench::detail

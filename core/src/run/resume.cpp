// Which finished cases --resume keeps (resume.hpp).
#include "run/resume.hpp"

#include "base/error.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>

#include <map>

namespace formatbench {
namespace {

// The first run parameter in which two cases of the same key differ, as
// "repeat is 10 in this study and 5 in FILE"; "" when none does.
std::string first_difference(const case_spec& now, const case_spec& before, const std::string& file) {
    for (const auto& f : run_fields())
        if (!f.same(now.params, before.params))
            return fmt::format("{} is {} in this study and {} in '{}'", f.key, f.text(now.params),
                               f.text(before.params), file);
    return {};
}

} // namespace

std::map<std::string, case_result> cases_to_resume(const study& s, const results_source& from,
                                                   const resume_options& options) {
    std::map<std::string, const case_spec*> planned;
    for (const auto& c : s.cases)
        planned.emplace(c.key, &c);
    std::map<std::string, case_result> keep;
    for (const case_result& r : from.cases) {
        auto it = planned.find(r.spec.key);
        if (it == planned.end()) {
            if (options.reuse_matching) continue;
            throw usage_error(fmt::format("--resume {}: it holds case '{} | {}' (key {}), which this study "
                                          "does not plan: it was made by "
                                          "another study or other values (count, options, ...); resume it "
                                          "with the study that made it, or "
                                          "add --reuse-matching to keep only the cases that match",
                                          from.path, r.spec.dataset.name, r.spec.format.label, r.spec.key));
        }
        if (const std::string diff = first_difference(*it->second, r.spec, from.path); !diff.empty()) {
            if (options.reuse_matching) continue;
            throw usage_error(
                fmt::format("--resume {}: case {} ({} | {}): {}; resume it with the study that made "
                            "it, or add --reuse-matching to run such cases again",
                            from.path, it->second->index, r.spec.dataset.name, r.spec.format.label, diff));
        }
        if (r.status == case_status::skipped) continue;
        if (r.status != case_status::ok && options.retry_failed) continue;
        keep[r.spec.key] = r;
    }
    return keep;
}

} // namespace formatbench

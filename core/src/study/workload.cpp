// The phases of a study's workload against its cases (workload.hpp).
#include "study/workload.hpp"

#include "base/suggest.hpp"
#include "study/identity.hpp"
#include "study/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace formatbench {

bool phase_matches(const workload_phase& w, const run_params& p) {
    for (const std::string& key : w.keys) {
        const field<run_params>* f = find_field(run_fields(), key);
        if (!f || !f->applies(p) || !f->same(w.params, p)) return false;
    }
    return true;
}

std::string phase_text(const workload_phase& w) {
    std::string out;
    for (const field<run_params>* f : work_fields_named(work_side::read))
        if (std::find(w.keys.begin(), w.keys.end(), f->key) != w.keys.end())
            out.append(out.empty() ? "" : ", ").append(f->label_prefix).append(f->text(w.params));
    return out;
}

std::string phase_path(const workload_spec& w, const workload_phase& p) {
    if (&p == &w.write) return "workload.write";
    return fmt::format("workload.reads[{}]", static_cast<std::size_t>(&p - w.reads.data()));
}

namespace {

// The work of `p` on `side` as row labels name it, for messages: a read's
// access pattern, the keys not at their default, and its cache state
// ("random, block 1MiB, cold"); a write's chunk and the keys not at their
// default ("whole, sync data").
std::string work_text(const run_params& p, work_side side) {
    const run_params defaults;
    std::vector<std::string> parts;
    auto add = [&](const field<run_params>& f) { parts.push_back(f.label_prefix + f.text(p)); };
    const std::string always = side == work_side::read ? "access" : "chunk";
    add(*find_field(run_fields(), always));
    for (const field<run_params>* f : work_fields(side))
        if (f->key != always && f->key != "cache" && f->applies(p) && !f->same(p, defaults) &&
            (side == work_side::write || f->read_side))
            add(*f);
    if (side == work_side::read) add(*find_field(run_fields(), "cache"));
    return join(parts);
}

void check_phase(const study& s, const workload_phase& w, work_side side) {
    const std::string where = fmt::format("{}{}", w.origin.empty() ? s.source : w.origin, ": ");
    const std::string path = phase_path(s.workload, w);
    // By data set and format (plugin and options): the first matching case.
    std::map<std::string, const case_spec*> first;
    bool any = false;
    for (const case_spec& c : s.cases) {
        if (!phase_matches(w, c.params)) continue;
        any = true;
        const std::string format =
            c.dataset.name + "|" + c.format.plugin + "|" + canonical_options(c.format.options);
        const auto [at, inserted] = first.emplace(format, &c);
        if (inserted || same_work(at->second->params, c.params, side)) continue;
        const run_params &a = at->second->params, &b = c.params;
        const std::string& first_label = at->second->format.label;
        const std::string names = first_label == c.format.label
                                      ? first_label
                                      : fmt::format("{} and {}", first_label, c.format.label);
        for (const field<run_params>* f : work_fields(side)) {
            if (!(f->applies(a) || f->applies(b)) || (f->applies(a) == f->applies(b) && f->same(a, b)))
                continue;
            auto value = [&](const run_params& p) {
                return f->applies(p) ? f->text(p) : std::string("none");
            };
            throw config_error(fmt::format("{}{}: names cases of {} that differ in {} ({} and {}); add '{}:' "
                                           "to say which",
                                           where, path, names, f->key, value(a), value(b), f->key));
        }
    }
    if (any) return;
    std::set<std::string> seen;
    std::vector<std::string> kinds;
    for (const case_spec& c : s.cases)
        if (seen.insert(work_text(c.params, side)).second) kinds.push_back(work_text(c.params, side));
    if (kinds.size() > 8) kinds.resize(8), kinds.push_back("...");
    for (std::string& k : kinds)
        k = fmt::format("({})", k);
    throw config_error(fmt::format("{}{}: names no case of the study ({}); the cases {}: {}", where, path,
                                   phase_text(w), side == work_side::read ? "read" : "write", join(kinds)));
}

} // namespace

void check_workload(const study& s) {
    if (!s.workload.given) return;
    if (s.workload.write.weight > 0) check_phase(s, s.workload.write, work_side::write);
    for (const workload_phase& r : s.workload.reads)
        check_phase(s, r, work_side::read);
}

} // namespace formatbench

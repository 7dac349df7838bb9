// The work a case does (work.hpp).
#include "study/work.hpp"

#include <algorithm>

namespace formatbench {

bool defines_work(const field<run_params>& f) {
    return (f.identity & (identity_always | identity_when_set)) != 0;
}

std::vector<const field<run_params>*> work_fields(work_side side) {
    std::vector<const field<run_params>*> out;
    for (const auto& f : run_fields())
        if (defines_work(f) && (side == work_side::read || !f.read_side)) out.push_back(&f);
    return out;
}

std::vector<const field<run_params>*> work_fields_named(work_side side) {
    std::vector<const field<run_params>*> out = work_fields(side);
    std::stable_partition(out.begin(), out.end(),
                          [](const field<run_params>* f) { return f->key.rfind("access", 0) == 0; });
    return out;
}

bool same_work(const run_params& a, const run_params& b, work_side side) {
    for (const field<run_params>* f : work_fields(side))
        if ((f->applies(a) || f->applies(b)) && (f->applies(a) != f->applies(b) || !f->same(a, b)))
            return false;
    return true;
}

std::string work_key(const run_params& p, work_side side) {
    std::string key;
    for (const field<run_params>* f : work_fields(side))
        if (f->applies(p))
            key.append(key.empty() ? "" : ",").append(f->key).append("=").append(f->identity_text(p));
    return key;
}

} // namespace formatbench

// Sweep expansion: a study value given as a list becomes one "axis"; axes
// multiply (cartesian product) into specs. Used by config.cpp for datasets,
// formats and run parameters.
#pragma once

#include "base/error.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace formatbench::detail {

// Upper bound on the cases a study may expand to: a typo like
// `count: [1e3, 1e6]` repeated in ten places must not hang `plan`.
inline constexpr std::size_t max_cases = 100000;

// One key's values. A key given as a single value is an axis of one value
// and does not count as swept (it adds nothing to labels).
template <class Spec>
struct axis {
    std::string key;                               // as in the study: "count", "level"
    std::vector<std::string> texts;                // each value as written, for labels
    std::vector<std::function<void(Spec&)>> apply; // sets the value on a spec
    bool swept() const noexcept { return apply.size() > 1; }
};

template <class Spec>
struct expanded {
    Spec spec;
    std::vector<std::pair<std::string, std::string>> swept; // (key, text) of the swept axes, in axis order
};

// The cartesian product of `axes` applied to `base`. The first axis is the
// outermost loop, so the result lists the first axis's first value with every
// combination of the others before its second value. Throws usage_error when
// the product exceeds max_cases (`what` names the thing being expanded).
template <class Spec>
std::vector<expanded<Spec>> cartesian(const Spec& base, const std::vector<axis<Spec>>& axes,
                                      const std::string& what) {
    std::size_t total = 1;
    for (const auto& a : axes) {
        total *= a.apply.empty() ? 1 : a.apply.size();
        if (total > max_cases)
            throw usage_error(what + ": the sweep expands to more than " + std::to_string(max_cases) +
                              " combinations");
    }
    std::vector<expanded<Spec>> out{{base, {}}};
    for (const auto& a : axes) {
        if (a.apply.empty()) continue;
        std::vector<expanded<Spec>> next;
        next.reserve(out.size() * a.apply.size());
        for (const auto& e : out)
            for (std::size_t i = 0; i < a.apply.size(); ++i) {
                expanded<Spec> copy = e;
                a.apply[i](copy.spec);
                if (a.swept()) copy.swept.emplace_back(a.key, a.texts[i]);
                next.push_back(std::move(copy));
            }
        out = std::move(next);
    }
    return out;
}

} // namespace formatbench::detail

// Value syntaxes of study files: how a scalar is read (nullopt when it does
// not fit), what a valid one looks like (for messages), the choices (for a
// "did you mean") and the canonical text it is written back as (plan, the
// resolved study, case identities). The field tables (fields.hpp) pair one
// syntax with each key.
#pragma once

#include "base/dtype.hpp"
#include "study/study.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

template <class T>
struct syntax {
    std::function<std::optional<T>(const std::string&)> parse;
    std::string expected;
    std::vector<std::string> choices = {};
    std::function<std::string(const T&)> text = {}; // canonical and re-readable
};

namespace syntaxes {

// "1000000", "1e6", "10**6", "1_000_000": a whole number >= 0.
extern const syntax<std::uint64_t> count;
// A finite number: "0.5", "-1e3".
extern const syntax<double> real;
// A whole number with a sign: "-5", "100".
extern const syntax<std::int64_t> integer;
extern const syntax<bool> boolean;
// A byte size (fb_parse_size) or "whole" (0); written exactly: "64KiB", "1000000", "whole".
extern const syntax<std::uint64_t> chunk;
// A byte offset below 1 MiB.
extern const syntax<std::uint64_t> align;
// Seconds, >= 0: "0.5", "500ms", "2s".
extern const syntax<double> duration;
// Seconds, > 0.
extern const syntax<double> timeout;
extern const syntax<dtype> data_type;
// Any scalar, as written.
extern const syntax<std::string> text;

// A whole number in [minimum, 10^9].
syntax<unsigned> bounded(unsigned minimum, std::string expected);
// A number of repetitions, 1 or more, or "auto" (0).
syntax<unsigned> repeat_count();
// A fraction more than 0: "0.1", "10%".
syntax<double> fraction();

// One of an enumeration's values (an all_* array of study.hpp), by to_string().
template <class E, std::size_t N>
syntax<E> choice(const E (&values)[N]);

} // namespace syntaxes

// The names of an enumeration's values.
template <class E, std::size_t N>
std::vector<std::string> choice_names(const E (&values)[N]) {
    std::vector<std::string> out;
    for (E v : values)
        out.emplace_back(to_string(v));
    return out;
}

template <class E, std::size_t N>
syntax<E> syntaxes::choice(const E (&values)[N]) {
    std::vector<E> all(values, values + N);
    auto names = choice_names(values);
    std::string expected = "one of ";
    for (std::size_t i = 0; i < names.size(); ++i)
        expected += (i ? ", " : "") + names[i];
    return {[all](const std::string& s) -> std::optional<E> {
                for (E v : all)
                    if (s == to_string(v)) return v;
                return std::nullopt;
            },
            expected, names, [](const E& v) { return std::string(to_string(v)); }};
}

} // namespace formatbench

// The study vocabulary: one table per section of a study file, one row per
// key, and everything the key means beyond the reader: its value syntax, its
// default (the member's value in a default-constructed spec), whether and
// when it is part of a case's identity, its name in the JSON record and CSV,
// and how plan and the console tables show it. The reader, --set, the
// resolved study, plan, case identities, the JSON record, CSV columns and
// row labels all walk these tables, so a new run parameter is one member of
// run_params, one row in fields.cpp, and its use.
#pragma once

#include "study/study.hpp"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// When a key is part of a case's identity (docs/config.md, "Case keys").
enum identity_rule : unsigned {
    identity_never = 0,
    identity_always = 1,
    identity_when_set = 2,    // only when not the default (older keys stay valid)
    identity_when_varied = 4, // only when cases of the same data set and format differ in it
};

template <class Spec>
struct field {
    std::string key;       // in the study file
    std::string json_name; // in the JSON record and CSV (units in the name: _bytes, _s)
    unsigned identity = identity_never;
    std::string identity_name; // in case identities and keys ("dist" for distribution)
    std::string column;        // plan's column header; "" = shown under the table when all cases agree
    std::string label_prefix;  // how row labels name a differing value: "chunk " + "64KiB"
    std::string expected;      // what a valid value looks like, for messages
    std::vector<std::string> choices;
    // The setter for a value as written, or nullopt when it does not fit.
    std::function<std::optional<std::function<void(Spec&)>>(const std::string&)> parse;
    std::function<std::string(const Spec&)> text;          // canonical, re-readable ("64KiB", "warm")
    std::function<std::string(const Spec&)> identity_text; // exact ("65536"); text when not given
    std::function<bool(const Spec&, const Spec&)> same;    // equal values
    std::function<nlohmann::json(const Spec&)> to_json;
    // Sets the value from the record; throws std::invalid_argument saying
    // what was expected.
    std::function<void(Spec&, const nlohmann::json&)> from_json;
    // Records written before the key existed lack it: the default is assumed.
    bool json_optional = false;
    // Run parameters: only the READ phase depends on it (cache, access, ...),
    // so cases that differ only in such keys wrote the same way
    // (study/work.hpp).
    bool read_side = false;
    // Whether the key means anything for this spec (mean: only for normal data).
    std::function<bool(const Spec&)> applies = [](const Spec&) { return true; };
};

// Run parameters: under `defaults:` and in any format, each may be swept.
// Their order is the order in which swept run parameters multiply (first =
// outermost), of identities, plan columns and CSV columns.
const std::vector<field<run_params>>& run_fields();
// The generated-data keys of a dataset (name and from_file are read apart).
const std::vector<field<dataset_spec>>& dataset_fields();
// The study-wide settings that are plain scalars (directory, schedule, ...).
const std::vector<field<study>>& study_fields();

template <class Spec>
const field<Spec>* find_field(const std::vector<field<Spec>>& table, const std::string& key) {
    for (const auto& f : table)
        if (f.key == key) return &f;
    return nullptr;
}

template <class Spec>
std::vector<std::string> field_keys(const std::vector<field<Spec>>& table) {
    std::vector<std::string> keys;
    for (const auto& f : table)
        keys.push_back(f.key);
    return keys;
}

} // namespace formatbench

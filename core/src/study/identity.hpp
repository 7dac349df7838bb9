// Case identities: what makes two cases the same measurement, so that
// --resume skips what a log already holds and compare pairs the cases of two
// runs. An identity is a list of named, canonical values in a fixed order
// (docs/config.md, "Case keys"): the data set (name, dtype, count, and how it
// is made or where it is read from), the format (label, plugin, options in
// name order) and the run parameters whose field rule (fields.hpp) includes
// them. Names are "group.name": dataset.*, data.*, format.*, run.*.
#pragma once

#include "study/study.hpp"

#include <string>
#include <vector>

namespace formatbench {

// Sets identity and key of every case. Run parameters that are part of an
// identity only when they vary (repeat, warm-up, ...) are included when cases
// of the same data set and format label differ in them.
void assign_identities(std::vector<case_spec>& cases);

// Whether two run parameter sets differ, and only in keys that mean nothing
// for them (fields.hpp `applies`: access_axis of a random read, access_block
// of a whole read). A sweep that crosses such a key with the one that turns
// it off (access: [random, plane] with access_axis: [0, 1, 2]) gives such
// cases: one measurement, kept once.
bool differ_only_where_void(const run_params& a, const run_params& b);

// The text form: "NAME/DTYPE/COUNT/DATA|LABEL/PLUGIN/OPTIONS|RUN", e.g.
// "f64-uniform-1e6/f64/1000000/dist=uniform,seed=1|raw/raw/|chunk=0,cache=warm,sync=none".
std::string key_text(const case_identity& id);

// The identity without the format's options: two cases that differ only in
// the options under one label (a changed plugin option) share it.
case_identity without_options(const case_identity& id);

// "a=1,b=2": options sorted by name, the canonical form in identities.
std::string canonical_options(const option_list& options);

} // namespace formatbench

// JSON form of results (the primary, schema-versioned record; see
// docs/results-schema.json) and its reading back, for --resume and compare.
#pragma once

#include "results/result.hpp"

#include <nlohmann/json.hpp>

namespace formatbench {

// 2: the study's `schedule` and `shuffle_seed` replace `interleave`. Records
// of version 1 are still read. 3: MPI ranks. 4: the data set's shape, the
// access pattern's run parameters and a READ phase's per-operation
// latencies ("latency", "iops"); older records lack them and are read. 5:
// each phase sample's accounting (what the process and machine did during
// it), each phase summary's estimate, interval, precision and disturbed
// samples, the case's stop reason and the machine's load; older records
// lack them and are read (their samples count as undisturbed).
inline constexpr int results_schema_version = 5;

nlohmann::json to_json(const case_spec& c);
nlohmann::json to_json(const repetition& r);
nlohmann::json to_json(const verification& v);
nlohmann::json to_json(const case_result& r);
nlohmann::json to_json(const run_context& c);
nlohmann::json to_json(const study& s);
// The whole record: {"schema_version", "context", "study", "cases": [...]}
nlohmann::json to_json(const study_result& r);

case_spec case_spec_from_json(const nlohmann::json& j);
// A case alone, its summary computed under the default noise rules.
case_result case_result_from_json(const nlohmann::json& j);
repetition repetition_from_json(const nlohmann::json& j);
verification verification_from_json(const nlohmann::json& j);
run_context run_context_from_json(const nlohmann::json& j);
study study_from_json(const nlohmann::json& j);
// Throws usage_error with the file name when the document is not a results
// record of a known schema version.
study_result study_result_from_json(const nlohmann::json& j, const std::string& source);

} // namespace formatbench

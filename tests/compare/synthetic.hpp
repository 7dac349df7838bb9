// Synthetic results records for the compare and report tests: cases with
// chosen keys, labels and sample times, no run needed.
#pragma once

#include "results/result.hpp"
#include "results/summary.hpp"

#include <string>
#include <vector>

namespace formatbench::test {

// A case whose write and read times are `write_s` and `read_s` scaled by
// 1 + 0.001 * i for repetition i (distinct values: the exact U test applies).
inline case_result make_case(const std::string& dataset, const std::string& label, double write_s,
                             double read_s, int repetitions = 12, option_list options = {},
                             std::uint64_t chunk = 0) {
    case_result c;
    c.spec.dataset.name = dataset;
    c.spec.dataset.count = 1000000;
    c.spec.format.label = label;
    c.spec.format.base_label = label;
    c.spec.format.plugin = label;
    c.spec.format.options = options;
    c.spec.params.chunk_bytes = chunk;
    std::string opts;
    for (const auto& [k, v] : options)
        opts += (opts.empty() ? "" : ",") + k + "=" + v;
    c.spec.key = dataset + "/f64/1000000/dist=uniform,seed=1|" + label + "/" + label + "/" + opts +
                 "|chunk=" + std::to_string(chunk) + ",cache=warm,sync=none";
    c.payload_bytes = 8000000;
    c.file_bytes = 8000000;
    for (int i = 0; i < repetitions; ++i) {
        repetition r;
        r.write.wall_s = write_s * (1 + 0.001 * i);
        r.read.wall_s = read_s * (1 + 0.001 * i);
        c.samples.push_back(r);
    }
    return c;
}

inline study_result make_result(std::vector<case_result> cases) {
    study_result r;
    r.spec.name = "synthetic";
    r.context.host = "test-host";
    r.context.formatbench_version = "0.0-test";
    for (std::size_t i = 0; i < cases.size(); ++i)
        cases[i].spec.index = i;
    r.cases = std::move(cases);
    summarize_study(r); // as the runner leaves a record
    return r;
}

} // namespace formatbench::test

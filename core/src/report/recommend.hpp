// The one recommendation of a study that states its workload (docs/results.md,
// "The verdict"; study.hpp workload_spec): for each format (plugin and
// options) of a data set, the expected time of the mix, the sum over its
// phases of weight x that format's estimate in the matching group (the
// summary's medians: the pooled write, case_figures::shared_write, and each
// read's case); the format with the least, its file size, the runner-up and
// by how much, and the formats that cannot be picked and why.
#pragma once

#include "results/figures.hpp"
#include "results/result.hpp"

#include <string>
#include <vector>

namespace formatbench::detail {

struct mix_candidate {
    std::string name;      // the labels of the format's cases ("raw / raw-planes")
    double expected_s = 0; // sum of weight x estimate
    // Conservative ends: sum of weight x each estimate's 95% interval end
    // (order statistics); NaN when a phase has no interval.
    double low_s = 0, high_s = 0;
    bool disturbed = false; // a phase's estimate rests on disturbed samples
    std::uint64_t file_bytes = 0;
};

struct mix_recommendation {
    std::vector<mix_candidate> ranked;                             // least expected time first
    std::vector<std::pair<std::string, std::string>> disqualified; // name, why
    std::vector<std::string> left_out;                             // keep no file (the bound)
};

mix_recommendation recommend(const study_result& r, const dataset_group& g);

// The sentence; none when the study states no workload.
std::vector<std::string> recommendation_lines(const study_result& r, const dataset_group& g);

} // namespace formatbench::detail

// The verdict under a data set's table (docs/results.md, "The verdict"): the
// study's question answered in a few sentences, as hyperfine ends with "X
// ran 36.7 ± 2.1 times faster than Y". For each phase, the fastest format
// that keeps a file, how many times faster it is than the baseline and
// than the next format, each factor with its 95% bootstrap interval
// (noise.hpp), and whether the difference to the next is significant (the
// interval excludes 1). Then each speed-up the study says was published
// elsewhere (`published:`), this run's beside it.
#pragma once

#include "results/figures.hpp"
#include "results/result.hpp"

#include <string>
#include <vector>

namespace formatbench::detail {

// One comparison: `faster` against `slower`, in one phase.
struct verdict_factor {
    const case_result* slower = nullptr;
    double value = 0;         // median(slower) / median(faster)
    double low = 0, high = 0; // 95% bootstrap interval; NaN without one
    bool disturbed = false;   // either side's estimate rests on disturbed samples
    bool significant() const { return !disturbed && (low > 1 || high < 1); }
    bool has_interval() const;
};

// The answer of one phase: its fastest case and the two comparisons (null
// `slower` when there is none: no baseline, the fastest is the baseline, or
// no second case).
struct phase_verdict {
    bool write = true;
    const case_result* fastest = nullptr;
    verdict_factor against_baseline, against_next;
    std::vector<const case_result*> left_out; // ok cases that keep no file (the memory bound)
};

// Both phases of a data set, from its ok cases that keep a file; no
// fastest when fewer than two such cases ran.
std::vector<phase_verdict> dataset_verdict(const study_result& r, const dataset_group& g);

// The sentences: one per phase, then one per published speed-up of this
// data set (both formats have an ok case in it).
std::vector<std::string> verdict_lines(const study_result& r, const dataset_group& g);

} // namespace formatbench::detail

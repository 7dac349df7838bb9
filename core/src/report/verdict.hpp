// The verdict under a data set's table (docs/results.md, "The verdict"): the
// study's question answered in a few sentences, as hyperfine ends with "X
// ran 36.7 ± 2.1 times faster than Y". Rows are ranked only against rows
// that did the same work (work_groups.hpp): the writes once per group of
// write-side parameters, the reads once per group of every work parameter
// (access pattern, cache state, ...), each group's sentence led by what
// tells it apart ("read [random, block 4KiB, cold]: ..."). For each group,
// the fastest format that keeps a file, how many times faster it is than
// the baseline (when the baseline is in the group) and than the next format,
// each factor with its 95% interval (noise.hpp), and whether the difference
// to the next is significant (the interval excludes 1); where the formats'
// files differ in size, the trade-off (tradeoff.hpp). Then each speed-up the
// study says was published elsewhere (`published:`), this run's beside it;
// each pair the study names (`pairs:`), one format against the other,
// whichever is faster; and with a `workload:` the one recommendation
// (recommend.hpp).
#pragma once

#include "report/work_groups.hpp"
#include "results/figures.hpp"
#include "results/result.hpp"

#include <string>
#include <vector>

namespace formatbench::detail {

// One comparison: `faster` against `slower`, in one phase.
struct verdict_factor {
    const case_result* slower = nullptr;
    std::string slower_name;  // its name in the group
    double value = 0;         // median(slower) / median(faster)
    double low = 0, high = 0; // 95% interval; NaN without one
    bool disturbed = false;   // either side's estimate rests on disturbed samples
    bool significant() const { return !disturbed && (low > 1 || high < 1); }
    bool has_interval() const;
};

// The answer of one group of one phase: its fastest case and the two
// comparisons (null `slower` when there is none: no baseline in the group,
// the fastest is the baseline, or no second case).
struct phase_verdict {
    bool write = true;
    std::string heading; // work_group::heading
    const case_result* fastest = nullptr;
    std::string fastest_name;
    bool fastest_is_baseline = false;
    verdict_factor against_baseline, against_next;
    std::vector<const case_result*> left_out; // ok cases that keep no file (the memory bound)
};

// Every group of a data set, the writes first, each from its ok cases that
// keep a file; a group where fewer than two such formats ran has none.
std::vector<phase_verdict> dataset_verdict(const study_result& r, const dataset_group& g);

// The sentences: per group its ranking and trade-off, then the formats
// left out, one per published speed-up of this data set (both formats have
// an ok case in it), and the workload's recommendation unless
// `with_recommendation` is false (the HTML report shows it apart, first).
std::vector<std::string> verdict_lines(const study_result& r, const dataset_group& g,
                                       bool with_recommendation = true);

// "239x [230, 251]".
std::string factor_text(const verdict_factor& f);
// What the interval says: " (not significant: ...)" where it includes 1 or
// rests on disturbed samples; with `always_say`, also " (significant)" and
// where there is none.
std::string significance(const verdict_factor& f, bool always_say);

} // namespace formatbench::detail

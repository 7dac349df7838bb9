// How cost grows, as a number (docs/methodology.md, "Cost model"): when a
// study sweeps `count`, each format's time per phase is fitted as
// t = a + b * count (a: the fixed cost of open, set-up and close; b: the
// cost per value) by least squares weighted by relative error, and the
// counts where one format overtakes another are the crossovers.
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

struct linear_fit {
    double a = 0, b = 0;         // t = a + b * n
    double r2 = 0;               // weighted coefficient of determination
    double max_rel_residual = 0; // max |t - a - b n| / t
};

// Minimises sum(((t_i - a - b n_i) / t_i)^2), i.e. least squares with
// weights 1 / t_i^2, by the normal equations. R^2 = 1 - sum w (t - f)^2 /
// sum w (t - mean_w t)^2 (1 when every t is equal and fitted). nullopt for
// fewer than 2 points, a t that is not positive, or counts all equal.
std::optional<linear_fit> fit_relative(const std::vector<double>& n, const std::vector<double>& t);

// One fitted group: the cases of one format and setting (everything of the
// case key but the data set's name and count) in one phase.
struct cost_fit {
    std::string label;   // the format label, plus what tells groups of one label apart
    std::string setting; // dtype and run parameters, the same for comparable groups
    bool write = true;
    linear_fit fit;
    std::size_t points = 0; // distinct counts
    std::uint64_t min_count = 0, max_count = 0;
};

// The fits of a result, in plan order of their groups, write before read:
// only groups with cases at 3 or more distinct counts (ok cases; median
// time per case).
std::vector<cost_fit> fit_cost_models(const std::vector<case_result>& cases);

// Where two fits of the same phase and setting cross: n* = (a2 - a1) /
// (b1 - b2), when both fixed costs are positive and n* is within a factor
// 2 of the counts both swept. `small` is faster below n*, `large` above it.
struct crossover {
    bool write = true;
    std::string small, large;
    double count = 0;
};

std::optional<double> crossover_count(const linear_fit& f1, const linear_fit& f2);
std::vector<crossover> find_crossovers(const std::vector<cost_fit>& fits);

} // namespace formatbench

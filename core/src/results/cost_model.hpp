// How cost grows, as a number (docs/methodology.md, "Cost model"): when a
// study sweeps `count`, each format's time per phase is fitted as
// t = a + b * count (a >= 0: the fixed cost of open, set-up and close;
// b >= 0: the cost per value) by least squares of the relative error, over
// the widest range of counts whose points all lie within a tolerance of the
// line; the counts where one format overtakes another inside the ranges of
// both fits are the crossovers.
#pragma once

#include "results/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// A fitted point is within this relative distance of its line.
inline constexpr double cost_model_tolerance = 0.15;
// A range the line must follow has at least this many distinct counts.
inline constexpr std::size_t cost_model_min_points = 3;

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

// The same with a >= 0 and b >= 0, as costs are: when the free fit's a is
// negative the line is refitted through the origin (t = b n), when its b is
// negative as a constant (t = a). The objective is convex, so that
// boundary fit is the constrained optimum. nullopt as for fit_relative.
std::optional<linear_fit> fit_relative_nonnegative(const std::vector<double>& n,
                                                   const std::vector<double>& t);

// The widest contiguous range [first, last] of points (n sorted ascending,
// one point per count) with at least `min_points` points whose
// non-negative fit keeps every |t - fit| / t within `tolerance`. Of equally
// wide ranges the one of the largest counts (where the per-value cost has
// settled) is taken. nullopt when no range qualifies.
struct linear_range {
    std::size_t first = 0, last = 0;
    linear_fit fit;
};
std::optional<linear_range> widest_linear_range(const std::vector<double>& n, const std::vector<double>& t,
                                                double tolerance = cost_model_tolerance,
                                                std::size_t min_points = cost_model_min_points);

// One fitted group: the cases of one format and setting (everything of the
// case key but the data set's name and count) in one phase.
struct cost_fit {
    std::string label;   // the format label, plus what tells groups of one label apart
    std::string setting; // dtype and run parameters, the same for comparable groups
    bool write = true;
    // A range of at least cost_model_min_points counts follows the line
    // within cost_model_tolerance. Otherwise fit, points and the valid range
    // are zero, and fit.max_rel_residual is the smallest max residual any
    // such range reached (how far the data are from a line).
    bool linear = false;
    linear_fit fit;
    std::size_t points = 0; // distinct counts fitted (those of the valid range)
    std::uint64_t valid_min_count = 0, valid_max_count = 0;
    std::size_t counts = 0; // distinct counts swept
    std::uint64_t min_count = 0, max_count = 0;
    std::size_t first_case = 0; // index of the group's first case in the cases given
};

// The fits of a result, in plan order of their groups, write before read:
// every group with ok cases at 3 or more distinct counts (the point of a
// count is the median of its cases' median times), linear or not.
std::vector<cost_fit> fit_cost_models(const std::vector<case_result>& cases);

// Where two fits of the same phase and setting cross: n* = (a2 - a1) /
// (b1 - b2), when both are linear and n* lies inside both valid ranges (no
// extrapolation). `small` is faster below n*, `large` above it.
struct crossover {
    bool write = true;
    std::string small, large;
    double count = 0;
};

std::optional<double> crossover_count(const linear_fit& f1, const linear_fit& f2);
std::vector<crossover> find_crossovers(const std::vector<cost_fit>& fits);

} // namespace formatbench

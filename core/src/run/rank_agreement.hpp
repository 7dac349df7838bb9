// Under MPI every rank must run the same expanded study: the same cases in
// the same order with the same parameters, the same selection and resumed
// cases. Ranks started with different studies or --set values (an MPMD
// line: `mpirun -np 1 formatbench run s.yaml : -np 1 formatbench run s.yaml
// --set datasets.0.count=1000`) would otherwise run mismatched cases: a
// mixed record that looks fine, or ranks waiting for each other for ever.
// Before any case the ranks compare a digest of the whole study; when they
// differ they compare the studies and name the first difference.
#pragma once

#include "run/communicator.hpp"
#include "run/study_run.hpp"

#include <string>
#include <vector>

namespace formatbench::detail {

// One line per case, then one for the study's settings, each a list of
// "name=value" fields (names as in the study file: dataset.count,
// format.options, run.chunk, ...): what every rank must hold alike.
std::vector<std::string> study_fingerprint(const study& s, const study_run_options& options);

// The first difference between two fingerprints, for a message: "case 0
// (f64-uniform-1e3 | raw): dataset.count is 1000 on rank 1 and 1000000 on
// rank 0"; "" when they are the same.
std::string first_fingerprint_difference(const std::vector<std::string>& mine, unsigned my_rank,
                                         const std::vector<std::string>& first, unsigned first_rank);

// Collective: returns when every rank holds the same fingerprint; throws
// usage_error on every rank, naming the first rank that differs from rank 0
// and the first difference, otherwise.
void check_ranks_agree(communicator& world, const std::vector<std::string>& fingerprint);

} // namespace formatbench::detail

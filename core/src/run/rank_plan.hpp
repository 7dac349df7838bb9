// Where one process stands among the ranks of an MPI run (one rank without
// MPI) and what that means for a case (docs/mpi.md): which elements of the
// data set it writes and reads back, at which paths, and whom it meets in
// a streamed phase.
//  - scaling weak: each of N ranks handles the study's `count` values, rank
//    r the global elements [r x count, (r + 1) x count); strong: the `count`
//    values are divided, the first count mod N ranks taking one more.
//  - layout file_per_rank: rank r writes PATH.r (PATH itself with one
//    rank); shared_file: every rank writes its slice of PATH through the
//    plugin's shared-file extension (also with one rank, so that the calls
//    measured do not change with N).
//  - read_rank_shift K: rank r reads back the slice (and file) that rank
//    (r + K) mod N wrote.
// Each rank generates its slice at its global offset, so a shared file of N
// ranks is the file one process writes for all the elements.
#pragma once

#include "study/study.hpp"

#include <cstdint>
#include <string>

namespace formatbench {

struct rank_place {
    unsigned rank = 0;
    unsigned size = 1; // ranks in the run
};

// Global elements [offset, offset + count) of the data set.
struct element_slice {
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
};

class rank_meeting; // communicator.hpp

struct rank_plan {
    rank_place where; // this rank among the ranks of the run
    element_slice write, read;
    std::uint64_t total = 0; // elements across all ranks (the shared file's)
    // The most elements any rank writes (or reads: the same slices): rank
    // 0's. Whether a case streams is decided on it, so that every rank
    // streams or none does.
    std::uint64_t widest = 0;
    std::string write_path, read_path;
    // The path this rank removes before each write ("" when another rank
    // does: rank 0 alone removes a shared file).
    std::string remove_path;
    bool shared = false; // write and read through formatbench.part/1
    // Set for a plugin with formatbench.mpi/1: the MPI_Comm its streams open
    // on (every rank's for shared_file, this rank's alone for
    // file_per_rank); its streams are then opened through that extension.
    const void* mpi_comm = nullptr;
    // Set, with several ranks, by whoever runs the case's phases
    // (local_case.cpp): the ranks' untimed meetings in a streamed phase
    // (case_runner.hpp). plan_rank leaves it null.
    rank_meeting* meeting = nullptr;
};

// The slice of rank `r` of `size` ranks for a data set of `count` values.
element_slice rank_slice(scaling_mode scaling, std::uint64_t count, unsigned r, unsigned size);

// What rank `where.rank` does in case `c`, whose data file (with one rank,
// no MPI) is `path`. Throws usage_error when the elements of all ranks do
// not fit in 64 bits.
rank_plan plan_rank(const case_spec& c, rank_place where, const std::string& path);

} // namespace formatbench

// Aggregate bandwidth against the number of MPI ranks, across results
// records: when the records ran on different rank counts (one record per N,
// docs/mpi.md), the cases they share (same data set and row label) become
// lines of throughput against ranks, split into charts of at most
// max_lines_per_chart lines per data set.
#pragma once

#include "results/result.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace formatbench {

struct rank_point {
    unsigned ranks = 1;
    double write_mb_s = 0, read_mb_s = 0; // payload of all ranks / median aggregate time
    std::size_t record = 0;               // where it came from
};

struct rank_line {
    std::string row;                // the case's row label in its data set
    std::vector<rank_point> points; // ascending ranks, at least two distinct
};

struct rank_chart {
    std::string dataset;
    std::size_t part = 1, parts = 1;
    std::vector<rank_line> lines; // at most max_lines_per_chart
};

// One record's ok cases, with their row labels (table.hpp's row_label).
struct rank_record {
    unsigned ranks = 1; // its context's rank count
    std::vector<std::pair<const case_result*, std::string>> cases;
};

// The charts, data sets in first-seen order; empty when the records do not
// span two rank counts. Where two records have the same rank count, the
// first one's case is used.
std::vector<rank_chart> find_rank_scaling(const std::vector<rank_record>& records);

} // namespace formatbench

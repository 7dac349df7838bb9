// Runs the standalone reference program (bench/fortran/stream_io_n.f90) and
// collects the four times it prints; shared by the bench programs that put
// it beside a plugin. Not a test.
#pragma once

#include "results/stats.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace formatbench::bench {

// Runs `exe n passes` in dir and appends to t[0..3] (formatted write, read,
// unformatted write, read, in seconds) the median of the passes after the
// first, or the one pass when `passes` is 1. The first pass of a new
// process also pays the first touches of its memory, which a plugin running
// in a long-lived process does not.
inline void run_fortran_program(const std::string& exe, const std::string& dir, std::size_t n, int passes,
                                std::vector<double> (&t)[4]) {
    const std::string command =
        "cd '" + dir + "' && '" + exe + "' " + std::to_string(n) + " " + std::to_string(passes);
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) throw std::runtime_error("cannot run " + exe);
    std::vector<double> pass_times[4];
    double v[5];
    while (std::fscanf(p, "%lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4]) == 5)
        for (int k = 0; k < 4; ++k)
            pass_times[k].push_back(v[k + 1]);
    const int status = ::pclose(p);
    if (status != 0 || pass_times[0].size() != static_cast<std::size_t>(passes))
        throw std::runtime_error(exe + " failed or did not print " + std::to_string(passes) +
                                 " lines of times");
    for (int k = 0; k < 4; ++k) {
        if (passes > 1) pass_times[k].erase(pass_times[k].begin());
        t[k].push_back(summarize(pass_times[k]).median);
    }
}

} // namespace formatbench::bench

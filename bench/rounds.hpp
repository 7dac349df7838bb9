// The bench's round runner: timed steps grouped so that a figure and its
// reference run back to back, in an order that rotates every round (see
// run_rounds). Shared by the bench programs; not a test.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace formatbench::bench {

using clock_type = std::chrono::steady_clock;

// One timed operation: `before` runs untimed, then `fn` is timed, then
// `after` (a check) runs untimed. A step belongs to a group (the figures
// compared with each other) and to a unit in it: the steps of one unit run
// back to back in stage order (0, 1, 2, ...), so a read (stage 1) comes
// right after the write (stage 0) that made its file, as a study's
// `cache: warm` case does.
struct step {
    step(
        std::string k, std::string g, std::string u, int st, std::function<void()> b, std::function<void()> f,
        std::function<void()> a = [] {})
        : key(std::move(k)), group(std::move(g)), unit(std::move(u)), stage(st), before(std::move(b)),
          fn(std::move(f)), after(std::move(a)) {}
    std::string key;
    std::string group;
    std::string unit;
    int stage;
    std::function<void()> before;
    std::function<void()> fn;
    std::function<void()> after;
    bool rewarms = true; // false: run_rounds does not re-warm this step (it warms itself)
    std::vector<double> seconds;
};

// Runs the steps in rounds: one untimed warm-up round, then `runs` timed
// rounds, each step once per round. A figure and its reference are in one
// group, so they run close together: on this VM the speed of both cores
// drifts by up to 2x within seconds, and a per-round ratio is only as good
// as the two figures are close in time (with a 2.5 s compress2 between
// them, the same from_chars loop took 93-139 ms at 10^7). Within a group
// the order of the units rotates every round, so no unit always runs first
// or right after the same neighbour (after 230 ms of compress2, a read of
// 8 MB was seen to take 10% longer); the groups rotate too.
//
// Each read follows its own write, as in a study's case (`cache: warm`),
// not the other units' writes. In an earlier order (all writes of a group,
// then all reads) the 8 MB files of three other writes came between a
// file's write and its read; with it, mmap read against raw read at 10^6
// was 0.90-0.97 (three runs of 15 rounds), with this order 1.05-1.07.
// Each unit's steps run once untimed right before they run timed (a step
// with `rewarms` false only timed), as a study's re-warm under interleave:
// where memory left alone is slower to touch again (docs/methodology.md,
// "What a phase follows"; bench/phase_context), a unit that follows a long
// one more often than its reference does would otherwise be measured in
// another state.
inline void run_rounds(int runs, std::vector<step>& steps) {
    std::vector<std::string> groups;
    int last_stage = 0;
    for (const auto& s : steps) {
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end()) groups.push_back(s.group);
        last_stage = std::max(last_stage, s.stage);
    }
    for (int round = 0; round <= runs; ++round) {
        const auto r = static_cast<std::size_t>(round);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const std::string& group = groups[(g + r) % groups.size()];
            std::vector<std::string> units;
            for (const auto& s : steps)
                if (s.group == group && std::find(units.begin(), units.end(), s.unit) == units.end())
                    units.push_back(s.unit);
            for (std::size_t u = 0; u < units.size(); ++u) {
                const std::string& unit = units[(u + r) % units.size()];
                for (int pass = 0; pass < 2; ++pass)
                    for (int stage = 0; stage <= last_stage; ++stage)
                        for (auto& s : steps) {
                            if (s.group != group || s.unit != unit || s.stage != stage) continue;
                            if (pass == 0 && !s.rewarms) continue;
                            s.before();
                            auto a = clock_type::now();
                            s.fn();
                            auto b = clock_type::now();
                            s.after();
                            if (round > 0 && pass == 1)
                                s.seconds.push_back(std::chrono::duration<double>(b - a).count());
                        }
            }
        }
    }
}

} // namespace formatbench::bench

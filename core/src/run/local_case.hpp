// A case run by this process: its data source, its runner and the mapping of
// whatever they throw to a step result. The in-process executor calls it
// directly; the forked executor's worker calls it on the parent's behalf.
// Whole repetitions (start runs the warm-ups) or one phase at a time
// (start_phased runs none: the caller drives every repetition).
#pragma once

#include "run/executor.hpp"

#include <memory>
#include <string>

namespace formatbench {

class local_case {
public:
    local_case(const case_spec& spec, const case_environment& env);
    // Given to the case's runner (case_runner::listen); before start.
    void listen(phase_listener l) { listener_ = std::move(l); }
    step_result start(case_setup& setup);
    step_result repetition(repetition_report& report);
    step_result rewarm();
    step_result start_phased(case_setup& setup);
    step_result phase(phase_kind kind, phase_report& report);
    // Facts of what is on disk and the peak memory; never throws.
    case_facts facts() const;
    // Removes the data file this process wrote unless the study keeps files.
    void clean_up() const;

private:
    template <class Fn>
    step_result guarded(Fn&& fn);
    void set_up(case_setup& setup);

    const case_spec& spec_;
    const case_environment& env_;
    const plugin* plugin_ = nullptr;
    rank_plan plan_;
    std::unique_ptr<data_source> source_;
    std::unique_ptr<case_runner> runner_;
    phase_listener listener_;
};

} // namespace formatbench

// Where a case runs. An executor opens one session per case; the session
// drives the case's runner (case_runner.hpp) step by step wherever it lives
// and stays alive for the whole case, whatever the schedule: in this process
// (isolation: none), in a forked worker (isolation: process, the default),
// or nowhere at all (the mock executor, for tests of the runner). The runner
// (runner.hpp) only ever talks to this seam.
#pragma once

#include "host/registry.hpp"
#include "results/result.hpp"
#include "run/case_runner.hpp"
#include "run/communicator.hpp"
#include "run/rank_plan.hpp"
#include "run/run_phase.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace formatbench {

// The outcome of one step; a failed step ends the case with this status.
struct step_result {
    case_status status = case_status::ok;
    std::string error;
    bool ok() const noexcept { return status == case_status::ok; }
};

// What one recorded repetition reports.
struct repetition_report {
    repetition rep;
    verification verify;
};

class case_session {
public:
    virtual ~case_session() = default;
    // Sets the case up (its data, buffers, the plugin) and runs its warm-up
    // repetitions, which are never recorded.
    virtual step_result start(case_setup& setup) = 0;
    // One recorded repetition.
    virtual step_result repetition(repetition_report& report) = 0;
    // One more unrecorded repetition, run before a recorded one that does
    // not directly follow one of its own case (interleave, shuffle), so that
    // every recorded repetition starts from the state its own case left:
    // its buffers and file in the caches, its plugin's pools warm.
    virtual step_result rewarm() = 0;
    // Ends the case: what it left on disk and its peak memory; the data file
    // is removed unless the study keeps files. Called once, also after a
    // failed step (facts are then left as far as known).
    virtual step_result finish(case_facts& facts) = 0;
    // What the case's plugin printed to standard output or error ("" when
    // nothing, or when the executor cannot capture it).
    virtual std::string output() { return {}; }

    // Hears, during start, repetition and rewarm, which phase of a
    // repetition begins (case_runner::listen says when; a forked worker's
    // phases arrive over its pipe). Called on the caller's thread, outside
    // every timed region; unset: nobody hears.
    void listen(phase_listener l) { listener_ = std::move(l); }

protected:
    void announce(run_phase p) const {
        if (listener_) listener_(p);
    }

private:
    phase_listener listener_;
};

class executor {
public:
    virtual ~executor() = default;
    virtual std::unique_ptr<case_session> open(const case_spec& c) = 0;
};

// A case driven one phase at a time, for an executor that puts something
// between the phases: the MPI executor's barriers (mpi_executor.hpp).
enum class phase_kind { remove_previous, write, cache, read };

struct phase_report {
    phase_sample sample;           // write, read
    double started = 0;            // write, read: steady-clock seconds at the phase's start
    double resident_fraction = -1; // cache
    verification verify;           // read
};

class phased_session {
public:
    virtual ~phased_session() = default;
    // Sets the case up, without warm-up repetitions (the caller runs them,
    // phase by phase).
    virtual step_result start(case_setup& setup) = 0;
    virtual step_result phase(phase_kind kind, phase_report& report) = 0;
    virtual step_result finish(case_facts& facts) = 0;
    virtual std::string output() { return {}; }
};

// What the executors that run real plugins need.
struct case_environment {
    const registry* plugins = nullptr;
    std::string directory;             // where data files go
    bool keep_files = false;           // leave each case's data file in place
    std::uint64_t in_memory_bytes = 0; // see case_runner
    rank_place place;                  // this process among the MPI ranks (rank_plan.hpp)
    // Under MPI, for plugins with formatbench.mpi/1 (communicator::mpi_comm):
    // the MPI_Comm of every rank and of this rank alone; null without MPI.
    const void* mpi_world = nullptr;
    const void* mpi_self = nullptr;
    // With several ranks: their meetings in a case's streamed phases
    // (case_runner.hpp), made directly by a case run in this process and
    // through this process by a forked worker's; null for one rank.
    rank_meeting* ranks = nullptr;
    // Polled while a forked worker is busy; true stops it (the step is
    // then `skipped`, "interrupted").
    std::function<bool()> stop_requested = [] { return false; };
};

// Runs each case in this process: no isolation, no timeout.
std::unique_ptr<executor> make_in_process_executor(case_environment env);
// Runs each case in a forked worker that lives for the whole case: a crash,
// hang (the case's timeout), exit() or out-of-memory of the plugin fails that
// case only; what the plugin prints is captured; the worker's own children
// are killed with it.
std::unique_ptr<executor> make_forked_executor(case_environment env);

// The same two ways, phase by phase; `env` must outlive the session.
std::unique_ptr<phased_session> open_phased_in_process(const case_spec& c, const case_environment& env);
std::unique_ptr<phased_session> open_phased_forked(const case_spec& c, const case_environment& env);

// The data file of a case: DIR/case-NNNN-PLUGIN[.EXT].
std::string data_path(const std::string& dir, const case_spec& c, const plugin& p);

} // namespace formatbench

// What a run tells the world, as it happens (like Google Benchmark's
// reporters and hyperfine's exporters): the beginning, each case as it starts
// and ends, each phase of a repetition as it begins, each repetition, and
// the end. Every output (console table,
// progress, JSON Lines log, JSON, CSV, Markdown) is an observer; the runner
// knows none of them. observer_list calls each in turn, and one that throws
// is reported and no longer called: a failing output never stops the run or
// loses the others.
#pragma once

#include "results/result.hpp"
#include "run/run_phase.hpp"

#include <memory>
#include <string>
#include <vector>

namespace formatbench {

struct run_outcome {
    study_result result;                    // context, the study, and every case finished (plan order)
    bool interrupted = false;               // SIGINT or SIGTERM arrived
    bool any_failed = false;                // a case is not ok, or some case did not run
    std::vector<std::string> output_errors; // "json output 'r.json': No space left on device"
};

class observer {
public:
    virtual ~observer() = default;
    // Names it in messages: "json output 'results.json'".
    virtual std::string name() const = 0;
    // The run starts: context and study filled, no cases yet; `to_run` cases
    // will run, `resumed` were taken from an earlier run.
    virtual void begin(const study_result& /*run*/, std::size_t /*to_run*/, std::size_t /*resumed*/) {}
    virtual void case_started(const case_spec& /*c*/) {}
    // A phase of the case begins (run_phase.hpp): warm_up before each
    // unrecorded repetition, then write, read (and verify when the data is
    // compared after the read) in each recorded one. `repetition` is the
    // 0-based index of the recorded repetition under way, or, for warm_up,
    // of the one it precedes. Sent outside the timed regions, but while the
    // case runs (in a forked worker, at the same time): do little here.
    virtual void phase_started(const case_spec& /*c*/, run_phase /*phase*/, std::size_t /*repetition*/) {}
    // A recorded repetition of the case ended; `so_far` holds its samples.
    virtual void repetition_done(const case_result& /*so_far*/) {}
    // The case ended (ok or not). `resumed`: taken from an earlier run, not run now.
    virtual void case_finished(const case_result& /*r*/, bool /*resumed*/) {}
    virtual void end(const run_outcome& /*outcome*/) {}
};

class observer_list {
public:
    void add(std::unique_ptr<observer> o) { observers_.push_back({std::move(o), false}); }
    bool empty() const noexcept { return observers_.empty(); }

    void begin(const study_result& run, std::size_t to_run, std::size_t resumed) {
        each([&](observer& o) { o.begin(run, to_run, resumed); });
    }
    void case_started(const case_spec& c) {
        each([&](observer& o) { o.case_started(c); });
    }
    void phase_started(const case_spec& c, run_phase phase, std::size_t repetition) {
        each([&](observer& o) { o.phase_started(c, phase, repetition); });
    }
    void repetition_done(const case_result& so_far) {
        each([&](observer& o) { o.repetition_done(so_far); });
    }
    void case_finished(const case_result& r, bool resumed) {
        each([&](observer& o) { o.case_finished(r, resumed); });
    }
    // Calls every observer's end, then adds the errors of all to outcome.
    void end(run_outcome& outcome) {
        each([&](observer& o) { o.end(outcome); });
        outcome.output_errors.insert(outcome.output_errors.end(), errors_.begin(), errors_.end());
        errors_.clear();
    }

private:
    template <class Fn>
    void each(Fn&& fn) {
        for (auto& [o, failed] : observers_) {
            if (failed) continue;
            try {
                fn(*o);
            } catch (const std::exception& e) {
                failed = true;
                errors_.push_back(o->name() + ": " + e.what());
            }
        }
    }

    struct entry {
        std::unique_ptr<observer> o;
        bool failed;
    };
    std::vector<entry> observers_;
    std::vector<std::string> errors_;
};

} // namespace formatbench

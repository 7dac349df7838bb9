// The runner's loop over batches and rounds (runner.hpp).
#include "run/runner.hpp"

#include "results/summary.hpp"
#include "run/schedule.hpp"
#include "run/system_info.hpp"
#include "run/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace formatbench {
namespace {

// A case alive in its session.
struct live_case {
    std::size_t position = 0; // in the plan
    std::unique_ptr<case_session> session;
    case_result result;
    double elapsed = 0;         // seconds of recorded write + read
    std::size_t summarized = 0; // samples when its figures were last computed
    bool done = false;
};

class loop {
public:
    loop(const study& s, executor& ex, observer_list& observers, const runner_options& options)
        : study_(s), ex_(ex), observers_(observers), options_(options), results_(s.cases.size()) {}

    bool stopped() const { return stopped_; }
    std::vector<std::optional<case_result>>& results() { return results_; }

    void run(const std::vector<std::size_t>& to_run) {
        std::vector<const case_spec*> specs;
        for (std::size_t pos : to_run)
            specs.push_back(&study_.cases[pos]);
        for (const auto& batch : plan_batches(specs, study_.schedule, options_.in_memory_bytes,
                                              options_.memory_budget, options_.max_alive)) {
            std::vector<live_case> alive;
            for (std::size_t k : batch) {
                if (stop()) break;
                alive.push_back(start(to_run[k]));
            }
            std::vector<std::size_t> active;
            for (std::size_t i = 0; i < alive.size(); ++i)
                if (!alive[i].done) active.push_back(i);
            for (std::uint64_t round = 0; !active.empty() && !stop(); ++round) {
                for (std::size_t i : round_order(study_.schedule, active, study_.shuffle_seed, round)) {
                    if (stop()) break;
                    step(alive[i]);
                }
                std::erase_if(active, [&](std::size_t i) { return alive[i].done; });
            }
            // Interrupted: cases that did not finish are not recorded (a
            // --resume runs them again); their sessions end here.
            for (auto& c : alive)
                if (!c.done) {
                    case_facts ignored;
                    c.session->finish(ignored);
                }
            if (stop()) break;
        }
    }

private:
    bool stop() {
        if (!stopped_ && options_.stop_requested()) stopped_ = true;
        return stopped_;
    }

    live_case start(std::size_t position) {
        const case_spec& spec = study_.cases[position];
        live_case c;
        c.position = position;
        c.result.spec = spec;
        c.result.payload_bytes = spec.dataset.count * dtype_size(spec.dataset.type);
        observers_.case_started(spec);
        c.session = ex_.open(spec);
        // The session's phases go to the observers as the case's whose step
        // runs (the sessions' steps run one at a time, here).
        c.session->listen([this](run_phase p) {
            if (running_) observers_.phase_started(*running_, p, running_repetition_);
        });
        running_ = &spec;
        running_repetition_ = 0;
        case_setup setup;
        const step_result r = c.session->start(setup);
        c.result.buffer_alignment = setup.buffer_alignment;
        c.result.verify.lossless_expected = setup.lossless_expected;
        c.result.plugin_version = setup.plugin_version;
        c.result.plugin_file = setup.plugin_file;
        c.result.plugin_prepare_s = setup.prepare_s;
        if (setup.payload_bytes) c.result.payload_bytes = setup.payload_bytes;
        c.result.ranks = setup.ranks;
        if (!r.ok()) end(c, r);
        return c;
    }

    void step(live_case& c) {
        // Under interleave and shuffle a recorded repetition that does not
        // follow one of its own case is preceded by an unrecorded one, so it
        // finds the caches and the plugin as a sequential run leaves them.
        running_ = &study_.cases[c.position];
        running_repetition_ = c.result.samples.size();
        if (last_ != c.position && study_.schedule != schedule_mode::sequential) {
            if (const step_result w = c.session->rewarm(); !w.ok()) {
                end(c, w);
                return;
            }
        }
        last_ = c.position;
        repetition_report report;
        const step_result r = c.session->repetition(report);
        if (!r.ok()) {
            end(c, r);
            return;
        }
        case_result& res = c.result;
        res.samples.push_back(report.rep);
        c.elapsed += report.rep.write.wall_s + report.rep.read.wall_s;
        // Each repetition is verified on its own; the worst one is kept.
        report.verify.lossless_expected = res.verify.lossless_expected;
        const verification& v = report.verify;
        if (!res.verify.checked || v.outside_tolerance > res.verify.outside_tolerance ||
            (v.outside_tolerance == res.verify.outside_tolerance && v.mismatches > res.verify.mismatches))
            res.verify = v;
        // The figures decide when repeat: auto stops (their precision):
        // summarized after each of the first 16 repetitions, then each time
        // the samples grew by a tenth; a fixed repeat needs them only at
        // the end. Summarizing after every repetition sorted every sample
        // each time: a case of 7,000 quick repetitions under min_time spent
        // 22 s on it for 0.05 s of samples.
        const std::size_t n = res.samples.size();
        if (res.spec.params.repeat == 0 && (n <= 16 || n >= c.summarized + c.summarized / 10)) {
            summarize_case(res, study_.noise_cv, study_.noise_min_samples);
            c.summarized = n;
        }
        observers_.repetition_done(res);
        if (const auto stop = enough_samples(res, c.elapsed, options_.max_repetitions)) {
            res.stop = *stop;
            end(c, {});
        }
    }

    // Ends the case with `r` (ok: it has enough samples).
    void end(live_case& c, const step_result& r) {
        c.done = true;
        case_result& res = c.result;
        case_facts facts;
        const step_result f = c.session->finish(facts);
        if (r.status == case_status::skipped || f.status == case_status::skipped) {
            stopped_ = true; // interrupted: not recorded
            return;
        }
        res.status = r.status;
        res.error = r.error;
        if (r.ok() && !f.ok()) {
            res.status = f.status;
            res.error = f.error;
        }
        res.file_bytes = facts.file_bytes;
        res.peak_rss_bytes = facts.peak_rss_bytes;
        res.output = c.session->output();
        if (res.status == case_status::ok && res.verify.lossless_expected && res.verify.mismatches > 0) {
            res.status = case_status::failed;
            res.error =
                fmt::format("plugin '{}' is lossless with these options, but {} of {} values read back "
                            "differ, the first at element {} (max abs error {:g})",
                            res.spec.format.plugin, res.verify.mismatches, res.verify.compared,
                            res.verify.first_mismatch_index, res.verify.max_abs_error);
        }
        if (res.status == case_status::ok && res.verify.outside_tolerance > 0) {
            res.status = case_status::failed;
            res.error = tolerance_failure(res.verify);
        }
        summarize_case(res, study_.noise_cv, study_.noise_min_samples);
        observers_.case_finished(res, false);
        results_[c.position] = std::move(res);
    }

    const study& study_;
    executor& ex_;
    observer_list& observers_;
    const runner_options& options_;
    std::vector<std::optional<case_result>> results_;
    bool stopped_ = false;
    std::size_t last_ = SIZE_MAX; // the case whose repetition ran last
    // The case whose step runs now, and the index of its recorded
    // repetition under way (or next), for the observers' phase_started.
    const case_spec* running_ = nullptr;
    std::size_t running_repetition_ = 0;
};

} // namespace

run_outcome run_cases(study_result run, executor& ex, observer_list& observers,
                      const runner_options& options) {
    run_outcome outcome;
    outcome.result = std::move(run);
    outcome.result.cases.clear();
    const study& s = outcome.result.spec;
    loop l(s, ex, observers, options);
    std::vector<std::size_t> to_run;
    std::vector<std::size_t> resumed;
    for (std::size_t i = 0; i < s.cases.size(); ++i) {
        if (options.resumed.count(s.cases[i].key))
            resumed.push_back(i);
        else if (options.selected.empty() || options.selected.at(i))
            to_run.push_back(i);
    }
    observers.begin(outcome.result, to_run.size(), resumed.size());
    for (std::size_t i : resumed) {
        case_result r = options.resumed.at(s.cases[i].key);
        r.spec = s.cases[i]; // this study's position and identity
        summarize_case(r, s.noise_cv, s.noise_min_samples);
        observers.case_finished(r, true);
        l.results()[i] = std::move(r);
    }
    l.run(to_run);
    for (auto& r : l.results())
        if (r) outcome.result.cases.push_back(std::move(*r));
    outcome.interrupted = l.stopped();
    for (const auto& r : outcome.result.cases)
        if (r.status != case_status::ok) outcome.any_failed = true;
    if (outcome.interrupted || outcome.result.cases.size() < to_run.size() + resumed.size())
        outcome.any_failed = true;
    summarize_study(outcome.result); // the speed-ups, now that every case has ended
    if (outcome.result.context.load_before >= 0) outcome.result.context.load_after = load_average();
    observers.end(outcome);
    return outcome;
}

} // namespace formatbench

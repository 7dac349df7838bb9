// The runner and its schedules with the mock executor (no plugins, no
// processes): the order of steps of every schedule, warm-ups that never
// become samples, repeat and min_time, the same samples under every
// schedule, a failing start or repetition, a timeout, interruption, resume,
// lossless mismatches, batches, and observers that fail. Expected traces and
// counts are written out by hand.
#include "run/mock_executor.hpp"
#include "run/process_probe.hpp"
#include "run/runner.hpp"
#include "run/schedule.hpp"
#include "study/identity.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fb = formatbench;
using strings = std::vector<std::string>;

namespace {

// A study of n cases ("c0", "c1", ...), each with the given repeat and warm-up.
fb::study study_of(std::size_t n, unsigned repeat, unsigned warmup,
                   fb::schedule_mode mode = fb::schedule_mode::sequential) {
    fb::study s;
    s.schedule = mode;
    for (std::size_t i = 0; i < n; ++i) {
        fb::case_spec c;
        c.index = i;
        c.dataset.name = "d";
        c.dataset.count = 1000;
        c.format.label = c.format.plugin = "c" + std::to_string(i);
        c.params.repeat = repeat;
        c.params.warmup = warmup;
        s.cases.push_back(c);
    }
    fb::assign_identities(s.cases);
    return s;
}

fb::run_outcome run(const fb::study& s, fb::mock_executor& ex, fb::runner_options o = {}) {
    fb::study_result r;
    r.spec = s;
    fb::observer_list none;
    return fb::run_cases(r, ex, none, o);
}

// The trace lines of one kind, e.g. every "repetition N" in order.
strings only(const strings& trace, const std::string& kind) {
    strings out;
    for (const auto& t : trace)
        if (t.rfind(kind + " ", 0) == 0) out.push_back(t);
    return out;
}

// A script for every case: each repetition writes in write_s and reads in
// read_s seconds.
std::function<fb::mock_script(const fb::case_spec&)> steady_script(double write_s, double read_s) {
    return [=](const fb::case_spec&) {
        fb::mock_script s;
        s.write_s = {write_s};
        s.read_s = {read_s};
        return s;
    };
}

std::size_t count(const strings& trace, const std::string& line) {
    return static_cast<std::size_t>(std::count(trace.begin(), trace.end(), line));
}

const char* phase_name(fb::run_phase p) {
    switch (p) {
    case fb::run_phase::warm_up: return "warm-up";
    case fb::run_phase::write: return "write";
    case fb::run_phase::read: return "read";
    case fb::run_phase::verify: return "verify";
    }
    return "?";
}

// An observer that records what it is told, and can be made to throw; with
// `phases`, also each phase as "phase CASE PHASE REPETITION".
struct recorder final : fb::observer {
    strings* log;
    std::string fail_on;
    bool phases = false;
    explicit recorder(strings* l, std::string f = "", bool p = false)
        : log(l), fail_on(std::move(f)), phases(p) {}
    std::string name() const override { return "recorder"; }
    void note(const std::string& what) {
        log->push_back(what);
        if (what == fail_on) throw std::runtime_error("disk full");
    }
    void begin(const fb::study_result&, std::size_t to_run, std::size_t resumed) override {
        note("begin " + std::to_string(to_run) + " " + std::to_string(resumed));
    }
    void case_started(const fb::case_spec& c) override { note("started " + std::to_string(c.index)); }
    void phase_started(const fb::case_spec& c, fb::run_phase p, std::size_t repetition) override {
        if (phases)
            note("phase " + std::to_string(c.index) + " " + phase_name(p) + " " + std::to_string(repetition));
    }
    void repetition_done(const fb::case_result& r) override {
        note("repetition " + std::to_string(r.spec.index) + " " + std::to_string(r.samples.size()));
    }
    void case_finished(const fb::case_result& r, bool resumed) override {
        note(std::string(resumed ? "resumed " : "finished ") + std::to_string(r.spec.index) + " " +
             fb::to_string(r.status));
    }
    void end(const fb::run_outcome& o) override { note("end " + std::to_string(o.result.cases.size())); }
};

} // namespace

TEST(runner, sequential_runs_each_case_to_its_end_before_the_next) {
    fb::mock_executor ex;
    auto out = run(study_of(2, 2, 1), ex);
    EXPECT_EQ(ex.trace, (strings{"start 0", "warmup 0", "repetition 0", "repetition 0", "finish 0", "start 1",
                                 "warmup 1", "repetition 1", "repetition 1", "finish 1"}))
        << "no re-warm: each repetition follows one of its own case";
    ASSERT_EQ(out.result.cases.size(), 2u);
    EXPECT_FALSE(out.any_failed);
    EXPECT_FALSE(out.interrupted);
}

TEST(runner, interleave_keeps_every_case_alive_and_goes_round_robin) {
    fb::mock_executor ex;
    run(study_of(3, 2, 1, fb::schedule_mode::interleave), ex);
    // Each recorded repetition that does not follow one of its own case is
    // preceded by a re-warm; the last case, alone, needs none.
    EXPECT_EQ(ex.trace,
              (strings{"start 0",  "warmup 0",     "start 1",  "warmup 1",     "start 2",      "warmup 2",
                       "rewarm 0", "repetition 0", "rewarm 1", "repetition 1", "rewarm 2",     "repetition 2",
                       "rewarm 0", "repetition 0", "finish 0", "rewarm 1",     "repetition 1", "finish 1",
                       "rewarm 2", "repetition 2", "finish 2"}));
    ex.trace.clear();
    fb::study two = study_of(2, 3, 0, fb::schedule_mode::interleave);
    two.cases[0].params.repeat = 1;
    run(two, ex);
    EXPECT_EQ(ex.trace, (strings{"start 0", "start 1", "rewarm 0", "repetition 0", "finish 0", "rewarm 1",
                                 "repetition 1", "repetition 1", "repetition 1", "finish 1"}));
}

TEST(runner, shuffle_orders_each_round_by_its_seed) {
    auto rounds = [](std::uint64_t seed) {
        fb::mock_executor ex;
        fb::study s = study_of(6, 4, 0, fb::schedule_mode::shuffle);
        s.shuffle_seed = seed;
        run(s, ex);
        return only(ex.trace, "repetition");
    };
    const strings a = rounds(1), again = rounds(1), other = rounds(2);
    EXPECT_EQ(a, again) << "the same seed gives the same order";
    EXPECT_NE(a, other) << "another seed gives another order";
    ASSERT_EQ(a.size(), 24u);
    // Each round of 6 is a permutation of the 6 cases, and not all rounds
    // are in plan order.
    bool any_unordered = false;
    for (std::size_t r = 0; r < 4; ++r) {
        strings round(a.begin() + static_cast<long>(6 * r), a.begin() + static_cast<long>(6 * r + 6));
        EXPECT_EQ(std::set<std::string>(round.begin(), round.end()).size(), 6u) << "round " << r;
        any_unordered |= !std::is_sorted(round.begin(), round.end());
    }
    EXPECT_TRUE(any_unordered);
    // The permutations are pinned (mt19937_64 and Fisher-Yates are fully
    // specified, so every standard library gives these): a seed names an
    // order that another machine or compiler reproduces.
    const std::vector<std::size_t> eight = {0, 1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(fb::round_order(fb::schedule_mode::shuffle, eight, 1, 0),
              (std::vector<std::size_t>{7, 6, 0, 5, 2, 3, 1, 4}));
    EXPECT_EQ(fb::round_order(fb::schedule_mode::shuffle, eight, 1, 1),
              (std::vector<std::size_t>{4, 6, 1, 3, 0, 7, 2, 5}));
    EXPECT_EQ(fb::round_order(fb::schedule_mode::interleave, eight, 1, 1), eight);
    EXPECT_EQ(fb::round_order(fb::schedule_mode::sequential, {3, 5}, 1, 1), (std::vector<std::size_t>{3}));
}

// warmup_time: unrecorded repetitions until both the count and the time are
// reached, at the start and at every re-warm (at least one there).
TEST(runner, warm_up_lasts_its_count_and_its_time) {
    for (auto mode : fb::all_schedule_modes) {
        fb::mock_executor ex;
        ex.script = steady_script(0.002, 0.001);
        fb::study st = study_of(2, 2, 0, mode);
        for (auto& c : st.cases)
            c.params.warmup_time = 0.007; // 3 ms each: 3 repetitions reach 9 ms
        run(st, ex);
        const std::size_t rewarms = only(ex.trace, "rewarm").size();
        EXPECT_EQ(only(ex.trace, "warmup").size(), 6u) << fb::to_string(mode);
        // Sequential never re-warms. Interleave re-warms before each of the
        // 4 recorded repetitions (the two cases alternate, and both were
        // started first), 3 repetitions each time; shuffle wherever a case
        // follows the other.
        if (mode == fb::schedule_mode::sequential) {
            EXPECT_EQ(rewarms, 0u);
        } else {
            EXPECT_EQ(rewarms % 3, 0u) << rewarms;
        }
        if (mode == fb::schedule_mode::interleave) {
            EXPECT_EQ(rewarms, 12u);
        }
    }
    // The count still counts at the start: warmup 5 with 7 ms of time runs
    // 5 (2 ms each, the default script); a re-warm without warmup_time runs
    // one, whatever the count.
    for (double time : {0.007, 0.0}) {
        fb::mock_executor ex;
        fb::study st = study_of(2, 2, 5, fb::schedule_mode::interleave);
        for (auto& c : st.cases)
            c.params.warmup_time = time;
        run(st, ex);
        EXPECT_EQ(only(ex.trace, "warmup").size(), 10u);
        EXPECT_EQ(only(ex.trace, "rewarm").size(), time > 0 ? 16u : 4u);
    }
}

TEST(runner, every_schedule_records_the_same_samples) {
    std::map<fb::schedule_mode, std::vector<fb::case_result>> results;
    for (auto mode : fb::all_schedule_modes) {
        fb::mock_executor ex;
        ex.script = [](const fb::case_spec& c) {
            fb::mock_script s;
            s.write_s = {0.001 * static_cast<double>(c.index + 1), 0.002};
            s.read_s = {0.0005};
            return s;
        };
        auto out = run(study_of(4, 3, 2, mode), ex);
        // Warm-ups ran (2 per case) and none became a sample.
        EXPECT_EQ(only(ex.trace, "warmup").size(), 8u) << fb::to_string(mode);
        EXPECT_EQ(only(ex.trace, "repetition").size(), 12u) << fb::to_string(mode);
        results[mode] = out.result.cases;
    }
    for (auto mode : fb::all_schedule_modes) {
        const auto& cases = results[mode];
        ASSERT_EQ(cases.size(), 4u) << fb::to_string(mode);
        for (std::size_t i = 0; i < 4; ++i) {
            ASSERT_EQ(cases[i].samples.size(), 3u);
            EXPECT_EQ(cases[i].spec.index, i) << "plan order";
            // The script's times in order: i+1 ms, 2 ms, i+1 ms.
            EXPECT_EQ(cases[i].samples[0].write.wall_s, 0.001 * static_cast<double>(i + 1));
            EXPECT_EQ(cases[i].samples[1].write.wall_s, 0.002);
            EXPECT_EQ(cases[i].samples[2].write.wall_s, 0.001 * static_cast<double>(i + 1));
        }
    }
}

TEST(runner, min_time_adds_repetitions_until_it_is_reached) {
    fb::mock_executor ex;
    ex.script = steady_script(0.010, 0.010);
    fb::study s = study_of(1, 1, 0);
    s.cases[0].params.min_time = 0.05; // 0.02 s per repetition: 3 reach 0.06, 2 only 0.04
    auto out = run(s, ex);
    ASSERT_EQ(out.result.cases.size(), 1u);
    EXPECT_EQ(out.result.cases[0].samples.size(), 3u);
    // repeat above what min_time needs: repeat decides.
    s.cases[0].params.repeat = 5;
    EXPECT_EQ(run(s, ex).result.cases[0].samples.size(), 5u);
    // The cap on repetitions.
    fb::runner_options o;
    o.max_repetitions = 2;
    s.cases[0].params.min_time = 1000;
    EXPECT_EQ(run(s, ex, o).result.cases[0].samples.size(), 2u);
}

// Disturbed samples (results/summary.hpp): scripted phases, three of ten
// of which waited for a CPU for half their time. By hand: the 7 undisturbed
// writes 10..16 ms give the median 13 ms; with 7 samples the 95% interval
// of the median by order statistics is [x(1), x(7)] = [10, 16] ms
// (P(B <= 0) = 1/128 <= 0.025 < P(B <= 1) = 8/128), precision 3 / 13.
TEST(runner, the_estimate_rests_on_the_undisturbed_samples) {
    fb::mock_executor ex;
    ex.script = [](const fb::case_spec&) {
        fb::mock_script s;
        s.write_s = {0.010, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016, 0.030, 0.031, 0.032};
        s.write_wait_s = {0, 0, 0, 0, 0, 0, 0, 0.015, 0.016, 0.017};
        s.read_s = {0.005};
        return s;
    };
    auto out = run(study_of(1, 10, 0), ex);
    const fb::phase_figures& w = out.result.cases.at(0).figures.write;
    EXPECT_EQ(w.n, 10u);
    EXPECT_EQ(w.disturbed, 3u);
    EXPECT_EQ(w.used, 7u);
    EXPECT_FALSE(w.on_disturbed);
    EXPECT_DOUBLE_EQ(w.median_s, 0.013);
    EXPECT_DOUBLE_EQ(w.ci_low_s, 0.010);
    EXPECT_DOUBLE_EQ(w.ci_high_s, 0.016);
    EXPECT_NEAR(w.precision, 0.003 / 0.013, 1e-12);
    // 10..16 ms: sample stddev sqrt(28 / 6) = 2.16 ms, CV 16.6% of the used samples.
    EXPECT_NEAR(w.cv, std::sqrt(28.0 / 6) / 13, 1e-9);
    EXPECT_TRUE(w.high_cv);

    // Six of ten disturbed: four undisturbed are too few (fewer than 6), so
    // the estimate rests on all ten's net times (wall less wait) and says
    // so. By hand: net 10 11 12 13 9 10 11 15 15 15 ms, sorted 9 10 10 11
    // 11 12 13 15 15 15: median 11.5 ms; n = 10: P(B <= 1) = 11/1024 <=
    // 0.025 < P(B <= 2) = 56/1024, so [x(2), x(9)] = [10, 15] ms.
    ex.script = [](const fb::case_spec&) {
        fb::mock_script s;
        s.write_s = {0.010, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016, 0.030, 0.031, 0.032};
        s.write_wait_s = {0, 0, 0, 0, 0.005, 0.005, 0.005, 0.015, 0.016, 0.017};
        s.read_s = {0.005};
        return s;
    };
    out = run(study_of(1, 10, 0), ex);
    const fb::case_result& c = out.result.cases.at(0);
    EXPECT_EQ(c.figures.write.disturbed, 6u);
    EXPECT_EQ(c.figures.write.used, 10u);
    EXPECT_TRUE(c.figures.write.on_disturbed);
    EXPECT_TRUE(c.figures.write.noisy());
    EXPECT_NEAR(c.figures.write.median_s, 0.0115, 1e-15);
    EXPECT_NEAR(c.figures.write.ci_low_s, 0.010, 1e-15);
    EXPECT_NEAR(c.figures.write.ci_high_s, 0.015, 1e-15);
    ASSERT_EQ(c.figures.noise.size(), 1u);
    EXPECT_NE(c.figures.noise[0].find("6 of 10 samples disturbed"), std::string::npos) << c.figures.noise[0];
    EXPECT_FALSE(c.figures.read.noisy());
}

// repeat: auto. Writes of 1.2, 0.8 and then 1.0 ms, reads of 1 ms: the
// write's interval is [x(1), x(n)] = [0.8, 1.2] (precision 20%) up to 8
// samples and [x(2), x(8)] = [1.0, 1.0] at 9 (P(B <= 1) = 10/512 <=
// 0.025): it stops at 9 repetitions, precision reached.
TEST(runner, steal_counts_only_beyond_one_tick_per_cpu) {
    // /proc/stat's steal in whole ticks per CPU: with C CPUs online a
    // difference of up to C ticks may be the counters' rounding alone. A
    // 1 ms phase that showed C ticks must count no steal (else it is called
    // disturbed and its net time is 0, and a table prints "read 0 s"); 3
    // ticks beyond that are 3 / (USER_HZ x C) seconds per CPU.
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    const auto cpus = static_cast<std::uint64_t>(sysconf(_SC_NPROCESSORS_ONLN));
    EXPECT_EQ(fb::steal_seconds(1000, 1000), 0);
    EXPECT_EQ(fb::steal_seconds(1000, 1000 + cpus), 0);
    EXPECT_DOUBLE_EQ(fb::steal_seconds(1000, 1000 + cpus + 3), 3 / (hz * static_cast<double>(cpus)));
    EXPECT_EQ(fb::steal_seconds(1000, 990), 0) << "a counter that went back counts nothing";
}

TEST(runner, repeat_auto_stops_when_the_precision_is_reached) {
    fb::mock_executor ex;
    ex.script = [](const fb::case_spec&) {
        fb::mock_script s;
        s.write_s.assign(30, 0.001);
        s.write_s[0] = 0.0012;
        s.write_s[1] = 0.0008;
        s.read_s = {0.001};
        return s;
    };
    fb::study st = study_of(1, 0, 0);
    st.cases[0].params.precision = 0.02;
    auto out = run(st, ex);
    const fb::case_result& c = out.result.cases.at(0);
    EXPECT_EQ(c.samples.size(), 9u);
    EXPECT_EQ(c.stop, fb::case_stop::precision);
    EXPECT_DOUBLE_EQ(c.figures.write.precision, 0);

    // Writes alternating 1 and 2 ms never come within 1%: the budget
    // (max_time 49 ms) ends it after 20 repetitions (10 x 2 ms + 10 x 3 ms
    // = 50 ms; 19 give 47 ms).
    ex.script = [](const fb::case_spec&) {
        fb::mock_script s;
        s.write_s = {0.001, 0.002};
        s.read_s = {0.001};
        return s;
    };
    st.cases[0].params.precision = 0.01;
    st.cases[0].params.max_time = 0.049;
    out = run(st, ex);
    EXPECT_EQ(out.result.cases.at(0).samples.size(), 20u);
    EXPECT_EQ(out.result.cases.at(0).stop, fb::case_stop::budget);
    // A fixed repeat stops at its count.
    out = run(study_of(1, 4, 0), ex);
    EXPECT_EQ(out.result.cases.at(0).samples.size(), 4u);
    EXPECT_EQ(out.result.cases.at(0).stop, fb::case_stop::repeat);
}

TEST(runner, a_failing_repetition_ends_that_case_only_and_keeps_its_samples) {
    for (auto mode : fb::all_schedule_modes) {
        SCOPED_TRACE(fb::to_string(mode));
        fb::mock_executor ex;
        ex.script = [](const fb::case_spec& c) {
            fb::mock_script s;
            if (c.index == 1) {
                s.fail_at = 2;
                s.failure = {fb::case_status::crashed, "plugin process killed by signal 11"};
            }
            if (c.index == 2) s.start = {fb::case_status::failed, "cannot open"};
            return s;
        };
        auto out = run(study_of(4, 3, 0, mode), ex);
        ASSERT_EQ(out.result.cases.size(), 4u);
        const auto& crashed = out.result.cases[1];
        EXPECT_EQ(crashed.status, fb::case_status::crashed);
        EXPECT_EQ(crashed.error, "plugin process killed by signal 11");
        EXPECT_EQ(crashed.samples.size(), 2u) << "the samples before the crash are kept";
        const auto& not_started = out.result.cases[2];
        EXPECT_EQ(not_started.status, fb::case_status::failed);
        EXPECT_EQ(not_started.samples.size(), 0u);
        EXPECT_EQ(count(ex.trace, "finish 2"), 1u) << "a case that did not start is still finished";
        EXPECT_EQ(count(ex.trace, "repetition 2"), 0u);
        for (std::size_t i : {0u, 3u}) {
            EXPECT_EQ(out.result.cases[i].status, fb::case_status::ok);
            EXPECT_EQ(out.result.cases[i].samples.size(), 3u);
        }
        EXPECT_TRUE(out.any_failed);
        EXPECT_FALSE(out.interrupted);
    }
}

TEST(runner, a_timeout_is_recorded_and_the_study_goes_on) {
    fb::mock_executor ex;
    ex.script = [](const fb::case_spec& c) {
        fb::mock_script s;
        if (c.index == 0) {
            s.fail_at = 0;
            s.failure = {fb::case_status::timeout, "case did not finish within its timeout of 3 s; killed"};
        }
        return s;
    };
    auto out = run(study_of(2, 2, 0, fb::schedule_mode::interleave), ex);
    ASSERT_EQ(out.result.cases.size(), 2u);
    EXPECT_EQ(out.result.cases[0].status, fb::case_status::timeout);
    EXPECT_EQ(out.result.cases[1].status, fb::case_status::ok);
    EXPECT_EQ(out.result.cases[1].samples.size(), 2u);
}

TEST(runner, interruption_stops_after_the_current_step_and_records_only_finished_cases) {
    for (auto mode : fb::all_schedule_modes) {
        SCOPED_TRACE(fb::to_string(mode));
        fb::mock_executor ex;
        bool stop = false;
        // Stop once case 1 has finished (sequential) or after 8 steps.
        ex.after_step = [&] { stop = stop || count(ex.trace, "finish 1") == 1 || ex.trace.size() >= 8; };
        fb::runner_options o;
        o.stop_requested = [&] { return stop; };
        auto out = run(study_of(4, 3, 0, mode), ex, o);
        EXPECT_TRUE(out.interrupted);
        EXPECT_TRUE(out.any_failed);
        for (const auto& r : out.result.cases)
            EXPECT_EQ(r.samples.size(), 3u) << "only finished cases are recorded";
        EXPECT_LT(out.result.cases.size(), 4u);
        // Every session that started was finished (its worker ended, its file removed).
        for (std::size_t i = 0; i < 4; ++i)
            EXPECT_EQ(count(ex.trace, "start " + std::to_string(i)),
                      count(ex.trace, "finish " + std::to_string(i)))
                << i;
    }
}

TEST(runner, resumed_cases_are_kept_and_not_run) {
    const fb::study s = study_of(3, 2, 1);
    fb::case_result earlier;
    earlier.spec = s.cases[1];
    earlier.samples.resize(7);
    earlier.status = fb::case_status::failed;
    earlier.error = "from the log";
    fb::runner_options o;
    o.resumed[s.cases[1].key] = earlier;
    fb::mock_executor ex;
    strings seen;
    fb::observer_list observers;
    observers.add(std::make_unique<recorder>(&seen));
    fb::study_result r;
    r.spec = s;
    auto out = fb::run_cases(r, ex, observers, o);
    EXPECT_EQ(count(ex.trace, "start 1"), 0u);
    ASSERT_EQ(out.result.cases.size(), 3u);
    EXPECT_EQ(out.result.cases[1].error, "from the log");
    EXPECT_EQ(out.result.cases[1].samples.size(), 7u);
    EXPECT_EQ(seen.front(), "begin 2 1");
    EXPECT_EQ(count(seen, "resumed 1 failed"), 1u);
    EXPECT_EQ(seen.back(), "end 3");
}

// An executor whose one case reports, for repetition i, what `verify`
// writes into its verification (1 ms phases), with the plugin lossless or not.
struct verifying_executor final : fb::executor {
    bool lossless = false;
    std::function<void(std::size_t, fb::verification&)> verify;
    std::unique_ptr<fb::case_session> open(const fb::case_spec&) override {
        struct session final : fb::case_session {
            const verifying_executor& ex;
            std::size_t n = 0;
            explicit session(const verifying_executor& e) : ex(e) {}
            fb::step_result start(fb::case_setup& setup) override {
                setup.lossless_expected = ex.lossless;
                return {};
            }
            fb::step_result repetition(fb::repetition_report& r) override {
                r.rep.write.wall_s = r.rep.read.wall_s = 0.001;
                r.verify.checked = true;
                r.verify.compared = 10;
                ex.verify(n++, r.verify);
                return {};
            }
            fb::step_result rewarm() override { return {}; }
            fb::step_result finish(fb::case_facts&) override { return {}; }
        };
        return std::make_unique<session>(*this);
    }
};

fb::run_outcome run_one_case(fb::executor& ex, unsigned repeat) {
    fb::study_result r;
    r.spec = study_of(1, repeat, 0);
    fb::observer_list none;
    return fb::run_cases(r, ex, none, {});
}

TEST(runner, a_lossless_case_with_differing_data_fails) {
    verifying_executor liar;
    liar.lossless = true;
    liar.verify = [](std::size_t, fb::verification& v) {
        v.mismatches = 1;
        v.first_mismatch_index = 7;
        v.max_abs_error = 0.5;
    };
    auto out = run_one_case(liar, 2);
    ASSERT_EQ(out.result.cases.size(), 1u);
    EXPECT_EQ(out.result.cases[0].status, fb::case_status::failed);
    EXPECT_EQ(out.result.cases[0].error, "plugin 'c0' is lossless with these options, but 1 of 10 values "
                                         "read back differ, the first at element 7 (max abs error 0.5)");
    EXPECT_EQ(out.result.cases[0].samples.size(), 2u);
}

// The case keeps the verification of its worst repetition: a lossy plugin
// whose reads differ by more in one repetition than in the others reports
// that one (3 mismatches, max error 0.25), not the first or the best.
TEST(runner, the_worst_repetition_s_verification_is_kept) {
    verifying_executor varying;
    varying.verify = [](std::size_t i, fb::verification& v) {
        static constexpr std::uint64_t mismatches[] = {1, 3, 0};
        static constexpr double errors[] = {0.125, 0.25, 0};
        v.mismatches = mismatches[i % 3];
        v.max_abs_error = errors[i % 3];
    };
    auto out = run_one_case(varying, 3);
    ASSERT_EQ(out.result.cases.size(), 1u);
    EXPECT_EQ(out.result.cases[0].status, fb::case_status::ok);
    EXPECT_EQ(out.result.cases[0].samples.size(), 3u);
    EXPECT_EQ(out.result.cases[0].verify.mismatches, 3u);
    EXPECT_EQ(out.result.cases[0].verify.max_abs_error, 0.25);
}

TEST(runner, observers_hear_every_step_and_a_failing_one_loses_nothing) {
    fb::mock_executor ex;
    strings good, bad;
    fb::observer_list observers;
    observers.add(std::make_unique<recorder>(&bad, "finished 0 ok"));
    observers.add(std::make_unique<recorder>(&good));
    fb::study_result r;
    r.spec = study_of(2, 1, 0);
    auto out = fb::run_cases(r, ex, observers, {});
    EXPECT_EQ(good, (strings{"begin 2 0", "started 0", "repetition 0 1", "finished 0 ok", "started 1",
                             "repetition 1 1", "finished 1 ok", "end 2"}));
    EXPECT_EQ(bad.back(), "finished 0 ok") << "a failing observer is not called again";
    ASSERT_EQ(out.output_errors.size(), 1u);
    EXPECT_EQ(out.output_errors[0], "recorder: disk full");
    EXPECT_EQ(out.result.cases.size(), 2u);
}

// The phases a session announces reach the observers between case_started
// and repetition_done, named by the case whose step runs and the index of
// its recorded repetition: a warm-up per unrecorded repetition, then write,
// read and verify per recorded one.
TEST(runner, observers_hear_each_phase_in_order) {
    fb::mock_executor ex;
    strings seen;
    fb::observer_list observers;
    observers.add(std::make_unique<recorder>(&seen, "", true));
    fb::study_result r;
    r.spec = study_of(1, 2, 2);
    fb::run_cases(r, ex, observers, {});
    EXPECT_EQ(seen,
              (strings{"begin 1 0", "started 0", "phase 0 warm-up 0", "phase 0 warm-up 0", "phase 0 write 0",
                       "phase 0 read 0", "phase 0 verify 0", "repetition 0 1", "phase 0 write 1",
                       "phase 0 read 1", "phase 0 verify 1", "repetition 0 2", "finished 0 ok", "end 1"}));

    // Interleaved: each case's warm-up as it starts, then a re-warm before
    // each recorded repetition that follows another case's, counted as the
    // repetition it precedes.
    seen.clear();
    r.spec = study_of(2, 2, 1, fb::schedule_mode::interleave);
    fb::run_cases(r, ex, observers, {});
    EXPECT_EQ(seen,
              (strings{"begin 2 0",         "started 0",         "phase 0 warm-up 0", "started 1",
                       "phase 1 warm-up 0", "phase 0 warm-up 0", "phase 0 write 0",   "phase 0 read 0",
                       "phase 0 verify 0",  "repetition 0 1",    "phase 1 warm-up 0", "phase 1 write 0",
                       "phase 1 read 0",    "phase 1 verify 0",  "repetition 1 1",    "phase 0 warm-up 1",
                       "phase 0 write 1",   "phase 0 read 1",    "phase 0 verify 1",  "repetition 0 2",
                       "finished 0 ok",     "phase 1 warm-up 1", "phase 1 write 1",   "phase 1 read 1",
                       "phase 1 verify 1",  "repetition 1 2",    "finished 1 ok",     "end 2"}));
}

TEST(schedule, batches_fit_the_memory_budget) {
    fb::study s = study_of(5, 1, 0);
    for (auto& c : s.cases)
        c.dataset.count = 1000; // f64: 8000 bytes, twice in memory
    std::vector<const fb::case_spec*> specs;
    for (const auto& c : s.cases)
        specs.push_back(&c);
    using batches = std::vector<std::vector<std::size_t>>;
    EXPECT_EQ(fb::plan_batches(specs, fb::schedule_mode::interleave, 1 << 20, 40000, 100),
              (batches{{0, 1}, {2, 3}, {4}}));
    EXPECT_EQ(fb::plan_batches(specs, fb::schedule_mode::shuffle, 1 << 20, 1 << 30, 3),
              (batches{{0, 1, 2}, {3, 4}}));
    EXPECT_EQ(fb::plan_batches(specs, fb::schedule_mode::sequential, 1 << 20, 1 << 30, 100),
              (batches{{0}, {1}, {2}, {3}, {4}}));
    // A case larger than the budget still runs, alone.
    EXPECT_EQ(fb::plan_batches(specs, fb::schedule_mode::interleave, 1 << 20, 100, 100),
              (batches{{0}, {1}, {2}, {3}, {4}}));
    // Streamed cases hold three chunks, not the payload.
    fb::case_spec big = s.cases[0];
    big.dataset.count = 1'000'000;
    big.params.chunk_bytes = 4096;
    EXPECT_EQ(fb::case_memory_bytes(big, 1000), 3u * 4096);
    EXPECT_EQ(fb::case_memory_bytes(big, 1u << 30), 16'000'000u);
}

TEST(runner, unselected_cases_are_not_run_and_not_failed) {
    fb::mock_executor ex;
    fb::study s = study_of(3, 1, 0);
    fb::runner_options o;
    o.selected = {false, true, false};
    auto out = run(s, ex, o);
    EXPECT_EQ(ex.trace, (strings{"start 1", "repetition 1", "finish 1"}));
    ASSERT_EQ(out.result.cases.size(), 1u);
    EXPECT_EQ(out.result.cases[0].spec.index, 1u) << "the case keeps its number in the full plan";
    EXPECT_FALSE(out.any_failed) << "a case left out by --filter is not a failure";
    // A resumed case is kept even when not selected; a selected one that
    // does not finish still fails the run.
    fb::case_result earlier;
    earlier.spec = s.cases[0];
    o.resumed[s.cases[0].key] = earlier;
    ex.trace.clear();
    out = run(s, ex, o);
    EXPECT_EQ(ex.trace, (strings{"start 1", "repetition 1", "finish 1"}));
    EXPECT_EQ(out.result.cases.size(), 2u);
    EXPECT_FALSE(out.any_failed);
}

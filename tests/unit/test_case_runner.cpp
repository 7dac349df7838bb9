// Tests of one case run through the engine in this process (case_runner,
// the in-process executor, the runner): the read: view path verifies the
// payload in place, in memory and streamed chunk by chunk; a view with wrong
// bytes fails the case; a read that delivers nothing is caught however the
// buffer looked before; streamed and in-memory cases write the same bytes;
// the phases a case announces reach the observers in order, from this
// process and from a forked worker; with several ranks, a streamed phase's
// meetings (rank_meeting) against a scripted other rank, in this process
// and through a forked worker's rank, when a rank fails too.
#include "host/registry.hpp"
#include "run/communicator.hpp"
#include "run/data.hpp"
#include "run/executor.hpp"
#include "run/runner.hpp"
#include "study/reader.hpp"
#include "test_registry.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fb = formatbench;

namespace {

using formatbench::unit_tests::test_registry;

// Runs one case in this process with the given in-memory limit (the data
// file is kept in `dir` when one is given).
fb::case_result run_case(const fb::case_spec& c, std::uint64_t in_memory_bytes, const std::string& dir = "") {
    const std::string where =
        dir.empty()
            ? (std::filesystem::temp_directory_path() / ("fb_case_" + std::to_string(::getpid()))).string()
            : dir;
    std::filesystem::create_directories(where);
    fb::case_environment env;
    env.plugins = &test_registry();
    env.directory = where;
    env.keep_files = !dir.empty();
    env.in_memory_bytes = in_memory_bytes;
    auto ex = fb::make_in_process_executor(env);
    fb::study_result run;
    run.spec.cases = {c};
    run.spec.cases[0].index = 0;
    fb::observer_list none;
    fb::runner_options o;
    o.in_memory_bytes = in_memory_bytes;
    auto outcome = fb::run_cases(run, *ex, none, o);
    if (dir.empty()) std::filesystem::remove_all(where);
    EXPECT_EQ(outcome.result.cases.size(), 1u);
    return outcome.result.cases.empty() ? fb::case_result{} : outcome.result.cases[0];
}

// Records each phase an observer hears, as "PHASE REPETITION".
struct phase_recorder final : fb::observer {
    std::vector<std::string>* seen;
    explicit phase_recorder(std::vector<std::string>* s) : seen(s) {}
    std::string name() const override { return "phases"; }
    void phase_started(const fb::case_spec&, fb::run_phase p, std::size_t repetition) override {
        const char* names[] = {"warm-up", "write", "read", "verify"};
        seen->push_back(std::string(names[static_cast<int>(p)]) + " " + std::to_string(repetition));
    }
    void repetition_done(const fb::case_result& r) override {
        seen->push_back("done " + std::to_string(r.samples.size()));
    }
};

// The phases one case announces, run in this process or in a forked worker.
std::vector<std::string> phases_of(const fb::case_spec& c, std::uint64_t in_memory_bytes, bool forked) {
    const std::string where =
        (std::filesystem::temp_directory_path() / ("fb_phases_" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(where);
    fb::case_environment env;
    env.plugins = &test_registry();
    env.directory = where;
    env.in_memory_bytes = in_memory_bytes;
    auto ex = forked ? fb::make_forked_executor(env) : fb::make_in_process_executor(env);
    fb::study_result run;
    run.spec.cases = {c};
    run.spec.cases[0].index = 0;
    std::vector<std::string> seen;
    fb::observer_list observers;
    observers.add(std::make_unique<phase_recorder>(&seen));
    fb::runner_options o;
    o.in_memory_bytes = in_memory_bytes;
    auto outcome = fb::run_cases(run, *ex, observers, o);
    std::filesystem::remove_all(where);
    EXPECT_EQ(outcome.result.cases.size(), 1u);
    if (!outcome.result.cases.empty()) {
        EXPECT_EQ(outcome.result.cases[0].status, fb::case_status::ok) << outcome.result.cases[0].error;
    }
    return seen;
}

// The other rank of a run of two, as this rank's meetings see it: in every
// phase it makes `chunks` transfers, and at its meeting number `fail_at` of
// the run (from 0; never when negative) its phase fails. Records the flags
// this rank brings, phase by phase (a phase's meetings end at the first
// whose flags have no `more`, or a `failed`).
struct other_rank final : fb::rank_meeting {
    unsigned chunks = 0;
    int fail_at = -1;
    std::vector<std::vector<unsigned>> phases;

    unsigned meet(unsigned mine) override {
        if (!in_phase_) {
            phases.emplace_back();
            round_ = 0;
            in_phase_ = true;
        }
        phases.back().push_back(mine);
        unsigned theirs = round_++ < chunks ? more : 0;
        if (calls_++ == fail_at) theirs |= failed;
        const unsigned all = mine | theirs;
        if ((all & failed) || !(all & more)) in_phase_ = false;
        return all;
    }

private:
    bool in_phase_ = false;
    unsigned round_ = 0;
    int calls_ = 0;
};

// Runs one case as rank 0 of `ranks`, meeting the others through `others`,
// in this process or in a forked worker.
fb::case_result run_as_rank(const fb::case_spec& c, std::uint64_t in_memory_bytes, unsigned ranks,
                            fb::rank_meeting* others, bool forked) {
    const std::string where =
        (std::filesystem::temp_directory_path() / ("fb_rank_" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(where);
    fb::case_environment env;
    env.plugins = &test_registry();
    env.directory = where;
    env.in_memory_bytes = in_memory_bytes;
    env.place = {0, ranks};
    env.ranks = others;
    auto ex = forked ? fb::make_forked_executor(env) : fb::make_in_process_executor(env);
    fb::study_result run;
    run.spec.cases = {c};
    run.spec.cases[0].index = 0;
    fb::observer_list none;
    fb::runner_options o;
    o.in_memory_bytes = in_memory_bytes;
    auto outcome = fb::run_cases(run, *ex, none, o);
    std::filesystem::remove_all(where);
    EXPECT_EQ(outcome.result.cases.size(), 1u);
    return outcome.result.cases.empty() ? fb::case_result{} : outcome.result.cases[0];
}

// This rank's flags in one phase: `transfers` times `more`, then no flag
// until the meeting in which no rank has a transfer left.
std::vector<unsigned> flags(unsigned transfers, unsigned meetings) {
    std::vector<unsigned> f(meetings, 0);
    for (unsigned i = 0; i < transfers && i < meetings; ++i)
        f[i] = fb::rank_meeting::more;
    return f;
}

// Runs the one case of a study text with the given in-memory limit.
fb::case_result run_one(const std::string& text, std::uint64_t in_memory_bytes) {
    auto s = fb::load_study_text(text, "<t>");
    EXPECT_EQ(s.cases.size(), 1u);
    fb::case_spec c = s.cases.at(0);
    c.params.repeat = 3;
    return run_case(c, in_memory_bytes);
}

} // namespace

TEST(read_view, verifies_in_place_in_memory_and_streamed) {
    for (const char* plugin : {"mmap", "memory", "misbehave"}) {
        std::string text = "datasets: [{count: 100003}]\nformats: [{plugin: ";
        text.append(plugin).append(", read: view, chunk: 16KiB}]\n");
        for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{64} << 10}) {
            SCOPED_TRACE(std::string(plugin) + (limit > (1u << 20) ? " in memory" : " streamed"));
            auto r = run_one(text, limit);
            ASSERT_EQ(r.status, fb::case_status::ok) << r.error;
            EXPECT_TRUE(r.verify.checked);
            EXPECT_EQ(r.verify.compared, 100003u);
            EXPECT_EQ(r.verify.mismatches, 0u);
            ASSERT_EQ(r.samples.size(), 3u);
            for (const auto& rep : r.samples)
                EXPECT_GT(rep.read.wall_s, 0);
        }
    }
}

TEST(read_view, a_view_with_wrong_bytes_fails_the_case) {
    for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{64} << 10}) {
        auto r =
            run_one("datasets: [{count: 5000}]\n"
                    "formats: [{plugin: misbehave, read: view, chunk: 16KiB, options: {mode: wrong_data}}]\n",
                    limit);
        EXPECT_EQ(r.status, fb::case_status::failed);
        EXPECT_EQ(r.verify.mismatches, 1u);
        EXPECT_NE(r.error.find("1 of 5000 values read back differ"), std::string::npos) << r.error;
    }
}

// The data a case writes does not depend on how it is cut: a case streamed in
// 1000-byte chunks (in-memory limit below the payload) and one written from
// memory produce the same file, and that file holds the generator's values
// element by element (checked against a whole fill, made here).
TEST(case_data, streamed_and_in_memory_cases_write_the_same_bytes) {
    for (const char* dist : {"uniform", "normal", "smooth", "integers"}) {
        SCOPED_TRACE(dist);
        const std::string text = std::string("datasets: [{dtype: f64, count: 10007, distribution: ") + dist +
                                 "}]\nformats: [{plugin: raw, chunk: 1000}]\n";
        auto s = fb::load_study_text(text, "<t>");
        ASSERT_EQ(s.cases.size(), 1u);
        const fb::case_spec& c = s.cases[0];
        const fb::plugin& p = test_registry().get("raw");
        std::vector<unsigned char> want(10007 * 8);
        fb::generator(c.dataset).fill(0, 10007, want.data());
        for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{4096}}) {
            SCOPED_TRACE(limit > 4096 ? "in memory" : "streamed");
            const std::string dir =
                (std::filesystem::temp_directory_path() / ("fb_data_" + std::to_string(::getpid()))).string();
            fb::case_spec one = c;
            one.params.repeat = 1;
            one.params.warmup = 0;
            auto r = run_case(one, limit, dir);
            ASSERT_EQ(r.status, fb::case_status::ok) << r.error;
            const std::string path = fb::data_path(dir, one, p);
            std::ifstream in(path, std::ios::binary);
            std::vector<unsigned char> got((std::istreambuf_iterator<char>(in)), {});
            std::filesystem::remove_all(dir);
            ASSERT_EQ(got.size(), want.size());
            for (std::size_t i = 0; i < want.size(); i += 8)
                ASSERT_EQ(std::memcmp(got.data() + i, want.data() + i, 8), 0) << "element " << i / 8;
        }
    }
}

// A reader that claims success without delivering data after its first read
// of a path (mode stale_read): the warm-up's read leaves the right bytes in
// the buffer, so only the poisoning of the read buffer before each read
// catches the recorded ones. In memory and streamed, each in a folder of its
// own (a new path, so its warm-up's read is a real one).
TEST(case_runner, a_read_that_delivers_nothing_fails_the_case) {
    int round = 0;
    for (std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{16} << 10}) {
        SCOPED_TRACE(limit > (1u << 20) ? "in memory" : "streamed");
        auto s = fb::load_study_text("datasets: [{count: 5000}]\n"
                                     "formats: [{plugin: misbehave, chunk: 8KiB, warmup: 1, repeat: 2, "
                                     "options: {mode: stale_read}}]\n",
                                     "<t>");
        const auto dir = std::filesystem::temp_directory_path() /
                         ("fb_stale_" + std::to_string(::getpid()) + "_" + std::to_string(round++));
        auto r = run_case(s.cases.at(0), limit, dir.string());
        std::filesystem::remove_all(dir);
        EXPECT_EQ(r.status, fb::case_status::failed) << r.error;
        EXPECT_EQ(r.verify.compared, 5000u);
        EXPECT_GT(r.verify.mismatches, 0u);
    }
}

// The case runner's phases reach the observers in the order they run, from
// this process and over a forked worker's pipe: a warm-up, then per
// recorded repetition write, read and (when the data is compared after the
// read, in memory) verify; a streamed read compares chunk by chunk and
// announces no verify.
TEST(case_runner, announces_its_phases_in_order_in_process_and_forked) {
    auto s = fb::load_study_text(
        "datasets: [{count: 100000}]\nformats: [raw]\ndefaults: {repeat: 2, warmup: 1, chunk: 64KiB}\n",
        "<t>");
    ASSERT_EQ(s.cases.size(), 1u);
    const std::vector<std::string> in_memory = {"warm-up 0", "write 0", "read 0",   "verify 0", "done 1",
                                                "write 1",   "read 1",  "verify 1", "done 2"};
    const std::vector<std::string> streamed = {"warm-up 0", "write 0", "read 0", "done 1",
                                               "write 1",   "read 1",  "done 2"};
    for (bool forked : {false, true}) {
        SCOPED_TRACE(forked ? "forked" : "in process");
        EXPECT_EQ(phases_of(s.cases[0], std::uint64_t{1} << 30, forked), in_memory);
        EXPECT_EQ(phases_of(s.cases[0], std::uint64_t{64} << 10, forked), streamed); // 800 KB > 64 KiB
    }
}

// A streamed phase's meetings (case_runner.hpp): 100000 f64 values in
// chunks of 64 KiB (8192 values) are 13 chunks, 12 x 8192 + 1696. In each
// phase this rank brings `more` to the meetings before its 13 transfers
// (the read's first one precedes its open) and nothing after them, until a
// meeting in which no rank has a transfer left: 14 meetings when the other
// rank has 5 chunks, 16 when it has 15. Whole repetitions: a warm-up and
// two recorded, a write and a read phase each.
TEST(rank_meetings, every_rank_meets_as_often_as_the_rank_with_most_chunks) {
    auto s = fb::load_study_text(
        "datasets: [{count: 100000}]\nformats: [raw]\ndefaults: {repeat: 2, warmup: 1, chunk: 64KiB}\n",
        "<t>");
    ASSERT_EQ(s.cases.size(), 1u);
    for (bool forked : {false, true})
        for (unsigned theirs : {5u, 15u}) {
            SCOPED_TRACE(std::string(forked ? "forked" : "in process") + ", other rank's chunks " +
                         std::to_string(theirs));
            other_rank other;
            other.chunks = theirs;
            auto r = run_as_rank(s.cases[0], 64 << 10, 2, &other, forked);
            ASSERT_EQ(r.status, fb::case_status::ok) << r.error;
            EXPECT_EQ(r.verify.mismatches, 0u);
            const std::vector<std::vector<unsigned>> want(6, flags(13, std::max(13u, theirs) + 1));
            EXPECT_EQ(other.phases, want);
        }
}

// No meetings in memory, with one rank, or in an access pattern's read
// phase (its streamed write phase meets).
TEST(rank_meetings, none_in_memory_alone_or_for_an_access_pattern) {
    auto s = fb::load_study_text("datasets: [{count: 100000}]\nformats: [raw]\n"
                                 "defaults: {repeat: 1, warmup: 0, chunk: 64KiB}\n",
                                 "<t>");
    auto pattern = fb::load_study_text(
        "datasets: [{count: 100000}]\nformats: [raw]\n"
        "defaults: {repeat: 1, warmup: 0, access: random, access_block: 4KiB, access_ops: 8}\n",
        "<t>");
    other_rank other;
    other.chunks = 3;
    EXPECT_EQ(run_as_rank(s.cases.at(0), std::uint64_t{1} << 30, 2, &other, false).status,
              fb::case_status::ok);
    EXPECT_EQ(run_as_rank(s.cases.at(0), 64 << 10, 1, &other, false).status, fb::case_status::ok);
    EXPECT_TRUE(other.phases.empty());
    // The pattern's write phase streams and meets: one chunk (chunk:
    // whole) against the other rank's 3, 4 meetings; its read does not.
    auto r = run_as_rank(pattern.cases.at(0), 64 << 10, 2, &other, false);
    EXPECT_EQ(r.status, fb::case_status::ok) << r.error;
    EXPECT_EQ(other.phases, std::vector<std::vector<unsigned>>{flags(1, 4)});
}

// When the other rank's phase fails, this rank stops at that meeting (the
// 4th of the first write phase: no transfer and no meeting after it) and
// says so; when this rank's phase fails, it makes one more meeting, saying
// it failed, so that the other rank does not wait for it: the write of
// misbehave's fail_write after the first meeting, in process and forked;
// and in a forked worker that crashes at its first read, its rank makes
// that meeting for it.
TEST(rank_meetings, a_failing_rank_stops_every_rank_at_one_meeting) {
    using fb::rank_meeting;
    auto raw = fb::load_study_text(
        "datasets: [{count: 100000}]\nformats: [raw]\ndefaults: {repeat: 1, warmup: 0, chunk: 64KiB}\n",
        "<t>");
    auto fails = fb::load_study_text("datasets: [{count: 100000}]\n"
                                     "formats: [{plugin: misbehave, options: {mode: fail_write}}]\n"
                                     "defaults: {repeat: 1, warmup: 0, chunk: 64KiB}\n",
                                     "<t>");
    auto crashes = fb::load_study_text("datasets: [{count: 100000}]\n"
                                       "formats: [{plugin: misbehave, options: {mode: segfault}}]\n"
                                       "defaults: {repeat: 1, warmup: 0, chunk: 64KiB}\n",
                                       "<t>");
    for (bool forked : {false, true}) {
        SCOPED_TRACE(forked ? "forked" : "in process");
        other_rank other;
        other.chunks = 13;
        other.fail_at = 3;
        auto r = run_as_rank(raw.cases.at(0), 64 << 10, 2, &other, forked);
        EXPECT_EQ(r.status, fb::case_status::failed);
        EXPECT_EQ(r.error, fb::another_rank_failed);
        EXPECT_EQ(other.phases, std::vector<std::vector<unsigned>>{flags(4, 4)});

        other_rank waits;
        waits.chunks = 13;
        r = run_as_rank(fails.cases.at(0), 64 << 10, 2, &waits, forked);
        EXPECT_EQ(r.status, fb::case_status::failed);
        EXPECT_NE(r.error.find("failed on purpose"), std::string::npos) << r.error;
        const std::vector<unsigned> write = {rank_meeting::more, rank_meeting::failed};
        EXPECT_EQ(waits.phases, std::vector<std::vector<unsigned>>{write});
    }
    other_rank waits;
    waits.chunks = 13;
    auto r = run_as_rank(crashes.cases.at(0), 64 << 10, 2, &waits, true);
    EXPECT_EQ(r.status, fb::case_status::crashed) << r.error;
    const std::vector<unsigned> read = {rank_meeting::more, rank_meeting::failed};
    EXPECT_EQ(waits.phases, (std::vector<std::vector<unsigned>>{flags(13, 14), read}));
}

// The test hook's value is checked when the case starts: a value that is
// not a whole number fails the case, naming the variable.
TEST(rank_meetings, a_bad_test_delay_fails_the_case) {
    auto s = fb::load_study_text(
        "datasets: [{count: 100000}]\nformats: [raw]\ndefaults: {repeat: 1, warmup: 0, chunk: 64KiB}\n",
        "<t>");
    ::setenv("FORMATBENCH_TEST_PIECE_DELAY_MS", "ten", 1);
    auto r = run_case(s.cases.at(0), 64 << 10);
    ::unsetenv("FORMATBENCH_TEST_PIECE_DELAY_MS");
    EXPECT_EQ(r.status, fb::case_status::failed);
    EXPECT_NE(r.error.find("FORMATBENCH_TEST_PIECE_DELAY_MS=ten"), std::string::npos) << r.error;
}

// Tests of the ascii plugin's helper_thread (two_threads.hpp), compiled in:
// every task runs exactly once and has finished when run_two returns, the
// helper really runs its task beside the caller's, a late helper's task runs
// on the caller, an exception from the caller's task leaves the helper
// usable, and with one CPU both tasks run on the caller.
#include "two_threads.hpp"

#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using formatbench::detail::helper_thread;

namespace {

// Restores the thread's CPU affinity at scope exit.
class affinity_guard {
public:
    affinity_guard() { sched_getaffinity(0, sizeof saved_, &saved_); }
    ~affinity_guard() { sched_setaffinity(0, sizeof saved_, &saved_); }
    affinity_guard(const affinity_guard&) = delete;
    affinity_guard& operator=(const affinity_guard&) = delete;
    int cpus() const { return CPU_COUNT(&saved_); }

private:
    cpu_set_t saved_;
};

} // namespace

TEST(helper_thread, both_tasks_run_once_and_are_done_on_return) {
    // Fresh helpers and reused ones, with tasks too short for a helper that
    // has just started: either thread may run the second task.
    int on_caller = 0;
    for (int round = 0; round < 200; ++round) {
        helper_thread h;
        if (round % 2) h.start_early();
        for (int k = 0; k < 5; ++k) {
            std::atomic<int> first{0}, second{0};
            std::thread::id ran_second;
            h.run_two([&] { ++first; },
                      [&]() noexcept {
                          ran_second = std::this_thread::get_id();
                          ++second;
                      });
            ASSERT_EQ(first.load(), 1);
            ASSERT_EQ(second.load(), 1);
            on_caller += ran_second == std::this_thread::get_id();
        }
    }
    RecordProperty("second_task_on_caller", on_caller);
}

TEST(helper_thread, the_helper_runs_beside_the_caller) {
    affinity_guard cpus;
    helper_thread h;
    for (int k = 0; k < 20; ++k) {
        // The caller's task waits for the helper's to start: it returns
        // early only if both run at once. 10 s is far above any wake-up.
        std::atomic<bool> started{false};
        std::thread::id ran_second;
        bool together = false;
        h.run_two(
            [&] {
                auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (!started.load() && std::chrono::steady_clock::now() < deadline) {
                }
                together = started.load();
            },
            [&]() noexcept {
                ran_second = std::this_thread::get_id();
                started = true;
            });
        if (cpus.cpus() < 2) { // no helper: the second task runs after the first
            EXPECT_FALSE(together);
            EXPECT_EQ(ran_second, std::this_thread::get_id());
            break;
        }
        EXPECT_TRUE(together) << "round " << k;
        EXPECT_NE(ran_second, std::this_thread::get_id()) << "round " << k;
    }
}

TEST(helper_thread, exception_from_the_callers_task_propagates) {
    helper_thread h;
    for (int k = 0; k < 50; ++k) {
        std::atomic<int> second{0};
        EXPECT_THROW(
            h.run_two([] { throw std::runtime_error("first failed"); }, [&]() noexcept { ++second; }),
            std::runtime_error);
        EXPECT_LE(second.load(), 1);
        std::atomic<int> after{0}; // the two tasks may run at once
        h.run_two([&] { ++after; }, [&]() noexcept { ++after; });
        EXPECT_EQ(after.load(), 2);
    }
}

TEST(helper_thread, with_one_cpu_both_tasks_run_on_the_caller) {
    affinity_guard restore;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    helper_thread h;
    h.start_early();
    std::thread::id ran_first, ran_second;
    h.run_two([&] { ran_first = std::this_thread::get_id(); },
              [&]() noexcept { ran_second = std::this_thread::get_id(); });
    EXPECT_EQ(ran_first, std::this_thread::get_id());
    EXPECT_EQ(ran_second, std::this_thread::get_id());
}

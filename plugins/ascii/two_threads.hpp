// A helper thread owned by one stream, for running two tasks at once: one on
// the calling thread, one on the helper. Its contract is built for work that
// both threads share through a counter (the writer's pieces, the reader's
// pieces): the caller never waits for a helper that has not started, it runs
// the helper's task itself instead.
//
// Why it is written this way, measured on this project's 2-vCPU VMs (guest
// kernel with sched_vcpu_pack, guest halt-polling off):
// - A new thread, or one woken from a futex, was often placed on the
//   caller's vCPU and stayed there: two threads shared one vCPU for 14 ms
//   while the other was idle. The helper therefore pins itself to a CPU
//   other than the caller's, when the process may run on two or more.
// - Waking an idle vCPU took 0.05-4.7 ms (the host must schedule it again).
//   The helper is started when the stream opens, and both sides spin for up
//   to spin_time before sleeping in the kernel, so the helper's vCPU stays
//   awake between the blocks of one stream. A helper still late when the
//   caller's part is done is revoked: its task runs on the caller.
// The helper lives until the stream is destroyed (inside close, as the ABI
// requires); a stream that is idle for longer than spin_time costs nothing.
#pragma once

#include <sched.h>

#include <atomic>
#include <chrono>
#include <system_error>
#include <thread>
#include <type_traits>

namespace formatbench::detail {

class helper_thread {
public:
    // How long a side waits for the other by spinning before it sleeps.
    static constexpr std::chrono::microseconds spin_time{2000};

    helper_thread() = default;
    helper_thread(const helper_thread&) = delete;
    helper_thread& operator=(const helper_thread&) = delete;
    ~helper_thread() {
        if (!thread_.joinable()) return;
        state_.store(quit, std::memory_order_release);
        state_.notify_all();
        thread_.join();
    }

    // Starts the helper now rather than at the first run_two, so that it is
    // running on its own CPU by then. Harmless if it is never used.
    void start_early() { (void)start(); }

    // Runs `first` here and offers `second` to the helper; both have
    // returned when this returns. If the helper has not taken `second` when
    // `first` returns, `second` runs here after it (so either may run on
    // either thread, and tasks must share work, not split it in fixed
    // halves). `second` must not throw (tasks report errors through their
    // results); if `first` throws, `second` may not run. Without a helper
    // (one CPU, or the system refuses a thread) both run here in turn.
    template <class First, class Second>
    void run_two(First&& first, Second&& second) {
        if (!start()) {
            first();
            second();
            return;
        }
        using second_type = std::remove_reference_t<Second>;
        job_ = const_cast<void*>(static_cast<const void*>(&second));
        invoke_ = [](void* f) noexcept { (*static_cast<second_type*>(f))(); };
        state_.store(posted, std::memory_order_release);
        state_.notify_all();
        try {
            first();
        } catch (...) {
            if (!revoke()) wait_done();
            throw;
        }
        if (revoke()) {
            second();
            return;
        }
        wait_done();
    }

private:
    enum : int { idle, posted, taken, done, quit };

    static void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    // Spins until pred() holds or spin_time has passed; the caller checks
    // again and sleeps if it still does not hold.
    template <class Pred>
    static void spin_until(Pred pred) noexcept {
        const auto deadline = std::chrono::steady_clock::now() + spin_time;
        for (unsigned i = 1; !pred(); ++i) {
            cpu_relax();
            if (i % 256 == 0 && std::chrono::steady_clock::now() > deadline) return;
        }
    }

    bool start() {
        if (thread_.joinable()) return true;
        if (refused_) return false;
        cpu_set_t allowed;
        CPU_ZERO(&allowed);
        // One CPU: a spinning helper would only take time from the caller.
        if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2) {
            refused_ = true;
            return false;
        }
        // A CPU the caller may use other than the one it is on now.
        const int here = sched_getcpu();
        cpu_set_t there = allowed;
        if (here >= 0 && here < CPU_SETSIZE) CPU_CLR(here, &there);
        try {
            thread_ = std::thread([this, there] {
                // Pinning is an optimisation: if it fails, run anywhere.
                (void)sched_setaffinity(0, sizeof there, &there);
                loop();
            });
        } catch (const std::system_error&) {
            refused_ = true;
            return false;
        }
        return true;
    }

    bool revoke() noexcept {
        int expected = posted;
        return state_.compare_exchange_strong(expected, idle, std::memory_order_acq_rel);
    }

    void wait_done() noexcept {
        spin_until([this] { return state_.load(std::memory_order_acquire) == done; });
        for (int s; (s = state_.load(std::memory_order_acquire)) != done;)
            state_.wait(s, std::memory_order_acquire);
        state_.store(idle, std::memory_order_relaxed);
    }

    void loop() noexcept {
        for (;;) {
            spin_until([this] {
                int s = state_.load(std::memory_order_acquire);
                return s == posted || s == quit;
            });
            for (int s; (s = state_.load(std::memory_order_acquire)) != posted && s != quit;)
                state_.wait(s, std::memory_order_acquire);
            int expected = posted;
            if (!state_.compare_exchange_strong(expected, taken, std::memory_order_acq_rel)) {
                if (expected == quit) return;
                continue; // revoked
            }
            invoke_(job_);
            state_.store(done, std::memory_order_release);
            state_.notify_all();
        }
    }

    std::atomic<int> state_{idle};
    void* job_ = nullptr;
    void (*invoke_)(void*) noexcept = nullptr;
    bool refused_ = false;
    std::thread thread_;
};

} // namespace formatbench::detail

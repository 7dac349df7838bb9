// block_pool: the worker pool of the blocks plugin, and the pattern for any
// plugin with worker threads (formatbench's zlib plugin does the same in
// plugins/zlib/parallel_deflate). The rules it keeps are plugin.h's:
//
//  - The pool belongs to one stream: created in open, joined by join() in
//    close and by the destructor, so no thread outlives its stream, also
//    when open fails after the pool started (the stream's members are
//    destroyed then, and the pool's destructor joins).
//  - Its size comes from an option; the automatic size counts the CPUs this
//    process may run on (cpus_available), not the machine's.
//  - A worker never reports anything itself: the exception its job throws is
//    kept with the block and rethrown by wait() on the caller's thread, where
//    plugin.hpp turns it into the call's status and message.
//
// Blocks are numbered 0, 1, 2, ... and block b uses slot b % slots, so the
// caller fills (writer) or empties (reader) blocks in order while workers
// process the others.
#ifndef BLOCKS_BLOCK_POOL_HPP
#define BLOCKS_BLOCK_POOL_HPP

#include <formatbench/plugin.hpp>

#include <sched.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace blocks {

// One thread per CPU this process may run on: sched_getaffinity sees
// taskset, cpusets and the binding of a batch system (Slurm, mpirun), which
// std::thread::hardware_concurrency (every CPU of the machine) does not.
inline unsigned cpus_available() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return static_cast<unsigned>(CPU_COUNT(&set));
    // More CPUs than a cpu_set_t holds (1024), or no answer: the machine's count.
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? n : 1;
}

class block_pool {
public:
    // job(block, data, size) runs on a worker for each submitted block; data
    // is the block's slot (slot_bytes long) and size the bytes the caller
    // put in it (writer) or asks for (reader).
    using job = std::function<void(std::uint64_t block, unsigned char* data, std::size_t size)>;

    block_pool(unsigned threads, std::size_t slot_bytes, job work, const std::string& path)
        : work_(std::move(work)), slots_(2 * std::size_t{threads}) {
        for (auto& s : slots_)
            s.data.resize(slot_bytes);
        try {
            for (unsigned i = 0; i < threads; ++i)
                threads_.emplace_back([this] { run(); });
        } catch (const std::system_error& e) {
            join(); // the constructor failed: the destructor will not run
            throw formatbench::sdk::error(FB_E_NO_MEMORY, "blocks: cannot start " + std::to_string(threads) +
                                                              " threads for '" + path + "': " + e.what());
        }
    }
    block_pool(const block_pool&) = delete;
    block_pool& operator=(const block_pool&) = delete;
    ~block_pool() { join(); }

    std::size_t slot_count() const noexcept { return slots_.size(); }

    // The slot of `block`; free once block - slot_count() was waited for.
    unsigned char* data(std::uint64_t block) noexcept { return slots_[block % slots_.size()].data.data(); }

    // Queues `block` (the next number) with `size` bytes in use.
    void submit(std::uint64_t block, std::size_t size) {
        {
            std::lock_guard<std::mutex> g(lock_);
            slot& s = slots_[block % slots_.size()];
            s.block = block;
            s.size = size;
            s.done = false;
            s.error = nullptr;
            queue_.push_back(block);
        }
        work_ready_.notify_one();
    }

    // Waits until `block` is done, on the caller's thread, and rethrows the
    // error its job threw there.
    void wait(std::uint64_t block) {
        std::unique_lock<std::mutex> g(lock_);
        slot& s = slots_[block % slots_.size()];
        block_done_.wait(g, [&] { return s.done; });
        if (s.error) std::rethrow_exception(std::exchange(s.error, nullptr));
    }

    // Stops the workers: queued blocks are dropped, running jobs finish,
    // every thread is joined. Idempotent; close calls it before the file
    // goes, the destructor after an error.
    void join() noexcept {
        {
            std::lock_guard<std::mutex> g(lock_);
            stop_ = true;
            queue_.clear();
        }
        work_ready_.notify_all();
        for (auto& t : threads_)
            t.join();
        threads_.clear();
    }

private:
    struct slot {
        std::vector<unsigned char> data;
        std::uint64_t block = 0;
        std::size_t size = 0;
        bool done = true;
        std::exception_ptr error; // what the job threw, for wait()
    };

    void run() {
        for (;;) {
            slot* s = nullptr;
            {
                std::unique_lock<std::mutex> g(lock_);
                work_ready_.wait(g, [&] { return stop_ || !queue_.empty(); });
                if (stop_) return;
                s = &slots_[queue_.front() % slots_.size()];
                queue_.pop_front();
            }
            std::exception_ptr error;
            try {
                work_(s->block, s->data.data(), s->size);
            } catch (...) {
                error = std::current_exception();
            }
            {
                std::lock_guard<std::mutex> g(lock_);
                s->error = error;
                s->done = true;
            }
            block_done_.notify_all();
        }
    }

    job work_;
    std::vector<slot> slots_;
    std::vector<std::thread> threads_;
    std::mutex lock_;
    std::condition_variable work_ready_; // workers wait here
    std::condition_variable block_done_; // the caller waits here
    std::deque<std::uint64_t> queue_;    // submitted, not yet taken
    bool stop_ = false;
};

} // namespace blocks

#endif // BLOCKS_BLOCK_POOL_HPP

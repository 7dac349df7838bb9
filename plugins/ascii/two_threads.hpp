// Runs two tasks at once, one on the calling thread and one on a short-lived
// std::thread, and joins before returning (the ABI forbids threads that
// outlive a call). Used to format or parse the two halves of a large block.
#pragma once

#include <system_error>
#include <thread>

namespace formatbench::detail {

// Runs `first` here and `second` on another thread; both have returned when
// this returns. The tasks must not throw (they report errors through their
// results). If the system refuses a thread, both run here, one after the
// other: slower, same result.
template <class First, class Second>
void run_two(First&& first, Second&& second) {
    std::thread helper;
    try {
        helper = std::thread([&second] { second(); });
    } catch (const std::system_error&) {
        first();
        second();
        return;
    }
    first();
    helper.join();
}

} // namespace formatbench::detail

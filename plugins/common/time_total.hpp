// Seconds spent in timed sections of a stream, summed: what the compressing
// plugins report as their metrics codec_s (inside the codec) and io_s
// (inside read(2)/write(2)). A section costs two reads of the monotonic
// clock (vDSO, tens of nanoseconds); sections are codec calls or transfers
// of whole buffers, never single values.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

namespace formatbench::detail {

class time_total {
public:
    // Runs fn, adding its duration (also when it throws).
    template <class Fn>
    decltype(auto) time(Fn&& fn) {
        const auto start = std::chrono::steady_clock::now();
        struct add {
            time_total& t;
            std::chrono::steady_clock::time_point start;
            ~add() {
                t.ns_ += static_cast<std::uint64_t>((std::chrono::steady_clock::now() - start).count());
            }
        } guard{*this, start};
        return std::forward<Fn>(fn)();
    }
    void add_ns(std::uint64_t ns) noexcept { ns_ += ns; }
    double seconds() const noexcept { return static_cast<double>(ns_) * 1e-9; }

private:
    std::uint64_t ns_ = 0;
};

} // namespace formatbench::detail

// Does a phase's time depend on what the process did just before it? Times
// one write of N bytes to a new file (open, write, close) and its read back
// into a buffer, in three contexts: right after the previous write and read
// (back to back, as a sequential case's repetitions run), after a CPU-bound
// stretch of PAUSE_MS (as after another case's text formatting), and after
// sleeping PAUSE_MS (as after a slow neighbour in another process). The
// contexts take turns, ROUNDS times. On a machine where the three medians
// agree, a re-warm of one repetition restores a case's state; where the
// latter two are slower, interleaved studies need `warmup_time`
// (docs/methodology.md, "What a phase follows"). Figures only; not a test.
//
//   phase_context DIR [BYTES [ROUNDS [PAUSE_MS]]]
#include "plain_file.hpp"
#include "results/stats.hpp"
#include "run/buffer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace formatbench;
using namespace formatbench::bench;

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

// Integer work on registers only: the CPU busy, memory untouched.
void spin(double seconds) {
    const auto start = clock_type::now();
    volatile std::uint64_t x = 1;
    while (since(start) < seconds)
        for (int i = 0; i < 10000; ++i)
            x = x * 6364136223846793005u + 1442695040888963407u;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: phase_context DIR [BYTES [ROUNDS [PAUSE_MS]]]\n");
        return 2;
    }
    const std::string path = std::string(argv[1]) + "/phase_context.dat";
    const std::size_t bytes = argc > 2 ? std::stoull(argv[2]) : 8000000;
    const int rounds = argc > 3 ? std::stoi(argv[3]) : 15;
    const double pause = (argc > 4 ? std::stod(argv[4]) : 400) / 1000;
    aligned_buffer data(bytes), back(bytes);
    std::memset(data.data(), 0x5a, bytes);
    std::memset(back.data(), 0, bytes);

    const char* names[3] = {"back to back", "after CPU-bound", "after sleep"};
    std::vector<double> write_s[3], read_s[3];
    for (int round = 0; round <= rounds; ++round)
        for (int k = 0; k < 3; ++k) {
            const int context = (k + round) % 3;
            // Back to back: the write follows a write and read of its own.
            if (context == 0) {
                ::unlink(path.c_str());
                write_file(path, data.data(), bytes);
                read_exact(path, back.data(), bytes);
            } else if (context == 1) {
                spin(pause);
            } else {
                std::this_thread::sleep_for(std::chrono::duration<double>(pause));
            }
            ::unlink(path.c_str());
            auto t = clock_type::now();
            write_file(path, data.data(), bytes);
            const double w = since(t);
            t = clock_type::now();
            read_exact(path, back.data(), bytes);
            const double r = since(t);
            if (std::memcmp(back.data(), data.data(), bytes) != 0) {
                std::fprintf(stderr, "phase_context: read differs from written data\n");
                return 1;
            }
            if (round > 0) { // round 0 warms up
                write_s[context].push_back(w);
                read_s[context].push_back(r);
            }
        }
    ::unlink(path.c_str());
    std::printf("%zu bytes, median of %d rounds, pause %.0f ms\n", bytes, rounds, pause * 1000);
    std::printf("%-16s %10s %10s %8s %8s\n", "context", "write ms", "read ms", "x write", "x read");
    const double w0 = summarize(write_s[0]).median, r0 = summarize(read_s[0]).median;
    for (int c = 0; c < 3; ++c) {
        const double w = summarize(write_s[c]).median, r = summarize(read_s[c]).median;
        std::printf("%-16s %10.3f %10.3f %8.2f %8.2f\n", names[c], w * 1e3, r * 1e3, w / w0, r / r0);
    }
    return 0;
}

// The tight loop the runner's memory-plugin case is compared with: exactly
// the copies that plugin makes (a fresh vector filled from the caller's
// buffer; then a memcpy out of it into a page-aligned buffer), timed with
// the same clock, no runner and no plugin boundary. Prints JSON medians.
//
//   memory_loop N REPETITIONS
#include "buffer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::stoull(argv[1]) : 1000000;
    const int reps = argc > 2 ? std::stoi(argv[2]) : 21;
    const std::size_t bytes = n * sizeof(double);
    formatbench::aligned_buffer src(bytes), dst(bytes);
    std::memset(src.data(), 1, bytes);
    std::vector<double> w, r;
    for (int i = 0; i <= reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<unsigned char> stored;
        stored.reserve(bytes);
        stored.insert(stored.end(), src.data(), src.data() + bytes);
        auto t1 = std::chrono::steady_clock::now();
        std::memset(dst.data(), 0xA5, bytes); // the runner poisons the read buffer, untimed
        auto t2 = std::chrono::steady_clock::now();
        std::memcpy(dst.data(), stored.data(), bytes);
        stored = {};
        auto t3 = std::chrono::steady_clock::now();
        if (i == 0) continue; // warm-up, as the runner's warmup: 1
        w.push_back(std::chrono::duration<double>(t1 - t0).count());
        r.push_back(std::chrono::duration<double>(t3 - t2).count());
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    std::printf("{\"n\": %zu, \"write_s\": %.9g, \"read_s\": %.9g}\n", n, median(w), median(r));
    return 0;
}

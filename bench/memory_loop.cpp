// The tight loop the runner's memory-plugin case is compared with: exactly
// the copies that plugin makes (a memcpy from the caller's buffer into a
// page-aligned block, the same block each repetition as the plugin's spare
// makes it; then a memcpy out of it into a page-aligned buffer), timed with
// the same clock, no runner and no plugin boundary; and the same untimed
// work around them (poisoning the read buffer, comparing what was read),
// because that work decides what the caches hold when a copy starts: with
// the comparison left out, the loop's write took 10% longer than the
// runner's and its read 10% less. Prints JSON medians.
//
//   memory_loop N REPETITIONS
//   memory_loop N REPETITIONS ROUNDS PLUGIN_DIR
//
// The second form alternates, ROUNDS times in this one process, the run
// engine (the runner's loop, a case's session and its case_runner: the code
// `formatbench run` runs, here with the in-process executor rather than in a
// forked worker) on the memory plugin and the tight loop, each
// with REPETITIONS repetitions, and prints both medians per round. Two
// processes started a second apart differ here by up to 20% on the same
// copy (page placement, which core), so a same-process comparison is the
// one that can resolve a 2% overhead.
#include "host/registry.hpp"
#include "results/stats.hpp"
#include "run/buffer.hpp"
#include "run/executor.hpp"
#include "run/runner.hpp"
#include "run/system_info.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace formatbench;

namespace {

struct medians {
    double write_s, read_s;
};

medians tight_loop(const aligned_buffer& src, aligned_buffer& dst, int reps) {
    const std::size_t bytes = src.size();
    std::vector<double> w, r;
    aligned_buffer block(bytes);
    unsigned char* stored = block.data();
    for (int i = 0; i <= reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        std::memcpy(stored, src.data(), bytes);
        auto t1 = std::chrono::steady_clock::now();
        std::memset(dst.data(), 0xA5, bytes); // the runner poisons the read buffer, untimed
        auto t2 = std::chrono::steady_clock::now();
        std::memcpy(dst.data(), stored, bytes);
        auto t3 = std::chrono::steady_clock::now();
        if (std::memcmp(dst.data(), src.data(), bytes) != 0) std::abort(); // the runner verifies, untimed
        if (i == 0) continue; // warm-up, as the runner's warmup: 1
        w.push_back(std::chrono::duration<double>(t1 - t0).count());
        r.push_back(std::chrono::duration<double>(t3 - t2).count());
    }
    return {summarize(w).median, summarize(r).median};
}

medians through_runner(const registry& reg, case_spec spec, int reps) {
    spec.params.warmup = 1;
    spec.params.repeat = static_cast<unsigned>(reps);
    case_environment env;
    env.plugins = &reg;
    env.directory = "/memory";
    env.in_memory_bytes = default_in_memory_bytes();
    auto ex = make_in_process_executor(env);
    study_result run;
    run.spec.cases = {spec};
    observer_list none;
    runner_options o;
    o.in_memory_bytes = env.in_memory_bytes;
    const run_outcome outcome = run_cases(run, *ex, none, o);
    const case_result& r = outcome.result.cases.at(0);
    if (r.status != case_status::ok) {
        std::fprintf(stderr, "memory case failed: %s\n", r.error.c_str());
        std::exit(1);
    }
    return {summarize(write_times(r)).median, summarize(read_times(r)).median};
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::stoull(argv[1]) : 1000000;
    const int reps = argc > 2 ? std::stoi(argv[2]) : 21;
    const std::size_t bytes = n * sizeof(double);
    aligned_buffer src(bytes), dst(bytes);
    std::memset(src.data(), 1, bytes);
    if (argc < 5) {
        medians m = tight_loop(src, dst, reps);
        std::printf("{\"n\": %zu, \"write_s\": %.9g, \"read_s\": %.9g}\n", n, m.write_s, m.read_s);
        return 0;
    }
    const int rounds = std::stoi(argv[3]);
    registry reg;
    reg.load_directories({argv[4]});
    case_spec spec;
    spec.dataset.count = n;
    spec.format.plugin = spec.format.label = "memory";
    std::printf("{\"n\": %zu, \"reps\": %d, \"rounds\": [", n, reps);
    for (int i = 0; i < rounds; ++i) {
        // Odd rounds run the loop first, so that neither side always runs
        // second.
        medians a{}, b{};
        if (i % 2) b = tight_loop(src, dst, reps);
        a = through_runner(reg, spec, reps);
        if (i % 2 == 0) b = tight_loop(src, dst, reps);
        std::printf("%s{\"runner_write_s\": %.9g, \"runner_read_s\": %.9g, \"loop_write_s\": %.9g, "
                    "\"loop_read_s\": %.9g}",
                    i ? ", " : "", a.write_s, a.read_s, b.write_s, b.read_s);
    }
    std::printf("]}\n");
    return 0;
}

// Measures the fortran plugin against the Fortran statements it runs, in
// one process run: the plugin with form formatted, format (f0.16), read
// list-directed, and with form unformatted, access stream; beside them the
// reference program's own statements called in this process on the same
// buffers (bench/fortran/stream_io_calls.f90, open to close, as the plugin
// is timed), and the standalone reference program (bench/fortran/
// stream_io_n.f90, its own timings), one run per round, each run making
// PASSES passes (default 4) of which the passes after the first count
// (bench/fortran_program.hpp), as the other two sides are re-warmed.
// Prints one JSON object for bench/plugin-speed.py. Not a test.
//
//   speed_fortran PLUGIN_DIR WORK_DIR N [RUNS [FORTRAN_EXE [PASSES]]]
#include "fortran_program.hpp"
#include "host/registry.hpp"
#include "results/stats.hpp"
#include "rounds.hpp"
#include "run/buffer.hpp"
#include "run/data.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
void ref_write_f016(const char* path, std::int64_t path_len, const double* x, std::int64_t n);
void ref_read_list(const char* path, std::int64_t path_len, double* x, std::int64_t n);
void ref_write_stream(const char* path, std::int64_t path_len, const double* x, std::int64_t n);
void ref_read_stream(const char* path, std::int64_t path_len, double* x, std::int64_t n);
}

using namespace formatbench;
using namespace formatbench::bench;

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: speed_fortran PLUGIN_DIR WORK_DIR N [RUNS [FORTRAN_EXE [PASSES]]]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const plugin* p = reg.find("fortran");
    if (!p) {
        std::fprintf(stderr, "speed_fortran: no fortran plugin in %s\n", argv[1]);
        return 1;
    }
    const std::string dir = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    const int runs = argc > 4 ? std::stoi(argv[4]) : 5;
    const std::string program = argc > 5 ? argv[5] : "";
    const int passes = argc > 6 ? std::stoi(argv[6]) : 4;
    const std::size_t bytes = n * sizeof(double);

    dataset_spec spec;
    spec.count = n;
    spec.dist = distribution::uniform; // random_number's [0, 1), as the program's
    aligned_buffer data(bytes), back(bytes);
    generator(spec).fill(0, n, data.data());
    const auto* x = reinterpret_cast<const double*>(data.data());
    auto* y = reinterpret_cast<double*>(back.data());
    const auto in = static_cast<std::int64_t>(n);

    std::vector<step> steps;
    // The read buffer is cleared once per unit, before its first write, and
    // not again before the stream write: the program never clears its read
    // buffer, and each side should touch memory as the program does. The
    // stream read's exact check still catches a read that leaves the buffer
    // as the list-directed read left it: (f0.16) keeps 16 decimals, and
    // about a third of uniform [0, 1) doubles need more to come back
    // exactly. Every write replaces the file its side wrote before (an open
    // with status 'replace' truncates it), as the program's passes after its
    // first do; a truncating rewrite and a write to a new file differ on
    // ext4.
    auto nothing = [] {};
    auto clear_back = [&] { std::memset(back.data(), 0, bytes); };
    // Each side runs the program's four statements in the program's order,
    // (f0.16) write, list-directed read, unformatted stream write, stream
    // read, as one unit (stages 0-3), re-warmed before it is timed
    // (bench/rounds.hpp), so each statement follows what it follows in
    // the program: a phase's time can depend on what came just before it
    // (docs/methodology.md, "What a phase follows").
    //
    // The program's checks after each read, untimed (they also decide what
    // the caches hold when the next statement starts): (f0.16) within
    // 1e-15, unformatted exact.
    auto check = [&](const char* who, bool exact) {
        return [&, who, exact] {
            bool ok = true;
            if (exact)
                ok = std::memcmp(back.data(), data.data(), bytes) == 0;
            else
                for (std::size_t i = 0; i < n && ok; ++i)
                    ok = std::fabs(x[i] - y[i]) <= 1e-15;
            if (!ok) std::fprintf(stderr, "%s: read differs from written data\n", who);
        };
    };
    struct config {
        const char* name;
        option_list options;
        bool lossless;
    };
    const config configs[] = {
        {"fortran_f016", {{"form", "formatted"}, {"format", "(f0.16)"}}, false},
        {"fortran_stream", {}, true},
    };
    int stage = 0;
    for (const auto& c : configs) {
        const std::string path = dir + "/" + c.name;
        const int write_stage = stage++;
        steps.emplace_back(
            std::string(c.name) + ".write", "fortran", "plugin", write_stage,
            write_stage == 0 ? std::function<void()>(clear_back) : std::function<void()>(nothing), [&, path] {
                auto s = p->open_write(path, FB_DTYPE_F64, n, c.options);
                s->write(data.data(), n);
                s->close();
            });
        steps.emplace_back(
            std::string(c.name) + ".read", "fortran", "plugin", stage++, nothing,
            [&, path] {
                auto s = p->open_read(path, FB_DTYPE_F64, n, c.options);
                s->read(back.data(), n);
                s->close();
            },
            check(c.name, c.lossless));
    }
    // The same statements in this process, on the same buffers.
    const std::string f016 = dir + "/ref_f016.txt", stream = dir + "/ref_stream.bin";
    const auto f016_len = static_cast<std::int64_t>(f016.size());
    const auto stream_len = static_cast<std::int64_t>(stream.size());
    steps.emplace_back("ref_write_f016_s", "fortran", "ref", 0, clear_back,
                       [&] { ref_write_f016(f016.data(), f016_len, x, in); });
    steps.emplace_back(
        "ref_read_list_s", "fortran", "ref", 1, nothing, [&] { ref_read_list(f016.data(), f016_len, y, in); },
        check("in-process reference, list-directed read", false));
    steps.emplace_back("ref_write_stream_s", "fortran", "ref", 2, nothing,
                       [&] { ref_write_stream(stream.data(), stream_len, x, in); });
    steps.emplace_back(
        "ref_read_stream_s", "fortran", "ref", 3, nothing,
        [&] { ref_read_stream(stream.data(), stream_len, y, in); },
        check("in-process reference, stream read", true));
    // The standalone program: its own four timings, one run per round.
    std::vector<double> program_times[4];
    if (!program.empty()) {
        steps.emplace_back("program_process_s", "fortran", "program", 0, nothing,
                           [&] { run_fortran_program(program, dir, n, passes, program_times); });
        steps.back().rewarms = false; // its first pass is its warm-up
    }

    run_rounds(runs, steps);

    nlohmann::json out{{"n", n}, {"runs", runs}};
    for (const auto& s : steps) {
        if (s.key == "program_process_s") continue;
        out["median_s"][s.key] = summarize(s.seconds).median;
        out["samples_s"][s.key] = s.seconds;
    }
    if (!program_times[0].empty()) {
        const char* names[4] = {"program_write_f016_s", "program_read_list_s", "program_write_stream_s",
                                "program_read_stream_s"};
        for (int k = 0; k < 4; ++k) {
            program_times[k].erase(program_times[k].begin()); // the warm-up round
            out["median_s"][names[k]] = summarize(program_times[k]).median;
            out["samples_s"][names[k]] = program_times[k];
        }
    }
    for (const std::string& f : {dir + "/fortran_f016", dir + "/fortran_stream", f016, stream})
        ::unlink(f.c_str());
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

// Measures the fortran plugin against the Fortran statements it runs, in
// one process run: the plugin with form formatted, format (f0.16), read
// list-directed, and with form unformatted, access stream; beside them the
// reference program's own statements called in this process on the same
// buffers (bench/fortran/stream_io_calls.f90, open to close, as the plugin
// is timed), and the standalone reference program (bench/fortran/
// stream_io_n.f90, its own timings), one run per round. Prints one JSON
// object for bench/plugin-speed.py. Not a test.
//
//   speed_fortran PLUGIN_DIR WORK_DIR N [RUNS [FORTRAN_EXE]]
#include "run/buffer.hpp"
#include "run/data.hpp"
#include "host/registry.hpp"
#include "rounds.hpp"
#include "results/stats.hpp"

#include <unistd.h>

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

namespace {

// Runs the standalone program for n values in dir and appends the four
// times it prints (formatted write, read, unformatted write, read).
void run_program(const std::string& exe, const std::string& dir, std::size_t n, std::vector<double> (&t)[4]) {
    std::string command = "cd '" + dir + "' && '" + exe + "' " + std::to_string(n);
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) throw std::runtime_error("cannot run " + exe);
    double v[5] = {0, 0, 0, 0, 0};
    int got = std::fscanf(p, "%lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4]);
    int status = ::pclose(p);
    if (got != 5 || status != 0) throw std::runtime_error(exe + " failed or printed no times");
    for (int k = 0; k < 4; ++k)
        t[k].push_back(v[k + 1]);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: speed_fortran PLUGIN_DIR WORK_DIR N [RUNS [FORTRAN_EXE]]\n");
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
    auto clear_back = [&] { std::memset(back.data(), 0, bytes); };
    // The plugin's two settings, as the default study's gfortran rows.
    struct config {
        const char* name;
        option_list options;
        bool lossless;
    };
    const config configs[] = {
        {"fortran_f016", {{"form", "formatted"}, {"format", "(f0.16)"}}, false},
        {"fortran_stream", {}, true},
    };
    for (const auto& c : configs) {
        const std::string path = dir + "/" + c.name;
        steps.emplace_back(
            std::string(c.name) + ".write", "fortran", c.name, 0, [path] { ::unlink(path.c_str()); },
            [&, path] {
                auto s = p->open_write(path, FB_DTYPE_F64, n, c.options);
                s->write(data.data(), n);
                s->close();
            });
        steps.emplace_back(
            std::string(c.name) + ".read", "fortran", c.name, 1, clear_back,
            [&, path] {
                auto s = p->open_read(path, FB_DTYPE_F64, n, c.options);
                s->read(back.data(), n);
                s->close();
            },
            [&] {
                if (c.lossless && std::memcmp(back.data(), data.data(), bytes) != 0)
                    std::fprintf(stderr, "%s: read differs from written data\n", c.name);
            });
    }
    // The same statements in this process, on the same buffers.
    const std::string f016 = dir + "/ref_f016.txt", stream = dir + "/ref_stream.bin";
    const auto f016_len = static_cast<std::int64_t>(f016.size());
    const auto stream_len = static_cast<std::int64_t>(stream.size());
    steps.emplace_back(
        "ref_write_f016_s", "fortran", "ref_f016", 0, [&] { ::unlink(f016.c_str()); },
        [&] { ref_write_f016(f016.data(), f016_len, x, in); });
    steps.emplace_back("ref_read_list_s", "fortran", "ref_f016", 1, clear_back,
                       [&] { ref_read_list(f016.data(), f016_len, y, in); });
    steps.emplace_back(
        "ref_write_stream_s", "fortran", "ref_stream", 0, [&] { ::unlink(stream.c_str()); },
        [&] { ref_write_stream(stream.data(), stream_len, x, in); });
    steps.emplace_back(
        "ref_read_stream_s", "fortran", "ref_stream", 1, clear_back,
        [&] { ref_read_stream(stream.data(), stream_len, y, in); },
        [&] {
            if (std::memcmp(back.data(), data.data(), bytes) != 0)
                std::fprintf(stderr, "in-process reference: stream read differs from written data\n");
        });
    // The standalone program: its own four timings, one run per round.
    std::vector<double> program_times[4];
    if (!program.empty()) {
        steps.emplace_back(
            "program_process_s", "fortran", "program", 0,
            [&] {
                ::unlink((dir + "/temp.txt").c_str()); // each run writes new files
                ::unlink((dir + "/temp.bin").c_str());
            },
            [&] { run_program(program, dir, n, program_times); });
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

// Measures the built-in plugins beside the bare references they are judged
// against, in one process run: std::to_chars / std::from_chars loops on both
// cores, one plain write()/read() of the same bytes, zlib's own compress2.
// Prints one JSON object (medians in seconds) for bench/plugin-speed.py,
// which prints the ratios. Not a test.
//
//   plugin_speed PLUGIN_DIR WORK_DIR N [RUNS [ONLY [FORTRAN_EXE]]]
//
// ONLY, a comma-separated list of case names ("ref" for the references,
// "all" for everything), limits the run to those cases, for profiling one
// of them alone. FORTRAN_EXE, bench/fortran/stream_io_n built with gfortran,
// is run once per round in WORK_DIR beside the ascii steps; the times it
// prints itself are recorded (key "fortran").
#include "fortran_program.hpp"
#include "host/registry.hpp"
#include "plain_file.hpp"
#include "results/stats.hpp"
#include "rounds.hpp"
#include "run/buffer.hpp"
#include "run/case_runner.hpp"
#include "run/data.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace formatbench;
using namespace formatbench::bench;

namespace {

double median_of(std::vector<double> v) {
    return summarize(std::move(v)).median;
}

// The second core of a two-core reference loop. prepare(), in a step's
// untimed `before`, starts a thread pinned to a CPU other than this one's
// and waits until it spins there; run(), timed, hands it the upper half of
// [0, n) and does the lower half here. So the timed part is the bare loop on
// both cores: no thread start and no wake-up of an idle vCPU, which on this
// project's VMs took 0.05-4.7 ms, and a new thread was often left on its
// creator's vCPU for up to 14 ms (the plugins pay for both themselves).
class second_core {
public:
    using task = std::function<void(std::size_t, std::size_t, int)>;
    void prepare() {
        cpu_set_t there;
        CPU_ZERO(&there);
        sched_getaffinity(0, sizeof there, &there);
        if (CPU_COUNT(&there) > 1) CPU_CLR(sched_getcpu(), &there);
        go_ = false;
        running_ = false;
        thread_ = std::thread([this, there] {
            sched_setaffinity(0, sizeof there, &there);
            running_ = true;
            while (!go_.load(std::memory_order_acquire)) {
            }
            (*task_)(n_ / 2, n_, 1);
        });
        while (!running_.load()) {
        }
    }
    void run(std::size_t n, const task& fn) {
        if (!thread_.joinable()) prepare();
        task_ = &fn;
        n_ = n;
        go_.store(true, std::memory_order_release);
        fn(0, n / 2, 0);
        thread_.join();
    }

private:
    std::thread thread_;
    std::atomic<bool> go_{false}, running_{false};
    const task* task_ = nullptr;
    std::size_t n_ = 0;
};

struct text_reference {
    std::vector<char> part[2];
    std::size_t used[2] = {0, 0};
};

void format_two_cores(second_core& core, const double* x, std::size_t n, text_reference& t, bool fixed16) {
    core.run(n, [&](std::size_t a, std::size_t b, int k) {
        char* p = t.part[k].data();
        for (std::size_t i = a; i < b; ++i) {
            p = fixed16 ? std::to_chars(p, p + 64, x[i], std::chars_format::fixed, 16).ptr
                        : std::to_chars(p, p + 64, x[i]).ptr;
            *p++ = '\n';
        }
        t.used[k] = static_cast<std::size_t>(p - t.part[k].data());
    });
}

// Parses part k of the text (one value per line) into out.
void parse_part(const text_reference& t, int k, double* out) {
    const char* p = t.part[k].data();
    const char* end = p + t.used[k];
    while (p < end) {
        p = std::from_chars(p, end, *out++).ptr + 1;
    }
}

// The same parse on this thread alone: against parse_two_cores it shows how
// far the two cores ran in parallel in that round (2 when they both did).
void parse_one_core(const text_reference& t, double* out, std::size_t n) {
    parse_part(t, 0, out);
    parse_part(t, 1, out + n / 2);
}

void parse_two_cores(second_core& core, const text_reference& t, double* out, std::size_t n) {
    core.run(n, [&](std::size_t a, std::size_t, int k) { parse_part(t, k, out + a); });
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: plugin_speed PLUGIN_DIR WORK_DIR N [RUNS [ONLY]]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const std::string dir = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    const int runs = argc > 4 ? std::stoi(argv[4]) : 5;
    // ",a,b," (built with append: GCC 12 warns falsely, -Wrestrict, on "," + s + ",").
    std::string only;
    if (argc > 5 && std::string(argv[5]) != "all") only.append(",").append(argv[5]).append(",");
    auto selected = [&](const std::string& name) {
        return only.empty() || only.find("," + name + ",") != std::string::npos;
    };
    const std::string fortran = argc > 6 ? argv[6] : "";
    const std::size_t bytes = n * sizeof(double);

    nlohmann::json out{{"n", n}, {"runs", runs}, {"plugins", nlohmann::json::object()}};
    for (const char* dist : {"uniform", "smooth"}) {
        const bool uniform = std::string(dist) == "uniform";
        dataset_spec spec;
        spec.count = n;
        spec.dist = uniform ? distribution::uniform : distribution::smooth;
        aligned_buffer data(bytes), back(bytes);
        generator(spec).fill(0, n, data.data());
        const auto* x = reinterpret_cast<const double*>(data.data());
        auto* y = reinterpret_cast<double*>(back.data());
        auto nothing = [] {};
        std::vector<step> steps;

        // References.
        text_reference t;
        second_core core;
        const std::string plain = dir + "/plain.bin";
        std::vector<unsigned char> z(compressBound(bytes));
        uLongf zlen = z.size();
        if (uniform && selected("ref")) {
            t.part[0].resize(n * 32 + 64);
            t.part[1].resize(n * 32 + 64);
            auto prepare = [&] { core.prepare(); };
            steps.emplace_back("to_chars_fixed16_2cores_s", "ascii_fixed16", "to_chars_fixed16", 0, prepare,
                               [&] { format_two_cores(core, x, n, t, true); });
            // from_chars parses the shortest text, made in stage 0.
            steps.emplace_back("to_chars_shortest_2cores_s", "ascii_shortest", "chars", 0, prepare,
                               [&] { format_two_cores(core, x, n, t, false); });
            auto check_parse = [&] {
                if (std::memcmp(back.data(), data.data(), bytes) != 0)
                    std::fprintf(stderr, "reference parse differs\n");
            };
            steps.emplace_back(
                "from_chars_2cores_s", "ascii_shortest", "chars", 1, prepare,
                [&] { parse_two_cores(core, t, y, n); }, check_parse);
            steps.emplace_back(
                "from_chars_1core_s", "ascii_shortest", "chars", 1, nothing, [&] { parse_one_core(t, y, n); },
                check_parse);
            steps.emplace_back(
                "plain_write_s", "raw", "plain", 0, [&] { ::unlink(plain.c_str()); },
                [&] { write_file(plain, data.data(), bytes); });
            steps.emplace_back(
                "plain_read_s", "raw", "plain", 1, [&] { std::memset(back.data(), 0, bytes); },
                [&] { read_exact(plain, back.data(), bytes); });
        }
        // The Fortran reference program's own timings, one run per round,
        // beside the ascii figures (it also times unformatted stream I/O).
        std::vector<double> fortran_times[4];
        if (uniform && !fortran.empty()) {
            steps.emplace_back(
                "fortran_process_s", "ascii_shortest", "fortran", 0,
                [&] {
                    ::unlink((dir + "/temp.txt").c_str()); // each run writes new files
                    ::unlink((dir + "/temp.bin").c_str());
                },
                [&] { run_fortran_program(fortran, dir, n, 1, fortran_times); });
            steps.back().rewarms = false; // one run per round, as the seed's figures were taken
        }
        if (selected("ref")) {
            steps.emplace_back(std::string("compress2_l6_") + dist + "_s", "zlib", "compress2", 0, nothing,
                               [&] {
                                   zlen = z.size();
                                   compress2(z.data(), &zlen, data.data(), bytes, 6);
                               });
        }

        struct config {
            const char* name;
            const char* group;
            const char* plugin;
            option_list options;
            bool uniform_only;
            bool lossless;
            // Read through the zero-copy view (a study's read: view): open,
            // view, one load per page, close; checked untimed afterwards.
            bool view = false;
        };
        const std::vector<config> configs = {
            {"ascii_shortest", "ascii_shortest", "ascii", {}, true, true},
            {"ascii_fixed16",
             "ascii_fixed16",
             "ascii",
             {{"notation", "fixed"}, {"precision", "16"}, {"leading_zero", "false"}},
             true,
             false},
            {"raw", "raw", "raw", {}, true, true},
            {"mmap", "raw", "mmap", {}, true, true},
            {"mmap_view", "raw", "mmap", {}, true, true, true},
            {"zlib_l6_t1", "zlib", "zlib", {{"level", "6"}}, false, true},
            {"zlib_l6_t2", "zlib", "zlib", {{"level", "6"}, {"threads", "2"}}, false, true},
            {"zlib_l6_shuffle", "zlib", "zlib", {{"level", "6"}, {"shuffle", "true"}}, false, true},
            {"zlib_l6_shuffle_t2",
             "zlib",
             "zlib",
             {{"level", "6"}, {"shuffle", "true"}, {"threads", "2"}},
             false,
             true},
        };
        std::vector<const config*> chosen;
        for (const auto& c : configs) {
            if ((c.uniform_only && !uniform) || !selected(c.name) || !reg.find(c.plugin)) continue;
            chosen.push_back(&c);
            const plugin* p = reg.find(c.plugin);
            const std::string path = dir + "/" + c.name;
            steps.emplace_back(
                std::string(c.name) + ".write", c.group, c.name, 0, [path] { ::unlink(path.c_str()); },
                [&, p, path] {
                    auto s = p->open_write(path, FB_DTYPE_F64, n, c.options);
                    s->write(data.data(), n);
                    s->close();
                });
            if (c.view) {
                steps.emplace_back(
                    std::string(c.name) + ".read", c.group, c.name, 1, nothing,
                    [&, p, path] {
                        auto s = p->open_read(path, FB_DTYPE_F64, n, c.options);
                        touch_pages(static_cast<const unsigned char*>(s->view(n)), bytes);
                        s->close();
                    },
                    [&, p, path] {
                        auto s = p->open_read(path, FB_DTYPE_F64, n, c.options);
                        if (std::memcmp(s->view(n), data.data(), bytes) != 0)
                            std::fprintf(stderr, "%s: view differs from written data\n", c.name);
                        s->close();
                    });
                continue;
            }
            steps.emplace_back(
                std::string(c.name) + ".read", c.group, c.name, 1,
                [&] { std::memset(back.data(), 0, bytes); },
                [&, p, path] {
                    auto s = p->open_read(path, FB_DTYPE_F64, n, c.options);
                    s->read(back.data(), n);
                    s->close();
                },
                [&] {
                    if (c.lossless && std::memcmp(back.data(), data.data(), bytes) != 0)
                        std::fprintf(stderr, "%s: read differs from written data\n", c.name);
                });
        }

        run_rounds(runs, steps);
        if (!fortran_times[0].empty()) {
            const char* names[4] = {"write_s", "read_s", "unformatted_write_s", "unformatted_read_s"};
            for (int k = 0; k < 4; ++k) {
                fortran_times[k].erase(fortran_times[k].begin()); // the warm-up round
                out["fortran"][names[k]] = median_of(fortran_times[k]);
                out["fortran_samples"][names[k]] = fortran_times[k];
            }
        }

        for (const auto& s : steps) {
            if (s.key.find('.') != std::string::npos || s.key.rfind("fortran", 0) == 0) continue;
            out["ref"][s.key] = median_of(s.seconds);
            out["ref_samples"][s.key] = s.seconds;
        }
        if (selected("ref"))
            out["ref"][std::string("compress2_l6_") + dist + "_ratio"] = double(bytes) / double(zlen);
        for (const config* c : chosen) {
            const std::string path = dir + "/" + c->name;
            FILE* f = std::fopen(path.c_str(), "rb");
            std::fseek(f, 0, SEEK_END);
            long size = std::ftell(f);
            std::fclose(f);
            ::unlink(path.c_str());
            auto samples = [&](const std::string& what) {
                for (const auto& s : steps)
                    if (s.key == std::string(c->name) + "." + what) return s.seconds;
                return std::vector<double>{};
            };
            std::string key = std::string(c->name) + (uniform ? "" : "_smooth");
            out["plugins"][key] = {{"write_s", median_of(samples("write"))},
                                   {"read_s", median_of(samples("read"))},
                                   {"write_samples_s", samples("write")},
                                   {"read_samples_s", samples("read")},
                                   {"ratio", double(bytes) / double(size)}};
        }
        ::unlink(plain.c_str());
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

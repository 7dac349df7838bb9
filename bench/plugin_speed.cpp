// Measures the built-in plugins beside the bare references they are judged
// against, in one process run: std::to_chars / std::from_chars loops on both
// cores, one plain write()/read() of the same bytes, zlib's own compress2.
// Prints one JSON object (medians in seconds) for bench/plugin-speed.py,
// which adds the Fortran reference and prints the ratios. Not a test.
//
//   plugin_speed PLUGIN_DIR WORK_DIR N [RUNS [ONLY]]
//
// ONLY, a comma-separated list of case names ("ref" for the references),
// limits the run to those cases, for profiling one of them alone.
#include "buffer.hpp"
#include "data.hpp"
#include "registry.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

using namespace formatbench;
using clock_type = std::chrono::steady_clock;

namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Runs fn (after `before`, untimed) once as warm-up and `runs` times timed.
double time_median(int runs, const std::function<void()>& before, const std::function<void()>& fn) {
    std::vector<double> t;
    for (int i = 0; i <= runs; ++i) {
        before();
        auto a = clock_type::now();
        fn();
        auto b = clock_type::now();
        if (i > 0) t.push_back(std::chrono::duration<double>(b - a).count());
    }
    return median_of(t);
}

// Both halves of [0, n) on two threads.
void on_two_cores(std::size_t n, const std::function<void(std::size_t, std::size_t, int)>& fn) {
    std::thread other([&] { fn(n / 2, n, 1); });
    fn(0, n / 2, 0);
    other.join();
}

struct text_reference {
    std::vector<char> part[2];
    std::size_t used[2] = {0, 0};
};

void format_two_cores(const double* x, std::size_t n, text_reference& t, bool fixed16) {
    on_two_cores(n, [&](std::size_t a, std::size_t b, int k) {
        char* p = t.part[k].data();
        for (std::size_t i = a; i < b; ++i) {
            p = fixed16 ? std::to_chars(p, p + 64, x[i], std::chars_format::fixed, 16).ptr
                        : std::to_chars(p, p + 64, x[i]).ptr;
            *p++ = '\n';
        }
        t.used[k] = static_cast<std::size_t>(p - t.part[k].data());
    });
}

void parse_two_cores(const text_reference& t, double* out, std::size_t n) {
    on_two_cores(n, [&](std::size_t a, std::size_t, int k) {
        const char* p = t.part[k].data();
        const char* end = p + t.used[k];
        double* o = out + a;
        while (p < end) {
            p = std::from_chars(p, end, *o++).ptr + 1;
        }
    });
}

void plain_write(const std::string& path, const void* data, std::size_t bytes) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const char* p = static_cast<const char*>(data);
    while (bytes) {
        ssize_t w = ::write(fd, p, bytes);
        if (w <= 0) break;
        p += w;
        bytes -= static_cast<std::size_t>(w);
    }
    ::close(fd);
}

void plain_read(const std::string& path, void* data, std::size_t bytes) {
    int fd = ::open(path.c_str(), O_RDONLY);
    char* p = static_cast<char*>(data);
    while (bytes) {
        ssize_t r = ::read(fd, p, bytes);
        if (r <= 0) break;
        p += r;
        bytes -= static_cast<std::size_t>(r);
    }
    ::close(fd);
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
    const std::string only = argc > 5 ? "," + std::string(argv[5]) + "," : "";
    auto selected = [&](const std::string& name) {
        return only.empty() || only.find("," + name + ",") != std::string::npos;
    };
    const std::size_t bytes = n * sizeof(double);

    nlohmann::json out{{"n", n}, {"runs", runs}, {"plugins", nlohmann::json::object()}};
    for (const char* dist : {"uniform", "smooth"}) {
        dataset_spec spec;
        spec.count = n;
        spec.dist = std::string(dist) == "uniform" ? distribution::uniform : distribution::smooth;
        aligned_buffer data(bytes), back(bytes);
        generator(spec).fill(0, n, data.data());
        const auto* x = reinterpret_cast<const double*>(data.data());

        if (spec.dist == distribution::uniform && selected("ref")) {
            // References.
            text_reference t;
            t.part[0].resize(n * 32 + 64);
            t.part[1].resize(n * 32 + 64);
            out["ref"]["to_chars_shortest_2cores_s"] = time_median(
                runs, [] {}, [&] { format_two_cores(x, n, t, false); });
            out["ref"]["from_chars_2cores_s"] = time_median(
                runs, [] {}, [&] { parse_two_cores(t, reinterpret_cast<double*>(back.data()), n); });
            if (std::memcmp(back.data(), data.data(), bytes) != 0)
                std::fprintf(stderr, "reference parse differs\n");
            out["ref"]["to_chars_fixed16_2cores_s"] = time_median(
                runs, [] {}, [&] { format_two_cores(x, n, t, true); });
            const std::string plain = dir + "/plain.bin";
            out["ref"]["plain_write_s"] = time_median(
                runs, [&] { ::unlink(plain.c_str()); }, [&] { plain_write(plain, data.data(), bytes); });
            out["ref"]["plain_read_s"] = time_median(
                runs, [] {}, [&] { plain_read(plain, back.data(), bytes); });
            ::unlink(plain.c_str());
        }
        if (selected("ref")) {
            std::vector<unsigned char> z(compressBound(bytes));
            uLongf zlen = z.size();
            out["ref"][std::string("compress2_l6_") + dist + "_s"] = time_median(
                runs, [] {},
                [&] {
                    zlen = z.size();
                    compress2(z.data(), &zlen, data.data(), bytes, 6);
                });
            out["ref"][std::string("compress2_l6_") + dist + "_ratio"] = double(bytes) / double(zlen);
        }

        struct config {
            const char* name;
            const char* plugin;
            option_list options;
            bool uniform_only;
        };
        const std::vector<config> configs = {
            {"ascii_shortest", "ascii", {}, true},
            {"ascii_fixed16",
             "ascii",
             {{"notation", "fixed"}, {"precision", "16"}, {"leading_zero", "false"}},
             true},
            {"raw", "raw", {}, true},
            {"mmap", "mmap", {}, true},
            {"zlib_l6_t1", "zlib", {{"level", "6"}}, false},
            {"zlib_l6_t2", "zlib", {{"level", "6"}, {"threads", "2"}}, false},
            {"zlib_l6_shuffle", "zlib", {{"level", "6"}, {"shuffle", "true"}}, false},
            {"zlib_l6_shuffle_t2", "zlib", {{"level", "6"}, {"shuffle", "true"}, {"threads", "2"}}, false},
        };
        for (const auto& c : configs) {
            if ((c.uniform_only && spec.dist != distribution::uniform) || !selected(c.name)) continue;
            const plugin* p = reg.find(c.plugin);
            if (!p) continue;
            const std::string path = dir + "/" + c.name;
            double w = time_median(
                runs, [&] { ::unlink(path.c_str()); },
                [&] {
                    auto s = p->open_write(path, FB_DTYPE_F64, n, c.options);
                    s->write(data.data(), n);
                    s->close();
                });
            double r = time_median(
                runs, [&] { std::memset(back.data(), 0, bytes); },
                [&] {
                    auto s = p->open_read(path, FB_DTYPE_F64, n, c.options);
                    s->read(back.data(), n);
                    s->close();
                });
            FILE* f = std::fopen(path.c_str(), "rb");
            std::fseek(f, 0, SEEK_END);
            long size = std::ftell(f);
            std::fclose(f);
            ::unlink(path.c_str());
            std::string key = std::string(c.name) + (spec.dist == distribution::uniform ? "" : "_smooth");
            out["plugins"][key] = {{"write_s", w}, {"read_s", r}, {"ratio", double(bytes) / double(size)}};
        }
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

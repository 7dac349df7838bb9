// Measures the zfp plugin beside its bare reference in one process run:
// each plugin write (open, write the whole array, close) and read (open,
// read it all, close) next to the same work done with libzfp directly,
// timed the same way, open to close:
//   zfp_<mode>_plugin: the plugin;
//   zfp_<mode>_ref:    zfp_write_header + zfp_compress into a buffer,
//                      write(2), close; open, read(2) the whole file,
//                      zfp_read_header + zfp_decompress, close;
//   zfp_<mode>_codec:  the same zfp calls alone, memory to memory.
// Modes: reversible, rate 16, accuracy 1e-6, on uniform and smooth float64
// data (run/data.hpp's generator). A plugin and its references form one
// group (bench/rounds.hpp): back to back, their order rotating every
// round. Prints one JSON object (every sample, in seconds) for
// bench/plugin-speed.py --zfp, which prints the ratios. Figures only.
//
//   speed_zfp PLUGIN_DIR WORK_DIR N [RUNS]
#include "host/registry.hpp"
#include "plain_file.hpp"
#include "rounds.hpp"
#include "run/buffer.hpp"
#include "run/data.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zfp.h>

#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

using namespace formatbench;
using namespace formatbench::bench;

namespace {

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(what);
}

std::size_t read_file(const std::string& path, unsigned char* buf, std::size_t capacity) {
    int fd = ::open(path.c_str(), O_RDONLY);
    check(fd >= 0, "open");
    struct stat st {};
    ::fstat(fd, &st);
    std::size_t size = static_cast<std::size_t>(st.st_size), done = 0;
    check(size <= capacity, "file larger than the buffer");
    while (done < size) {
        ssize_t r = ::read(fd, buf + done, size - done);
        check(r > 0, "read");
        done += static_cast<std::size_t>(r);
    }
    ::close(fd);
    return size;
}

struct zfp_mode_spec {
    const char* name;
    option_list options;
    void (*apply)(zfp_stream*);
};

const zfp_mode_spec modes[] = {
    {"reversible", {}, [](zfp_stream* s) { zfp_stream_set_reversible(s); }},
    {"rate16",
     {{"mode", "rate"}, {"rate", "16"}},
     [](zfp_stream* s) { zfp_stream_set_rate(s, 16, zfp_type_double, 1, zfp_false); }},
    {"accuracy1e-6",
     {{"mode", "accuracy"}, {"accuracy", "1e-6"}},
     [](zfp_stream* s) { zfp_stream_set_accuracy(s, 1e-6); }},
};

// zfp_compress of the 1-D array with the full header, as zfpy and the plugin.
std::size_t compress(const zfp_mode_spec& m, const double* data, std::size_t n, unsigned char* out,
                     std::size_t cap) {
    zfp_field* f = zfp_field_1d(const_cast<double*>(data), zfp_type_double, n);
    zfp_stream* z = zfp_stream_open(nullptr);
    m.apply(z);
    check(zfp_stream_maximum_size(z, f) <= cap, "zfp buffer");
    bitstream* b = stream_open(out, cap);
    zfp_stream_set_bit_stream(z, b);
    zfp_stream_rewind(z);
    check(zfp_write_header(z, f, ZFP_HEADER_FULL) != 0, "zfp_write_header");
    std::size_t size = zfp_compress(z, f);
    check(size != 0, "zfp_compress");
    stream_close(b);
    zfp_stream_close(z);
    zfp_field_free(f);
    return size;
}

void decompress(const unsigned char* in, std::size_t size, double* out) {
    zfp_field* f = zfp_field_alloc();
    zfp_stream* z = zfp_stream_open(nullptr);
    bitstream* b = stream_open(const_cast<unsigned char*>(in), size);
    zfp_stream_set_bit_stream(z, b);
    zfp_stream_rewind(z);
    check(zfp_read_header(z, f, ZFP_HEADER_FULL) != 0, "zfp_read_header");
    zfp_field_set_pointer(f, out);
    check(zfp_decompress(z, f) != 0, "zfp_decompress");
    stream_close(b);
    zfp_stream_close(z);
    zfp_field_free(f);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: speed_zfp PLUGIN_DIR WORK_DIR N [RUNS]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const plugin* p = reg.find("zfp");
    if (!p) {
        std::fprintf(stderr, "speed_zfp: no zfp plugin in %s\n", argv[1]);
        return 2;
    }
    const std::string dir = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    const int runs = argc > 4 ? std::stoi(argv[4]) : 5;
    const std::size_t bytes = n * sizeof(double);
    const std::size_t cap = bytes * 2 + 4096; // above zfp_stream_maximum_size for 1-D doubles

    nlohmann::json out{{"n", n}, {"runs", runs}, {"units", nlohmann::json::object()}};
    for (const char* dist : {"uniform", "smooth"}) {
        dataset_spec spec;
        spec.count = n;
        spec.dist = std::string(dist) == "uniform" ? distribution::uniform : distribution::smooth;
        aligned_buffer data(bytes), back(bytes), packed(cap);
        generator(spec).fill(0, n, data.data());
        const double* x = reinterpret_cast<const double*>(data.data());
        double* y = reinterpret_cast<double*>(back.data());
        std::size_t packed_size = 0;
        std::vector<step> steps;
        auto clear_back = [&] { std::memset(back.data(), 0, bytes); };
        for (const zfp_mode_spec& m : modes) {
            const std::string group = m.name;
            const std::string unit = std::string("zfp_") + m.name;
            const std::string path = dir + "/" + unit + "_plugin";
            steps.emplace_back(
                unit + "_plugin.write", group, unit + "_plugin", 0, [path] { ::unlink(path.c_str()); },
                [&, path, o = m.options] {
                    auto s = p->open_write(path, FB_DTYPE_F64, n, o);
                    s->write(data.data(), n);
                    s->close();
                });
            steps.emplace_back(unit + "_plugin.read", group, unit + "_plugin", 1, clear_back,
                               [&, path, o = m.options] {
                                   auto s = p->open_read(path, FB_DTYPE_F64, n, o);
                                   s->read(back.data(), n);
                                   s->close();
                               });
            for (bool with_file : {true, false}) {
                const std::string u = unit + (with_file ? "_ref" : "_codec");
                const std::string rpath = dir + "/" + u;
                steps.emplace_back(
                    u + ".write", group, u, 0, [rpath] { ::unlink(rpath.c_str()); },
                    [&, rpath, with_file, mp = &m] {
                        packed_size = compress(*mp, x, n, packed.data(), cap);
                        if (with_file) write_file(rpath, packed.data(), packed_size);
                    });
                steps.emplace_back(u + ".read", group, u, 1, clear_back, [&, rpath, with_file] {
                    std::size_t z = with_file ? read_file(rpath, packed.data(), cap) : packed_size;
                    decompress(packed.data(), z, y);
                });
            }
        }
        run_rounds(runs, steps);
        for (const auto& s : steps) {
            const std::string phase = s.stage == 0 ? "write" : "read";
            auto& u = out["units"][s.unit + (spec.dist == distribution::uniform ? "" : "_smooth")];
            u[phase + "_samples_s"] = s.seconds;
            const std::string path = dir + "/" + s.unit;
            if (s.stage == 1 && ::access(path.c_str(), F_OK) == 0) {
                struct stat st {};
                ::stat(path.c_str(), &st);
                u["ratio"] = double(bytes) / double(st.st_size);
                ::unlink(path.c_str());
            }
        }
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

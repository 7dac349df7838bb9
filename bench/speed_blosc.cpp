// Measures the blosc plugin beside a bare C loop that makes the same file
// with the same settings and threads, in one process run:
//   blosc_plugin_CFG: open, write the whole array in one call, close; open,
//             read it all in one call, close (the plugin through the core
//             registry, as a study runs it);
//   blosc_ref_CFG: open(2); write(2) the 40-byte header; per chunk
//             blosc_compress_ctx into a buffer behind its 4-byte length and
//             one write(2); close(2). Reading: open(2); read(2) the header
//             and the first length; per chunk one read(2) of the chunk and
//             the next length, blosc_decompress_ctx into the array; close(2).
// CFG is a codec, level, shuffle and thread count (below). A plugin and its
// reference form one group (bench/rounds.hpp), so they run back to back,
// their order rotating every round. Prints one JSON object (every sample, in
// seconds) for bench/plugin-speed.py --blosc, which prints the ratios.
// Figures only, not a test.
//
//   speed_blosc PLUGIN_DIR WORK_DIR N [RUNS]
#include "host/registry.hpp"
#include "rounds.hpp"
#include "run/buffer.hpp"
#include "run/data.hpp"

#include <blosc.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

using namespace formatbench;
using namespace formatbench::bench;

namespace {

constexpr std::size_t chunk_bytes = std::size_t{4} << 20; // the plugin's default chunk_size

struct config {
    std::string name, codec;
    int level, shuffle, threads;
};

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(what);
}

void put_le32(unsigned char* b, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        b[i] = static_cast<unsigned char>(v >> (8 * i));
}

void write_all(int fd, const unsigned char* p, std::size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        check(w > 0, "write");
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

std::size_t read_all(int fd, unsigned char* p, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        ssize_t r = ::read(fd, p + done, n - done);
        check(r >= 0, "read");
        if (r == 0) break;
        done += static_cast<std::size_t>(r);
    }
    return done;
}

// The container of plugins/blosc/README.md, made by the bare loop.
void reference_write(const std::string& path, const unsigned char* data, std::size_t n, const config& c,
                     unsigned char* buf) {
    const std::size_t bytes = n * 8, chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    check(fd >= 0, "open for writing");
    unsigned char header[40] = {'F', 'B', 'B', 'L', 'O', 'S', 'C', '\n', 1, 0, 0, 0, FB_DTYPE_F64, 8, 0, 0};
    put_le32(header + 16, n, 8);
    put_le32(header + 24, chunk_bytes, 8);
    put_le32(header + 32, chunks, 8);
    write_all(fd, header, sizeof header);
    for (std::size_t at = 0; at < bytes; at += chunk_bytes) {
        const std::size_t k = std::min(chunk_bytes, bytes - at);
        int z = blosc_compress_ctx(c.level, c.shuffle, 8, k, data + at, buf + 4, k + BLOSC_MAX_OVERHEAD,
                                   c.codec.c_str(), 0, c.threads);
        check(z > 0, "blosc_compress_ctx");
        put_le32(buf, static_cast<std::uint64_t>(z), 4);
        write_all(fd, buf, 4 + static_cast<std::size_t>(z));
    }
    check(::close(fd) == 0, "close");
}

void reference_read(const std::string& path, unsigned char* out, std::size_t n, const config& c,
                    unsigned char* buf) {
    const std::size_t bytes = n * 8;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    check(fd >= 0, "open for reading");
    unsigned char header[44];
    check(read_all(fd, header, sizeof header) == sizeof header, "header");
    std::size_t next = std::size_t(header[40]) | std::size_t(header[41]) << 8 |
                       std::size_t(header[42]) << 16 | std::size_t(header[43]) << 24;
    for (std::size_t at = 0; at < bytes; at += chunk_bytes) {
        const std::size_t k = std::min(chunk_bytes, bytes - at);
        const bool last = at + k == bytes;
        const std::size_t want = next + (last ? 0 : 4);
        check(read_all(fd, buf, want) == want, "chunk");
        check(blosc_decompress_ctx(buf, out + at, k, c.threads) == static_cast<int>(k),
              "blosc_decompress_ctx");
        if (!last)
            next = std::size_t(buf[next]) | std::size_t(buf[next + 1]) << 8 |
                   std::size_t(buf[next + 2]) << 16 | std::size_t(buf[next + 3]) << 24;
    }
    ::close(fd);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: speed_blosc PLUGIN_DIR WORK_DIR N [RUNS]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const plugin* p = reg.find("blosc");
    if (!p) {
        std::fprintf(stderr, "speed_blosc: no blosc plugin in %s\n", argv[1]);
        return 2;
    }
    const std::string dir = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    const int runs = argc > 4 ? std::stoi(argv[4]) : 5;
    const std::size_t bytes = n * sizeof(double);
    cpu_set_t set;
    CPU_ZERO(&set);
    const int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;

    std::vector<config> configs = {{"blosclz_5_byte_t1", "blosclz", 5, BLOSC_SHUFFLE, 1},
                                   {"lz4_5_byte_t1", "lz4", 5, BLOSC_SHUFFLE, 1},
                                   {"zstd_3_bit_t1", "zstd", 3, BLOSC_BITSHUFFLE, 1}};
    if (cpus >= 2) configs.push_back({"lz4_5_byte_t2", "lz4", 5, BLOSC_SHUFFLE, 2});

    nlohmann::json out{{"n", n}, {"runs", runs}, {"cpus", cpus}, {"units", nlohmann::json::object()}};
    for (const char* dist : {"uniform", "smooth"}) {
        dataset_spec spec;
        spec.count = n;
        spec.dist = std::string(dist) == "uniform" ? distribution::uniform : distribution::smooth;
        aligned_buffer data(bytes), back(bytes), buf(chunk_bytes + BLOSC_MAX_OVERHEAD + 8);
        generator(spec).fill(0, n, data.data());
        std::vector<step> steps;
        auto clear_back = [&] { std::memset(back.data(), 0, bytes); };
        auto verify = [&](const std::string& unit) {
            return [&, unit] {
                if (std::memcmp(back.data(), data.data(), bytes) != 0)
                    std::fprintf(stderr, "%s: read differs from written data\n", unit.c_str());
            };
        };
        for (const config& c : configs) {
            const std::string shuffle = c.shuffle == BLOSC_BITSHUFFLE ? "bit" : "byte";
            const option_list options{{"codec", c.codec},
                                      {"level", std::to_string(c.level)},
                                      {"shuffle", shuffle},
                                      {"threads", std::to_string(c.threads)}};
            const std::string unit = "blosc_plugin_" + c.name, path = dir + "/" + unit;
            steps.emplace_back(
                unit + ".write", c.name, unit, 0, [path] { ::unlink(path.c_str()); },
                [&, p, path, options] {
                    auto s = p->open_write(path, FB_DTYPE_F64, n, options);
                    s->write(data.data(), n);
                    s->close();
                });
            steps.emplace_back(
                unit + ".read", c.name, unit, 1, clear_back,
                [&, p, path, options] {
                    auto s = p->open_read(path, FB_DTYPE_F64, n, options);
                    s->read(back.data(), n);
                    s->close();
                },
                verify(unit));
            const std::string ref = "blosc_ref_" + c.name, ref_path = dir + "/" + ref;
            steps.emplace_back(
                ref + ".write", c.name, ref, 0, [ref_path] { ::unlink(ref_path.c_str()); },
                [&, ref_path, c] { reference_write(ref_path, data.data(), n, c, buf.data()); });
            steps.emplace_back(
                ref + ".read", c.name, ref, 1, clear_back,
                [&, ref_path, c] { reference_read(ref_path, back.data(), n, c, buf.data()); }, verify(ref));
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

// Measures the zstd and lz4 plugins beside their one-shot references in one
// process run: each plugin write (open, write the whole array, close) and
// read (open, read it all, close) next to the same work done with the
// library's one-shot calls and the same parameters, timed the same way,
// open to close:
//   zstd_plugin_t2 / zstd_plugin_f2: the plugin with two threads, as
//             libzstd's workers (one frame) and as independent frames;
//   zstd_ref: open, ZSTD_compress2 into a buffer, write(2), close; open,
//             read(2) the whole file, ZSTD_decompress, close;
//   lz4_ref:  the same with LZ4F_compressFrame / LZ4F_decompress;
//   *_codec:  the one-shot calls alone, memory to memory (what the file I/O
//             adds is the difference to *_ref);
//   spin_1core / spin_2cores: one arithmetic loop on this thread, and the
//             same loop split over this thread and one started (and left
//             spinning) before the clock: beside the two-worker zstd figures,
//             how far two threads ran in parallel in that round (2.0 when
//             the host gave this VM both cores).
// A plugin and its references form one group (bench/rounds.hpp), so they
// run back to back, their order rotating every round. Prints one JSON object
// (every sample, in seconds) for bench/plugin-speed.py, which prints the
// ratios. Figures only, not a test.
//
//   speed_compress PLUGIN_DIR WORK_DIR N [RUNS [ONLY [ZSTD_LEVEL]]]
//
// ONLY, a comma-separated list of unit names ("all" for everything),
// limits the run to those units, for profiling one of them alone.
// ZSTD_LEVEL (default 3) is the level of every zstd unit, plugin and
// references alike.
#include "host/registry.hpp"
#include "plain_file.hpp"
#include "rounds.hpp"
#include "run/buffer.hpp"
#include "run/data.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZSTD_STATIC_LINKING_ONLY
#include <lz4frame.h>
#include <zstd.h>

#include <atomic>
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

// Reads the whole file into buf (at least its size); returns its size.
std::size_t read_file(const std::string& path, unsigned char* buf, std::size_t capacity) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw std::runtime_error("cannot open " + path);
    struct stat st {};
    ::fstat(fd, &st);
    std::size_t size = static_cast<std::size_t>(st.st_size), done = 0;
    if (size > capacity) throw std::runtime_error(path + " is larger than the buffer");
    while (done < size) {
        ssize_t r = ::read(fd, buf + done, size - done);
        if (r <= 0) throw std::runtime_error("cannot read " + path);
        done += static_cast<std::size_t>(r);
    }
    ::close(fd);
    return size;
}

volatile std::uint64_t sink; // where the spin results go, so the loops stay

// A loop the compiler cannot remove or vectorise away: `count` steps of a
// 64-bit LCG.
std::uint64_t spin(std::uint64_t count, std::uint64_t x) {
    for (std::uint64_t i = 0; i < count; ++i)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

// spin() on two threads: prepare() (untimed) starts the helper, which
// spins until run() (timed) releases it; the timed part is the loop on
// both, not a thread start.
class two_threads {
public:
    void prepare(std::uint64_t count) {
        go_ = false;
        count_ = count;
        helper_ = std::thread([this] {
            while (!go_.load(std::memory_order_acquire)) {
            }
            result_ = spin(count_ / 2, 2);
        });
    }
    std::uint64_t run() {
        go_.store(true, std::memory_order_release);
        std::uint64_t mine = spin(count_ - count_ / 2, 1);
        helper_.join();
        return mine ^ result_;
    }

private:
    std::thread helper_;
    std::atomic<bool> go_{false};
    std::uint64_t count_ = 0, result_ = 0;
};

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(what);
}

// The zstd parameters of the plugin's options below, on a context.
ZSTD_CCtx* zstd_context(int level, int workers) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    check(c != nullptr, "ZSTD_createCCtx");
    check(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)), "zstd level");
    check(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)), "zstd checksum");
    if (workers > 0)
        check(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, workers)), "zstd workers");
    return c;
}

std::size_t zstd_compress(const unsigned char* src, std::size_t n, unsigned char* dst, std::size_t cap,
                          int level, int workers) {
    ZSTD_CCtx* c = zstd_context(level, workers);
    std::size_t z = ZSTD_compress2(c, dst, cap, src, n);
    ZSTD_freeCCtx(c);
    check(!ZSTD_isError(z), "ZSTD_compress2");
    return z;
}

void zstd_decompress(const unsigned char* src, std::size_t z, unsigned char* dst, std::size_t n) {
    check(ZSTD_decompress(dst, n, src, z) == n, "ZSTD_decompress");
}

// The plugin's default frame: 4 MiB independent blocks, content checksum,
// content size, level 0 (fast).
LZ4F_preferences_t lz4_preferences(std::size_t bytes) {
    LZ4F_preferences_t p = LZ4F_INIT_PREFERENCES;
    p.frameInfo.blockSizeID = LZ4F_max4MB;
    p.frameInfo.blockMode = LZ4F_blockIndependent;
    p.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    p.frameInfo.contentSize = bytes;
    return p;
}

std::size_t lz4_compress(const unsigned char* src, std::size_t n, unsigned char* dst, std::size_t cap) {
    LZ4F_preferences_t p = lz4_preferences(n);
    std::size_t z = LZ4F_compressFrame(dst, cap, src, n, &p);
    check(!LZ4F_isError(z), "LZ4F_compressFrame");
    return z;
}

void lz4_decompress(const unsigned char* src, std::size_t z, unsigned char* dst, std::size_t n) {
    LZ4F_dctx* d = nullptr;
    check(!LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)), "LZ4F dctx");
    std::size_t dst_size = n, src_size = z;
    std::size_t rc = LZ4F_decompress(d, dst, &dst_size, src, &src_size, nullptr);
    LZ4F_freeDecompressionContext(d);
    check(rc == 0 && dst_size == n && src_size == z, "LZ4F_decompress");
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: speed_compress PLUGIN_DIR WORK_DIR N [RUNS [ONLY [ZSTD_LEVEL]]]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const std::string dir = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    const int runs = argc > 4 ? std::stoi(argv[4]) : 5;
    std::string only;
    if (argc > 5 && std::string(argv[5]) != "all") only.append(",").append(argv[5]).append(",");
    const int zstd_level = argc > 6 ? std::stoi(argv[6]) : 3;
    const std::string level_text = std::to_string(zstd_level);
    auto selected = [&](const std::string& name) {
        return only.empty() || only.find("," + name + ",") != std::string::npos;
    };
    const std::size_t bytes = n * sizeof(double);
    const std::size_t bound = std::max(ZSTD_compressBound(bytes), LZ4F_compressFrameBound(bytes, nullptr));

    nlohmann::json out{{"n", n}, {"runs", runs}, {"units", nlohmann::json::object()}};
    for (const char* dist : {"uniform", "smooth"}) {
        dataset_spec spec;
        spec.count = n;
        spec.dist = std::string(dist) == "uniform" ? distribution::uniform : distribution::smooth;
        aligned_buffer data(bytes), back(bytes), packed(bound);
        generator(spec).fill(0, n, data.data());
        std::size_t packed_size = 0;
        std::vector<step> steps;
        auto clear_back = [&] { std::memset(back.data(), 0, bytes); };
        auto verify = [&](const std::string& unit) {
            return [&, unit] {
                if (std::memcmp(back.data(), data.data(), bytes) != 0)
                    std::fprintf(stderr, "%s: read differs from written data\n", unit.c_str());
            };
        };
        // A plugin unit: write the whole array in one call, read it in one.
        auto add_plugin = [&](const std::string& unit, const std::string& group, const char* id,
                              const option_list& options) {
            const plugin* p = reg.find(id);
            if (!p || !selected(unit)) return;
            const std::string path = dir + "/" + unit;
            steps.emplace_back(
                unit + ".write", group, unit, 0, [path] { ::unlink(path.c_str()); },
                [&, p, path, options] {
                    auto s = p->open_write(path, FB_DTYPE_F64, n, options);
                    s->write(data.data(), n);
                    s->close();
                });
            steps.emplace_back(
                unit + ".read", group, unit, 1, clear_back,
                [&, p, path, options] {
                    auto s = p->open_read(path, FB_DTYPE_F64, n, options);
                    s->read(back.data(), n);
                    s->close();
                },
                verify(unit));
        };
        // A reference unit: compress/decompress one-shot, with or without
        // the file in between.
        using codec =
            std::function<std::size_t(const unsigned char*, std::size_t, unsigned char*, std::size_t)>;
        using decodec = std::function<void(const unsigned char*, std::size_t, unsigned char*, std::size_t)>;
        auto add_reference = [&](const std::string& unit, const std::string& group, codec compress,
                                 decodec decompress, bool with_file) {
            if (!selected(unit)) return;
            const std::string path = dir + "/" + unit;
            steps.emplace_back(
                unit + ".write", group, unit, 0, [path] { ::unlink(path.c_str()); },
                [&, path, compress, with_file] {
                    packed_size = compress(data.data(), bytes, packed.data(), bound);
                    if (with_file) write_file(path, packed.data(), packed_size);
                });
            steps.emplace_back(
                unit + ".read", group, unit, 1, clear_back,
                [&, path, decompress, with_file] {
                    std::size_t z = with_file ? read_file(path, packed.data(), bound) : packed_size;
                    decompress(packed.data(), z, back.data(), bytes);
                },
                verify(unit));
        };
        auto zstd_one = [zstd_level](const unsigned char* s, std::size_t k, unsigned char* d, std::size_t c) {
            return zstd_compress(s, k, d, c, zstd_level, 0);
        };
        auto zstd_two = [zstd_level](const unsigned char* s, std::size_t k, unsigned char* d, std::size_t c) {
            return zstd_compress(s, k, d, c, zstd_level, 2);
        };

        add_plugin("zstd_plugin", "zstd", "zstd", {{"level", level_text}});
        add_reference("zstd_ref", "zstd", zstd_one, zstd_decompress, true);
        add_reference("zstd_codec", "zstd", zstd_one, zstd_decompress, false);
        // Two workers against the one-thread reference (the target), and
        // against libzstd's own two-worker one-shot.
        add_plugin("zstd_plugin_t2", "zstd_t2", "zstd", {{"level", level_text}, {"threads", "2"}});
        // Two threads sharing out independent frames (frames: independent).
        add_plugin("zstd_plugin_f2", "zstd_t2", "zstd",
                   {{"level", level_text}, {"threads", "2"}, {"frames", "independent"}});
        add_reference("zstd_ref_t1", "zstd_t2", zstd_one, zstd_decompress, true);
        add_reference("zstd_ref_t2", "zstd_t2", zstd_two, zstd_decompress, true);
        if (selected("spin_1core") || selected("spin_2cores")) {
            // About as long as the one-thread zstd write.
            const std::uint64_t count = 3 * n;
            static two_threads helper;
            auto nothing = [] {};
            steps.emplace_back("spin_1core.write", "zstd_t2", "spin_1core", 0, nothing,
                               [count] { sink = spin(count, 1) ^ spin(0, 2); });
            steps.emplace_back(
                "spin_2cores.write", "zstd_t2", "spin_2cores", 0, [count] { helper.prepare(count); },
                [] { sink = helper.run(); });
        }
        add_plugin("lz4_plugin", "lz4", "lz4", {});
        add_reference("lz4_ref", "lz4", lz4_compress, lz4_decompress, true);
        add_reference("lz4_codec", "lz4", lz4_compress, lz4_decompress, false);

        run_rounds(runs, steps);

        for (const auto& s : steps) {
            // The spin units have a "write" stage only.
            const std::string unit = s.unit, phase = s.stage == 0 ? "write" : "read";
            auto& u = out["units"][unit + (spec.dist == distribution::uniform ? "" : "_smooth")];
            u[phase + "_samples_s"] = s.seconds;
            const std::string path = dir + "/" + unit;
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

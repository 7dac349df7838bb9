// What the zstd and lz4 plugin tests share: the plugin loaded through the
// core registry (as the CLI loads it), deterministic test data of every
// dtype, the byte-shuffled layout computed independently of the plugins'
// code, file helpers, running the format's own command, and a main() that
// exits 77 (Meson's SKIP) when the tests asked for need a missing command.
#pragma once

#include "base/error.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace compress_test {

namespace fs = std::filesystem;
using bytes = std::vector<unsigned char>;
using formatbench::option_list;

inline const formatbench::plugin& plugin(const char* id) {
    static formatbench::registry reg;
    static const bool loaded = [] {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        return true;
    }();
    (void)loaded;
    return reg.get(id);
}

inline std::size_t esize(fb_dtype d) {
    return formatbench::dtype_size(d);
}

// Deterministic data: uniform doubles, a slowly varying float signal with
// noise, wide integers, small counters, bytes with repetition, so that
// every level has something to find and nothing is trivially constant.
inline bytes make_data(fb_dtype d, std::size_t n, unsigned seed = 1) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    bytes out(n * esize(d));
    for (std::size_t i = 0; i < n; ++i) {
        unsigned char* p = out.data() + i * esize(d);
        switch (d) {
        case FB_DTYPE_F64: {
            double x = u(rng);
            std::memcpy(p, &x, 8);
            break;
        }
        case FB_DTYPE_F32: {
            float x = static_cast<float>(std::sin(0.001 * double(i)) + 0.01 * u(rng));
            std::memcpy(p, &x, 4);
            break;
        }
        case FB_DTYPE_I64: {
            std::int64_t x = static_cast<std::int64_t>(rng() >> 20) - (std::int64_t{1} << 42);
            std::memcpy(p, &x, 8);
            break;
        }
        case FB_DTYPE_I32: {
            std::int32_t x = static_cast<std::int32_t>(i / 3) - static_cast<std::int32_t>(rng() % 5);
            std::memcpy(p, &x, 4);
            break;
        }
        case FB_DTYPE_U8: *p = static_cast<unsigned char>(i % 7 == 0 ? rng() : i / 50); break;
        }
    }
    return out;
}

// The shuffled layout, written here from its definition and not from the
// plugins' code: blocks of `block` bytes (rounded down to whole elements);
// in each block byte j of element i goes to j * n + i (n = whole elements
// in the block); bytes after the last whole element stay where they are.
inline bytes reference_shuffle(const bytes& plain, std::size_t es, std::size_t block) {
    block -= block % es;
    if (block == 0) block = es;
    bytes out(plain.size());
    for (std::size_t start = 0; start < plain.size(); start += block) {
        std::size_t len = std::min(block, plain.size() - start);
        std::size_t n = len / es;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < es; ++j)
                out[start + j * n + i] = plain[start + i * es + j];
        for (std::size_t k = n * es; k < len; ++k)
            out[start + k] = plain[start + k];
    }
    return out;
}

inline bytes read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const fs::path& path, const bytes& b) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

inline bytes concat(bytes a, const bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Equality that reports where two large byte arrays first differ instead of
// printing them.
inline testing::AssertionResult same_bytes(const bytes& got, const bytes& want) {
    if (got == want) return testing::AssertionSuccess();
    std::size_t n = std::min(got.size(), want.size());
    std::size_t i = 0;
    while (i < n && got[i] == want[i])
        ++i;
    auto r = testing::AssertionFailure() << "sizes " << got.size() << " and " << want.size();
    if (i < n)
        r << "; first difference at byte " << i << ": " << int(got[i]) << " instead of " << int(want[i]);
    return r;
}

class temp_dir {
public:
    temp_dir() {
        std::string pattern = (fs::temp_directory_path() / "fb_compress_test_XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    fs::path operator/(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

// Writes `data` through the plugin in chunks of `chunk` elements (0: one
// call). `hint` is the count announced at open (default: the true count).
inline void write_array(const char* id, const fs::path& path, fb_dtype d, const bytes& data,
                        const option_list& options, std::size_t chunk = 0, std::uint64_t hint = 0) {
    std::size_t n = data.size() / esize(d);
    if (chunk == 0) chunk = n ? n : 1;
    auto w = plugin(id).open_write(path.string(), d, hint ? hint : n, options);
    for (std::size_t i = 0; i < n; i += chunk)
        w->write(data.data() + i * esize(d), std::min(chunk, n - i));
    w->close();
}

inline bytes read_array(const char* id, const fs::path& path, fb_dtype d, std::size_t n,
                        const option_list& options, std::size_t chunk = 0) {
    bytes out(n * esize(d));
    if (chunk == 0) chunk = n ? n : 1;
    auto r = plugin(id).open_read(path.string(), d, n, options);
    for (std::size_t i = 0; i < n; i += chunk)
        r->read(out.data() + i * esize(d), std::min(chunk, n - i));
    r->close();
    return out;
}

// The status a call fails with (FB_OK when it does not); the message too.
inline int status_of(const std::function<void()>& fn, std::string* message = nullptr) {
    try {
        fn();
    } catch (const formatbench::plugin_error& e) {
        if (message) *message = e.what();
        return e.status();
    }
    return FB_OK;
}

// Flips one random bit (after the 4-byte magic) in `trials` copies of
// `file` and reads each, whole and in 4096-value chunks by turns, through
// read_status(content, message, chunk): every one must fail as CORRUPT or
// TRUNCATED (a flipped block size can make a frame look longer than the
// file), never read back as data.
template <class ReadStatus>
void expect_flips_detected(const bytes& file, int trials, unsigned seed, ReadStatus read_status) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < trials; ++trial) {
        bytes bad = file;
        std::size_t at = 4 + rng() % (bad.size() - 4);
        bad[at] ^= static_cast<unsigned char>(1u << (rng() % 8));
        std::string message;
        int st = read_status(bad, &message, std::size_t(trial % 2 ? 4096 : 0));
        EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED)
            << "flip at " << at << ": status " << st << " " << message;
    }
}

// The count given at open binds a compressing writer: 100 values written
// after announcing 99, or 101, fail with FB_E_STATE at the write or close,
// and the message says "announced".
inline void expect_count_binds(const char* id, const option_list& options = {}) {
    temp_dir dir;
    const bytes data = make_data(FB_DTYPE_F64, 100);
    for (std::uint64_t announced : {99u, 101u}) {
        std::string message;
        int st = status_of(
            [&] {
                auto w = plugin(id).open_write((dir / ("a" + std::to_string(announced))).string(),
                                               FB_DTYPE_F64, announced, options);
                w->write(data.data(), 100);
                w->close();
            },
            &message);
        EXPECT_EQ(st, FB_E_STATE) << id << ", " << announced << " announced: " << message;
        EXPECT_NE(message.find("announced"), std::string::npos) << message;
    }
}

inline std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

// Runs a shell command; true when it exits 0.
inline bool run(const std::string& command) {
    int st = std::system(command.c_str());
    return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

inline bool have_tool(const std::string& name) {
    return run("command -v " + name + " >/dev/null 2>&1");
}

// A compressing writer that failed once fails every later call the same
// way, and its close says the file is incomplete (common/sticky_failure.hpp).
// Writes chunks of `chunk` f64 values to /dev/full until one fails (the
// plugin's buffers fill first), then writes once more and closes.
inline void expect_sticky_write_failure(const char* id, const option_list& options,
                                        std::size_t chunk = std::size_t{1} << 19) {
    const bytes data = make_data(FB_DTYPE_F64, chunk);
    auto w = plugin(id).open_write("/dev/full", FB_DTYPE_F64, 16 * chunk, options);
    std::string first;
    int status = FB_OK;
    for (int i = 0; i < 16 && status == FB_OK; ++i)
        status = status_of([&] { w->write(data.data(), chunk); }, &first);
    ASSERT_EQ(status, FB_E_IO) << id << ": no write to /dev/full failed; " << first;
    std::string again;
    EXPECT_EQ(status_of([&] { w->write(data.data(), chunk); }, &again), FB_E_IO);
    EXPECT_EQ(again, first) << id << ": a write after a failure must fail the same way";
    // The plugin's own message follows the host's "failed (STATUS): ".
    const std::string plugin_message = first.substr(first.find("): ") + 3);
    std::string closing;
    EXPECT_EQ(status_of([&] { w->close(); }, &closing), FB_E_IO);
    EXPECT_NE(closing.find(plugin_message + " (the file is incomplete)"), std::string::npos)
        << id << ": " << closing;
}

// main() for a plugin test program. "--require-tool=NAME" (Meson passes it
// to the run of the tests that need the format's command) makes the program
// exit 77, Meson's SKIP, when NAME is not installed, instead of passing
// silently or failing for a reason outside the code under test.
inline int test_main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        const std::string flag = "--require-tool=";
        if (a.rfind(flag, 0) == 0 && !have_tool(a.substr(flag.size()))) {
            std::printf("SKIP: the '%s' command is not installed (Debian package %s)\n",
                        a.substr(flag.size()).c_str(), a.substr(flag.size()).c_str());
            return 77;
        }
    }
    return RUN_ALL_TESTS();
}

} // namespace compress_test

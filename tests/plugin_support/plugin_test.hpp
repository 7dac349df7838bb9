// Helpers shared by the container plugins' tests (tests/plugin_npy,
// plugin_hdf5, plugin_netcdf): the plugin loaded through the core registry
// as the CLI loads it, a scratch folder, test data with the values that
// show a lossy path (signed zeros, infinities, NaN payloads, subnormals,
// extremes), whole-array writes and reads in chunks, file bytes, the status
// of a failing call, running a reference tool, and the exit code 77 (Meson's
// SKIP) when a tool a test program needs is missing.
#pragma once

#include "base/error.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace plugin_test {

namespace fs = std::filesystem;
using bytes = std::vector<unsigned char>;
using formatbench::option_list;

// Debian's python3 (python3-numpy, python3-h5py, python3-netcdf4 live
// there), whatever python3 comes first on PATH.
inline constexpr const char* python = "/usr/bin/python3";

// The plugin `id` from the build's plugin folder, loaded once.
inline const formatbench::plugin& plugin(const std::string& id) {
    static formatbench::registry reg;
    static bool loaded = false;
    if (!loaded) {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        loaded = true;
    }
    return reg.get(id);
}

inline std::size_t esize(fb_dtype d) {
    return formatbench::dtype_size(d);
}

// NumPy's type codes ("f8", "f4", "i8", "i4", "u1") of the ABI's dtypes, as
// the interop scripts (numpy, h5py, netCDF4-python) print and take them.
inline const char* numpy_code(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f8";
    case FB_DTYPE_F32: return "f4";
    case FB_DTYPE_I64: return "i8";
    case FB_DTYPE_I32: return "i4";
    case FB_DTYPE_U8: return "u1";
    }
    throw std::invalid_argument("numpy_code: dtype " + std::to_string(static_cast<int>(d)) + " has no code");
}

// The dtype of a NumPy type code; a code of no ABI dtype throws, so a script
// that printed something unexpected fails its test.
inline fb_dtype dtype_of(const std::string& code) {
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8})
        if (code == numpy_code(d)) return d;
    throw std::invalid_argument("dtype_of: '" + code + "' is not one of f8, f4, i8, i4, u1");
}

class temp_dir {
public:
    temp_dir() {
        std::string pattern = (fs::temp_directory_path() / "fb_plugin_test_XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    std::string operator/(const std::string& name) const { return (path_ / name).string(); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// n elements of dtype d: random values with the awkward ones first.
inline bytes make_data(fb_dtype d, std::size_t n, unsigned seed = 1) {
    std::mt19937_64 rng(seed);
    bytes out(n * esize(d));
    auto put = [&](std::size_t i, const auto& v) { std::memcpy(out.data() + i * sizeof v, &v, sizeof v); };
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t r = rng();
        switch (d) {
        case FB_DTYPE_F64: {
            const double special[] = {0.0,
                                      -0.0,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::denorm_min(),
                                      std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::lowest()};
            double x = i < std::size(special) ? special[i] : std::ldexp(double(r >> 11), -53) * 2 - 1;
            if (i == std::size(special)) { // a NaN with a payload and the sign bit set
                std::uint64_t bits = 0xfff4000000abcdefULL;
                std::memcpy(&x, &bits, 8);
            }
            put(i, x);
            break;
        }
        case FB_DTYPE_F32: {
            const float special[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::denorm_min(),
                                     std::numeric_limits<float>::max()};
            float x = i < std::size(special) ? special[i] : float(std::ldexp(double(r >> 40), -24)) - 0.5f;
            if (i == std::size(special)) {
                std::uint32_t bits = 0x7fa12345u; // a signalling NaN with a payload
                std::memcpy(&x, &bits, 4);
            }
            put(i, x);
            break;
        }
        case FB_DTYPE_I64: {
            const std::int64_t special[] = {std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<std::int64_t>::max(), -1, 0};
            put(i, i < std::size(special) ? special[i] : static_cast<std::int64_t>(r));
            break;
        }
        case FB_DTYPE_I32: {
            const std::int32_t special[] = {std::numeric_limits<std::int32_t>::min(),
                                            std::numeric_limits<std::int32_t>::max(), -1, 0};
            put(i, i < std::size(special) ? special[i] : static_cast<std::int32_t>(r));
            break;
        }
        case FB_DTYPE_U8: {
            const std::uint8_t special[] = {0, 255, 128, 127};
            put(i, i < std::size(special) ? special[i] : static_cast<std::uint8_t>(r));
            break;
        }
        }
    }
    return out;
}

// Writes data (n elements of d) through plugin `id` in chunks of `chunk`
// elements (0: one call); hint is the count passed to open (the true count
// unless FB_COUNT_UNKNOWN is asked for).
inline void write_array(const std::string& id, const std::string& path, fb_dtype d, const bytes& data,
                        const option_list& options = {}, std::size_t chunk = 0, bool count_unknown = false) {
    std::size_t n = data.size() / esize(d);
    auto w = plugin(id).open_write(path, d, count_unknown ? FB_COUNT_UNKNOWN : n, options);
    std::size_t step = chunk ? chunk : std::max<std::size_t>(n, 1);
    for (std::size_t i = 0; i < n; i += step)
        w->write(data.data() + i * esize(d), std::min(step, n - i));
    w->close();
}

inline bytes read_array(const std::string& id, const std::string& path, fb_dtype d, std::size_t n,
                        const option_list& options = {}, std::size_t chunk = 0) {
    bytes out(n * esize(d));
    auto r = plugin(id).open_read(path, d, n, options);
    std::size_t step = chunk ? chunk : std::max<std::size_t>(n, 1);
    for (std::size_t i = 0; i < n; i += step)
        r->read(out.data() + i * esize(d), std::min(step, n - i));
    r->close();
    return out;
}

inline bytes file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::string file_text(const std::string& path) {
    bytes b = file_bytes(path);
    return std::string(b.begin(), b.end());
}

inline void put_file(const std::string& path, const void* data, std::size_t n) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

inline void put_file(const std::string& path, const bytes& b) {
    put_file(path, b.data(), b.size());
}

inline void put_file(const std::string& path, const std::string& s) {
    put_file(path, s.data(), s.size());
}

// A full device (char 1:7) of the test's own in dir, so that a plugin that
// wrongly removes its path cannot remove the system's /dev/full; /dev/full
// itself only when this process may not make device nodes (not root), and
// so could not remove it either.
inline std::string full_device(const temp_dir& dir) {
    std::string path = dir / "full";
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) return path; // made by an earlier call
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0) return path;
    return "/dev/full";
}

// The status of a call that may throw formatbench::plugin_error (FB_OK when
// it does not), and its message.
inline int status_of(const std::function<void()>& fn, std::string* message = nullptr) {
    try {
        fn();
    } catch (const formatbench::plugin_error& e) {
        if (message) *message = e.what();
        return e.status();
    }
    return FB_OK;
}

// Reads damaged copies of a file, whole as f64 in reads of 333 values, in a
// child process that serves many of them (the flipped-byte tests read
// thousands; a fork per file spent most of their time, under
// AddressSanitizer minutes, in copying the parent's page tables and
// faulting in fresh memory). Each outcome is "ok" (the values equal
// `want`), "other values", "error <status>", "crash <signal>", "crash (exit
// <code>)" (a sanitizer's report) or "hang". A hang is 20 s of the child's
// CPU time on one file (ITIMER_PROF), not of wall time, which a loaded
// machine stretched past a limit; a child blocked without using CPU is
// stopped after 300 s of wall time. After any outcome but "ok" or "error",
// and every 200 files, the next file gets a fresh child, so that what a
// damaged file did to the library's state cannot change a later outcome.
// The damaged file is one copy of the file at `path`, with the one byte
// changed in place and put back after the read (writing a whole copy and
// renaming it over the last, for each read, took most of the release
// run's time). HDF5 knows a file it still holds open again by its device
// and inode, and would take the next file for that one, with what it had
// cached of it: so when the child still has a descriptor on the copy after
// its reply (its library leaked the file; netCDF 4.9.0 does after some
// damaged netCDF-4 files), the copy is written afresh under a new inode
// instead (the held one stays allocated, so its number cannot come back),
// as the rename did each time. `in_child`, when given, runs in each new
// child before its first read (library settings of the child only).
class child_reader {
public:
    child_reader(std::string id, bytes want, std::string path, bytes original,
                 std::function<void()> in_child = {})
        : id_(std::move(id)), want_(std::move(want)), path_(std::move(path)), original_(std::move(original)),
          in_child_(std::move(in_child)) {
        open_copy();
    }
    child_reader(const child_reader&) = delete;
    child_reader& operator=(const child_reader&) = delete;
    ~child_reader() {
        stop();
        if (fd_ >= 0) ::close(fd_);
    }

    // Reads the file with byte `offset` XOR `mask` in the child.
    std::string read_flipped(std::size_t offset, unsigned char mask) {
        if (offset >= original_.size()) throw std::out_of_range("child_reader: offset past the file");
        const unsigned char bad = original_[offset] ^ mask;
        if (::pwrite(fd_, &bad, 1, static_cast<off_t>(offset)) != 1) return "write failed";
        std::string outcome = read();
        if (pid_ >= 0 && child_holds_copy()) {
            open_copy();
        } else if (::pwrite(fd_, &original_[offset], 1, static_cast<off_t>(offset)) != 1) {
            throw std::runtime_error("child_reader: cannot put back byte " + std::to_string(offset) + " of " +
                                     path_);
        }
        return outcome;
    }

private:
    // Reads the copy in the child.
    std::string read() {
        if (pid_ < 0 || served_ >= 200) {
            stop();
            start();
        }
        ++served_;
        const std::uint32_t size = static_cast<std::uint32_t>(path_.size());
        std::string request(reinterpret_cast<const char*>(&size), sizeof size);
        request += path_;
        std::int32_t code = -1;
        if (::send(sock_, request.data(), request.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.size())) {
            pollfd p{sock_, POLLIN, 0};
            if (::poll(&p, 1, 300 * 1000) == 1 &&
                ::recv(sock_, &code, sizeof code, MSG_WAITALL) == sizeof code) {
                if (code == 0) return "ok";
                if (code >= 10 && code <= 10 + FB_E_INTERNAL) return "error " + std::to_string(code - 10);
                std::string outcome = code == 100 ? "other values" : "unknown reply " + std::to_string(code);
                stop();
                return outcome;
            }
            ::kill(pid_, SIGKILL); // no reply in 300 s, or the child died
        }
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        ::close(sock_);
        if (WIFSIGNALED(status)) {
            const int sig = WTERMSIG(status);
            return sig == SIGPROF || sig == SIGKILL ? "hang" : "crash " + std::to_string(sig);
        }
        // A sanitizer's report ended the child (ASan exits 1).
        return "crash (exit " + std::to_string(WEXITSTATUS(status)) + ")";
    }

    // Whether the child (idle: it has replied) has a descriptor on the copy.
    bool child_holds_copy() const {
        struct stat mine {};
        if (::fstat(fd_, &mine) != 0) return true;
        const std::string dir = "/proc/" + std::to_string(pid_) + "/fd";
        DIR* d = ::opendir(dir.c_str());
        if (!d) return true; // cannot tell: as if it did
        bool held = false;
        while (const dirent* e = ::readdir(d)) {
            struct stat st {};
            if (e->d_name[0] != '.' && ::stat((dir + "/" + e->d_name).c_str(), &st) == 0 &&
                st.st_dev == mine.st_dev && st.st_ino == mine.st_ino) {
                held = true;
                break;
            }
        }
        ::closedir(d);
        return held;
    }

    // The undamaged copy at path_, written whole under a new inode.
    void open_copy() {
        const std::string fresh = path_ + ".new";
        put(fresh, original_);
        if (std::rename(fresh.c_str(), path_.c_str()) != 0)
            throw std::runtime_error("child_reader: cannot rename " + fresh);
        if (fd_ >= 0) ::close(fd_);
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd_ < 0) throw std::runtime_error("child_reader: cannot open " + path_);
    }

    static void put(const std::string& path, const bytes& b) {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    }

    void start() {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) throw std::runtime_error("socketpair failed");
        pid_ = ::fork();
        if (pid_ == 0) {
            ::close(fds[0]);
            ::close(fd_); // the child holds the copy only when its library does
            if (in_child_) in_child_();
            serve(fds[1]);
        }
        ::close(fds[1]);
        sock_ = fds[0];
        served_ = 0;
    }

    [[noreturn]] void serve(int sock) {
        for (;;) {
            std::uint32_t size = 0;
            if (::recv(sock, &size, sizeof size, MSG_WAITALL) != sizeof size) ::_exit(0);
            std::string path(size, '\0');
            if (::recv(sock, path.data(), size, MSG_WAITALL) != static_cast<ssize_t>(size)) ::_exit(0);
            itimerval limit{};
            limit.it_value.tv_sec = 20;
            ::setitimer(ITIMER_PROF, &limit, nullptr);
            bytes got;
            const int st =
                status_of([&] { got = read_array(id_, path, FB_DTYPE_F64, want_.size() / 8, {}, 333); });
            limit.it_value.tv_sec = 0;
            ::setitimer(ITIMER_PROF, &limit, nullptr);
            const std::int32_t code = st == FB_OK ? (got == want_ ? 0 : 100) : 10 + st;
            if (::send(sock, &code, sizeof code, MSG_NOSIGNAL) != sizeof code) ::_exit(0);
        }
    }

    void stop() {
        if (pid_ < 0) return;
        ::close(sock_); // the child's next recv ends it
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }

    std::string id_;
    bytes want_;
    std::string path_;
    bytes original_;
    std::function<void()> in_child_;
    int fd_ = -1;
    pid_t pid_ = -1;
    int sock_ = -1;
    unsigned served_ = 0;
};

// A file that a reader must refuse: read whole as `count` values of `dtype`
// from dir / file, it fails with `status` and a message that holds `text`
// and names the file.
struct refused_read {
    std::string file;
    fb_dtype dtype;
    std::uint64_t count;
    int status;
    std::string text;
};

inline void expect_refused(const std::string& id, const temp_dir& dir,
                           const std::vector<refused_read>& cases) {
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file + " " + formatbench::dtype_name(c.dtype));
        std::string message;
        EXPECT_EQ(status_of([&] { read_array(id, dir / c.file, c.dtype, c.count); }, &message), c.status)
            << message;
        EXPECT_NE(message.find(c.text), std::string::npos) << message;
        EXPECT_NE(message.find(dir / c.file), std::string::npos) << message;
    }
}

// Opened for all of its `count` values, a file reads them, and one value
// more is FB_E_TRUNCATED ("... goes past them").
inline void expect_read_past_the_end_refused(const std::string& id, const std::string& path, fb_dtype d,
                                             std::uint64_t count) {
    auto r = plugin(id).open_read(path, d, count, {});
    bytes out((count + 1) * esize(d));
    r->read(out.data(), count);
    std::string message;
    EXPECT_EQ(status_of([&] { r->read(out.data(), 1); }, &message), FB_E_TRUNCATED);
    EXPECT_NE(message.find("goes past them"), std::string::npos) << message;
    r->close();
}

// "index 12: 0x3ff0... != 0x..." for the first differing element, or "".
inline std::string first_difference(const bytes& got, const bytes& want, std::size_t element_size) {
    if (got.size() != want.size())
        return "sizes differ: " + std::to_string(got.size()) + " bytes, expected " +
               std::to_string(want.size());
    auto m = std::mismatch(got.begin(), got.end(), want.begin());
    if (m.first == got.end()) return "";
    std::size_t i = static_cast<std::size_t>(m.first - got.begin()) / element_size;
    auto hex = [&](const bytes& b) {
        std::string s = "0x";
        char buf[3];
        for (std::size_t k = 0; k < element_size; ++k) {
            std::snprintf(buf, sizeof buf, "%02x", b[i * element_size + k]);
            s += buf;
        }
        return s;
    };
    return "first difference at element " + std::to_string(i) + ": " + hex(got) +
           " (bytes in memory order), " + "expected " + hex(want);
}

// Runs a shell command; returns its exit status (-1 when it did not exit).
inline int run(const std::string& command) {
    int st = std::system(command.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

inline std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs a Python script (text) with Debian's python3 and arguments; returns
// its exit status. The script goes to a file in dir, so it needs no quoting.
inline int run_python(const temp_dir& dir, const std::string& script, const std::vector<std::string>& args) {
    std::string file = dir / "script.py";
    put_file(file, script);
    // append, not " " + quote(a): GCC 12 warns falsely (-Wrestrict) on that.
    std::string command = std::string(python).append(" ").append(quote(file));
    for (const auto& a : args)
        command.append(" ").append(quote(a));
    return run(command);
}

// Whether `command` (a shell test such as "command -v h5dump") succeeds.
inline bool have(const std::string& command) {
    return run("(" + command + ") >/dev/null 2>&1") == 0;
}

// main() of a test program that needs tools: each requirement is a shell
// test and what to install; when one fails the program prints why and exits
// 77, which Meson reports as SKIP.
struct requirement {
    std::string test;
    std::string what;
};

inline int run_tests_requiring(int argc, char** argv, const std::vector<requirement>& needs) {
    for (const auto& r : needs)
        if (!have(r.test)) {
            std::printf("SKIP: %s (test: %s)\n", r.what.c_str(), r.test.c_str());
            return 77;
        }
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

} // namespace plugin_test

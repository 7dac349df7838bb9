// Shared driver of the plugin reader fuzz targets (see reader_driver.hpp).
#include "reader_driver.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace fuzz {

namespace {

// One temporary path per process, in /dev/shm when there is one (no disk
// I/O), else in $TMPDIR or /tmp; removed at exit.
std::string temp_path;

void remove_temp() {
    if (!temp_path.empty()) ::unlink(temp_path.c_str());
}

const std::string& path_for(const char* name) {
    if (temp_path.empty()) {
        std::string dir = "/dev/shm";
        if (::access(dir.c_str(), W_OK) != 0) {
            const char* t = std::getenv("TMPDIR");
            dir = t && *t ? t : "/tmp";
        }
        temp_path = dir + "/fb-fuzz-" + name + "-" + std::to_string(::getpid());
        std::atexit(remove_temp);
    }
    return temp_path;
}

void write_file(const std::string& path, const std::string& bytes) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        std::perror(path.c_str());
        std::abort();
    }
    const char* p = bytes.data();
    std::size_t n = bytes.size();
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w <= 0) {
            std::perror(path.c_str());
            std::abort();
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    ::close(fd);
}

// A status outside the ABI's list, or FB_OK with an error message, is a bug;
// so is a message without its terminating NUL.
void check_status(fb_status st, const char* err, std::size_t err_size, const char* call) {
    static const bool verbose = std::getenv("FB_FUZZ_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s: %d %s\n", call, static_cast<int>(st), st == FB_OK ? "" : err);
    if (st < FB_OK || st > FB_E_INTERNAL) {
        std::fprintf(stderr, "%s returned unknown status %d\n", call, static_cast<int>(st));
        std::abort();
    }
    if (st == FB_E_INTERNAL) {
        // The ABI reserves it for plugin bugs: corrupt input must not end here.
        std::fprintf(stderr, "%s returned FB_E_INTERNAL: %s\n", call, err);
        std::abort();
    }
    if (st != FB_OK && std::memchr(err, '\0', err_size) == nullptr) {
        std::fprintf(stderr, "%s: error message not NUL-terminated\n", call);
        std::abort();
    }
}

} // namespace

std::size_t dtype_bytes(fb_dtype d) {
    return fb_dtype_size(d);
}

int run_reader(const hooks& h, const fb_plugin_descriptor* d, const std::uint8_t* data, std::size_t size) {
    auto byte = [&](std::size_t i) -> std::uint8_t { return i < size ? data[i] : 0; };
    reader_case c;
    c.dtype = static_cast<fb_dtype>(1 + byte(0) % 5);
    c.mode = byte(1);
    c.count16 = static_cast<std::uint16_t>(byte(2) | (byte(3) << 8));
    c.selector = byte(4);
    if (size > header_bytes)
        c.file.assign(reinterpret_cast<const char*>(data + header_bytes), size - header_bytes);
    if (h.shape_file) h.shape_file(c);

    const std::uint64_t es = dtype_bytes(c.dtype);
    const std::uint64_t from_file = std::min<std::uint64_t>(c.file.size() / es, max_elements);
    const std::uint64_t from_input = std::min<std::uint64_t>(c.count16, max_elements);
    switch (c.mode & 3) {
    case 0: c.open_count = c.read_count = from_file; break;
    case 1:
        c.open_count = FB_COUNT_UNKNOWN;
        c.read_count = from_file;
        break;
    case 2: c.open_count = c.read_count = from_input; break;
    default:
        c.open_count = from_input;
        c.read_count = std::min<std::uint64_t>(from_input + 1, max_elements);
        break;
    }
    if (h.options) h.options(c);

    const std::string& path = path_for(h.name);
    write_file(path, c.file);

    std::vector<fb_option> opts;
    for (const auto& [k, v] : c.options)
        opts.push_back({k.c_str(), v.c_str()});
    fb_open_args args{};
    args.struct_size = sizeof args;
    args.dtype = c.dtype;
    args.path = path.c_str();
    args.count = c.open_count;
    args.options = opts.data();
    args.option_count = opts.size();

    char err[FB_ERROR_BUFFER_MIN];
    fb_stream* s = nullptr;
    if (std::getenv("FB_FUZZ_VERBOSE"))
        std::fprintf(stderr, "dtype %d, %zu-byte file, open count %llu, read count %llu\n", c.dtype,
                     c.file.size(), static_cast<unsigned long long>(c.open_count),
                     static_cast<unsigned long long>(c.read_count));
    fb_status st = d->open_read(&args, &s, err, sizeof err);
    check_status(st, err, sizeof err, "open_read");
    if (st != FB_OK) {
        if (s != nullptr) {
            std::fprintf(stderr, "open_read failed but left a stream\n");
            std::abort();
        }
        return 0;
    }
    if (h.after_open) h.after_open(d, s, c);

    // Split the reads; every piece gets its own exactly-sized heap buffer so
    // AddressSanitizer catches a write past what was asked.
    const unsigned parts = 1 + ((c.mode >> 2) & 3);
    std::vector<std::uint64_t> pieces;
    if (c.mode & 0x10) pieces.push_back(0);
    for (unsigned i = 0; i < parts; ++i)
        pieces.push_back(i + 1 < parts ? c.read_count / parts
                                       : c.read_count - (parts - 1) * (c.read_count / parts));

    std::vector<unsigned char> all;
    bool ok = true;
    for (std::uint64_t n : pieces) {
        auto buffer = std::make_unique<unsigned char[]>(std::max<std::uint64_t>(n * es, 1));
        st = d->read(s, buffer.get(), n, err, sizeof err);
        check_status(st, err, sizeof err, "read");
        if (st != FB_OK) {
            ok = false;
            break;
        }
        all.insert(all.end(), buffer.get(), buffer.get() + n * es);
    }
    st = d->close_read(s, err, sizeof err);
    check_status(st, err, sizeof err, "close_read");
    if (ok && h.check) h.check(c, all);
    return 0;
}

} // namespace fuzz

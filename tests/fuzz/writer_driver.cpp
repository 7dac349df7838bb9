// Shared driver of the plugin writer fuzz targets (see writer_driver.hpp).
#include "writer_driver.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fuzz {
namespace {

constexpr std::uint64_t max_elements = std::uint64_t{1} << 16;

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
        temp_path = dir + "/fb-fuzz-write-" + name + "-" + std::to_string(::getpid());
        std::atexit(remove_temp);
    }
    return temp_path;
}

[[noreturn]] void bug(const char* call, fb_status st, const char* err) {
    std::fprintf(stderr, "%s failed on valid data: status %d: %s\n", call, static_cast<int>(st), err);
    std::abort();
}

void must(fb_status st, const char* err, const char* call) {
    if (st != FB_OK) bug(call, st, err);
}

// n elements in `parts` calls: the sizes differ, the last takes the rest.
std::vector<std::uint64_t> splits(std::uint64_t n, unsigned parts) {
    std::vector<std::uint64_t> out;
    std::uint64_t left = n;
    for (unsigned i = 1; i < parts && left > 0; ++i) {
        const std::uint64_t k = std::min(left, n / (parts + 1) + i);
        out.push_back(k);
        left -= k;
    }
    out.push_back(left);
    return out;
}

} // namespace

int run_writer(const writer_hooks& h, const fb_plugin_descriptor* d, const std::uint8_t* data,
               std::size_t size) {
    auto at = [&](std::size_t i) -> std::uint8_t { return i < size ? data[i] : 0; };
    writer_case c;
    static const fb_dtype dtypes[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8};
    c.dtype = dtypes[at(0) % 5];
    if (!(d->dtypes & FB_DTYPE_BIT(c.dtype))) return 0;
    c.selector = at(1);
    const std::uint8_t mode = at(2);
    h.options(c);
    const std::size_t esize = fb_dtype_size(c.dtype);
    const std::uint64_t count = std::min<std::uint64_t>(size > 3 ? (size - 3) / esize : 0, max_elements);
    std::vector<unsigned char> written(count * esize);
    if (count) std::memcpy(written.data(), data + 3, written.size());

    std::vector<fb_option> opts;
    for (const auto& [k, v] : c.options)
        opts.push_back({k.c_str(), v.c_str()});
    const std::string& path = path_for(h.name);
    ::unlink(path.c_str());
    const bool unknown = (mode & 0x40) && !(d->flags & FB_CAP_NEEDS_COUNT);
    fb_open_args args{sizeof(fb_open_args), c.dtype,    path.c_str(), unknown ? FB_COUNT_UNKNOWN : count,
                      opts.data(),          opts.size()};
    char err[1024] = "";
    fb_stream* s = nullptr;
    must(d->open_write(&args, &s, err, sizeof err), err, "open_write");
    std::uint64_t done = 0;
    for (std::uint64_t n : splits(count, 1u + (mode & 7))) {
        fb_status st = d->write(s, written.data() + done * esize, n, err, sizeof err);
        if (st != FB_OK) {
            char ignored[1024];
            d->close_write(s, ignored, sizeof ignored);
            bug("write", st, err);
        }
        done += n;
    }
    must(d->close_write(s, err, sizeof err), err, "close_write");

    args.count = count;
    s = nullptr;
    must(d->open_read(&args, &s, err, sizeof err), err, "open_read");
    std::vector<unsigned char> read(count * esize + 1, 0xA5);
    done = 0;
    for (std::uint64_t n : splits(count, 1u + ((mode >> 3) & 7))) {
        fb_status st = d->read(s, read.data() + done * esize, n, err, sizeof err);
        if (st != FB_OK) {
            char ignored[1024];
            d->close_read(s, ignored, sizeof ignored);
            bug("read", st, err);
        }
        done += n;
    }
    must(d->close_read(s, err, sizeof err), err, "close_read");
    read.resize(count * esize);
    const bool same = h.same ? h.same(c, written, read) : written == read;
    if (!same) {
        std::fprintf(stderr, "%s: %llu elements read back differ from those written\n", h.name,
                     static_cast<unsigned long long>(count));
        std::abort();
    }
    return 0;
}

} // namespace fuzz

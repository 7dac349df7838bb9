// Checks of the ABI 1.2 random access (formatbench.read-at/1, read-box/1)
// and of direct reads (FB_OPEN_DIRECT), shared by the raw, mmap and npy
// tests: each test makes a file whose element i is the f64 value i (its
// own bytes, not the plugin's), and these functions read it through the
// plugin and compare with values computed here from the index alone (the
// row-major formula for boxes, written out by hand, not sdk::for_each_run).
#pragma once

#include "plugin_test.hpp"

#include "base/error.hpp"
#include "host/registry.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace random_access_checks {

namespace fs = std::filesystem;
using formatbench::open_layout;
using formatbench::option_list;

// The value of element i in every file these checks read.
inline double value(std::uint64_t i) {
    return static_cast<double>(i);
}

// Elements [0, n) of such a file, in this machine's order.
inline std::vector<double> values(std::uint64_t n) {
    std::vector<double> v(n);
    for (std::uint64_t i = 0; i < n; ++i)
        v[i] = value(i);
    return v;
}

using plugin_test::status_of;

// Memory aligned to 4096 bytes (what the host gives a direct read), filled
// with 0xA5 so that bytes a call must not touch can be checked.
class aligned_buffer {
public:
    explicit aligned_buffer(std::size_t bytes)
        : size_((bytes + 4096) / 4096 * 4096),
          p_(static_cast<unsigned char*>(std::aligned_alloc(4096, size_))) {
        if (!p_) throw std::bad_alloc();
        std::memset(p_, 0xA5, size_);
    }
    ~aligned_buffer() { std::free(p_); }
    aligned_buffer(const aligned_buffer&) = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;
    unsigned char* data() const noexcept { return p_; }
    // The buffer as f64 values, from byte `skip` (for unaligned addresses).
    double* doubles(std::size_t skip = 0) const noexcept { return reinterpret_cast<double*>(p_ + skip); }
    bool untouched() const {
        for (std::size_t i = 0; i < size_; ++i)
            if (p_[i] != 0xA5) return false;
        return true;
    }

private:
    std::size_t size_;
    unsigned char* p_;
};

// Whether open(O_DIRECT) of `path` works (an existing file): the file
// system has direct I/O.
inline bool direct_io_works(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT);
    if (fd < 0) return false;
    ::close(fd);
    return true;
}

// A scratch folder on a disk file system, for direct reads: under /var/tmp
// (ext4 on the development machine; /tmp may be tmpfs elsewhere).
class disk_dir {
public:
    disk_dir() {
        char pattern[] = "/var/tmp/fb_direct_test_XXXXXX";
        if (!::mkdtemp(pattern)) throw std::runtime_error("mkdtemp in /var/tmp failed");
        path_ = pattern;
    }
    ~disk_dir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    disk_dir(const disk_dir&) = delete;
    disk_dir& operator=(const disk_dir&) = delete;
    std::string operator/(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

// The n values of [first, first + n) compared with what `got` holds.
inline ::testing::AssertionResult holds_values(const double* got, std::uint64_t first, std::uint64_t n) {
    for (std::uint64_t k = 0; k < n; ++k)
        if (const double want = value(first + k); std::memcmp(&got[k], &want, 8) != 0)
            return ::testing::AssertionFailure() << "element " << first + k << " (position " << k
                                                 << ") reads " << got[k] << ", expected " << value(first + k);
    return ::testing::AssertionSuccess();
}

// read_at on a file of n values (n >= 2100): the first and the last element,
// aligned and unaligned ranges (into an aligned and an unaligned buffer), an
// empty range at the end, ranges crossing the end (FB_E_TRUNCATED, the
// buffer untouched), one offset read again and again, and random ranges.
inline void check_read_at(const formatbench::plugin& p, const std::string& path, std::uint64_t n,
                          const option_list& o, const open_layout& layout = {}) {
    ASSERT_GE(n, 2100u);
    auto r = p.open_read(path, FB_DTYPE_F64, n, o, layout);
    {
        aligned_buffer b(8);
        r->read_at(0, b.data(), 1);
        EXPECT_TRUE(holds_values(b.doubles(), 0, 1)) << "the first element";
        r->read_at(n - 1, b.data(), 1);
        EXPECT_TRUE(holds_values(b.doubles(), n - 1, 1)) << "the last element";
    }
    // {offset, count}: whole 4 KiB blocks (512 values), ranges that start
    // and end mid-block, one that crosses a block boundary, the tail.
    const std::uint64_t ranges[][2] = {{0, 512},  {512, 1024}, {3, 7},         {509, 6},
                                       {1, 2047}, {0, n},      {n - 700, 700}, {n / 2, 1}};
    for (const auto& range : ranges)
        for (std::size_t skip : {std::size_t{0}, std::size_t{8}}) {
            SCOPED_TRACE("read_at(" + std::to_string(range[0]) + ", " + std::to_string(range[1]) +
                         ") into a buffer " + std::to_string(skip) + " bytes past 4096");
            aligned_buffer b(range[1] * 8 + skip);
            r->read_at(range[0], b.doubles(skip), range[1]);
            EXPECT_TRUE(holds_values(b.doubles(skip), range[0], range[1]));
        }
    {
        aligned_buffer b(8);
        EXPECT_EQ(status_of([&] { r->read_at(n, b.data(), 0); }), FB_OK) << "an empty range at the end";
        for (const auto& range : {std::vector<std::uint64_t>{n - 2, 3}, {n, 1}, {n + 1, 0}, {0, n + 1}}) {
            aligned_buffer past((n + 2) * 8);
            std::string message;
            EXPECT_EQ(status_of([&] { r->read_at(range[0], past.data(), range[1]); }, &message),
                      FB_E_TRUNCATED)
                << "read_at(" << range[0] << ", " << range[1] << ") of " << n << ": " << message;
            EXPECT_NE(message.find(path), std::string::npos) << message;
            EXPECT_TRUE(past.untouched()) << "read_at(" << range[0] << ", " << range[1] << ") wrote";
        }
    }
    for (int k = 0; k < 5; ++k) {
        aligned_buffer b(16 * 8);
        r->read_at(1234, b.data(), 16);
        EXPECT_TRUE(holds_values(b.doubles(), 1234, 16)) << "the same offset, read " << k + 1 << " times";
    }
    std::mt19937_64 rng(7);
    for (int k = 0; k < 200; ++k) {
        const std::uint64_t offset = rng() % n;
        const std::uint64_t count = 1 + rng() % std::min<std::uint64_t>(n - offset, 900);
        aligned_buffer b(count * 8);
        r->read_at(offset, b.data(), count);
        ASSERT_TRUE(holds_values(b.doubles(), offset, count)) << "read_at(" << offset << ", " << count << ")";
    }
    r->close();
}

// The 3-D data set these checks read boxes of: shape (3, 4, 5), element
// (a, b, c) at flat index a*20 + b*5 + c, whose value is that index.
inline const std::vector<std::uint64_t> shape_3d = {3, 4, 5};

// The box's values, row-major, by the index formula.
inline std::vector<double> box_values(const std::vector<std::uint64_t>& start,
                                      const std::vector<std::uint64_t>& count) {
    std::vector<double> out;
    for (std::uint64_t a = start[0]; a < start[0] + count[0]; ++a)
        for (std::uint64_t b = start[1]; b < start[1] + count[1]; ++b)
            for (std::uint64_t c = start[2]; c < start[2] + count[2]; ++c)
                out.push_back(value(a * 20 + b * 5 + c));
    return out;
}

// read_box on a file of shape_3d (opened with that shape): the plane
// orthogonal to each axis at every index, interior boxes, one element, the
// whole array, an empty box; a box outside the shape and one of the wrong
// number of axes are FB_E_TRUNCATED and touch nothing.
inline void check_boxes_3d(const formatbench::plugin& p, const std::string& path, const option_list& o,
                           bool direct = false) {
    auto r = p.open_read(path, FB_DTYPE_F64, 60, o, open_layout{shape_3d, direct});
    std::vector<std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>> boxes;
    for (std::size_t axis = 0; axis < 3; ++axis)
        for (std::uint64_t j = 0; j < shape_3d[axis]; ++j) {
            std::vector<std::uint64_t> start{0, 0, 0}, count = shape_3d;
            start[axis] = j;
            count[axis] = 1;
            boxes.emplace_back(start, count);
        }
    boxes.push_back({{1, 1, 1}, {2, 2, 3}});
    boxes.push_back({{0, 1, 2}, {3, 2, 2}});
    boxes.push_back({{2, 3, 4}, {1, 1, 1}});
    boxes.push_back({{0, 0, 0}, {3, 4, 5}});
    boxes.push_back({{1, 0, 0}, {2, 4, 5}});
    for (const auto& [start, count] : boxes) {
        SCOPED_TRACE("box start (" + std::to_string(start[0]) + ", " + std::to_string(start[1]) + ", " +
                     std::to_string(start[2]) + ") count (" + std::to_string(count[0]) + ", " +
                     std::to_string(count[1]) + ", " + std::to_string(count[2]) + ")");
        const std::vector<double> want = box_values(start, count);
        aligned_buffer b(want.size() * 8);
        r->read_box(start, count, b.data());
        EXPECT_EQ(std::memcmp(b.data(), want.data(), want.size() * 8), 0);
        EXPECT_EQ(b.data()[want.size() * 8], 0xA5) << "a byte after the box was written";
    }
    aligned_buffer none(8);
    EXPECT_EQ(status_of([&] { r->read_box({1, 2, 3}, {0, 2, 2}, none.data()); }), FB_OK) << "an empty box";
    EXPECT_TRUE(none.untouched());
    for (const auto& [start, count] :
         std::vector<std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>>{
             {{0, 0, 4}, {1, 1, 2}},
             {{3, 0, 0}, {1, 1, 1}},
             {{0, 0}, {1, 1}},
             {{0, 0, 0, 0}, {1, 1, 1, 1}}}) {
        aligned_buffer b(60 * 8);
        std::string message;
        EXPECT_EQ(status_of([&] { r->read_box(start, count, b.data()); }, &message), FB_E_TRUNCATED)
            << message;
        EXPECT_TRUE(b.untouched());
    }
    r->close();
}

// Elements of a box of an array of any shape, by the row-major formula.
inline std::vector<double> box_values_nd(const std::vector<std::uint64_t>& shape,
                                         const std::vector<std::uint64_t>& start,
                                         const std::vector<std::uint64_t>& count) {
    std::vector<double> out;
    std::vector<std::uint64_t> at(start);
    for (;;) {
        std::uint64_t flat = 0;
        for (std::size_t k = 0; k < shape.size(); ++k)
            flat = flat * shape[k] + at[k];
        out.push_back(value(flat));
        std::size_t k = shape.size();
        while (k > 0 && ++at[k - 1] == start[k - 1] + count[k - 1]) {
            at[k - 1] = start[k - 1];
            --k;
        }
        if (k == 0) return out;
    }
}

// The file of wide_count values read by boxes of two shapes, chosen for
// how a plugin may gather a box's runs (raw's and npy's run_sieve reads
// runs less than 4 KiB apart as one read of at most 1 MiB): 2000 x 256 (a
// row is 2 KiB), whose column is 2000 runs of 8 bytes 2 KiB apart spanning
// 4 MB, several reads' worth; and 20 x 100 x 256, whose boxes of one y
// have runs 200 KiB apart, each read alone. Plus single runs (rows) and
// boxes that end at the file's last byte.
inline constexpr std::uint64_t wide_count = 512000;

// path2 and path3: the file as 2000 x 256 and as 20 x 100 x 256 (the same
// file for a format without a shape; two for npy, whose header has one).
inline void check_boxes_wide(const formatbench::plugin& p, const std::string& path2, const std::string& path3,
                             const option_list& o, bool direct = false) {
    using extents = std::vector<std::uint64_t>;
    struct box {
        extents shape, start, count;
    };
    const extents flat2{2000, 256}, flat3{20, 100, 256};
    const std::vector<box> boxes = {{flat2, {0, 0}, {2000, 1}},        {flat2, {0, 255}, {2000, 1}},
                                    {flat2, {0, 100}, {2000, 3}},      {flat2, {7, 0}, {1, 256}},
                                    {flat2, {1500, 200}, {500, 56}},   {flat2, {0, 0}, {2000, 256}},
                                    {flat3, {0, 5, 0}, {20, 1, 3}},    {flat3, {0, 0, 17}, {20, 100, 1}},
                                    {flat3, {19, 99, 0}, {1, 1, 256}}, {flat3, {3, 40, 250}, {17, 60, 6}}};
    for (const extents* shape : {&flat2, &flat3}) {
        auto r = p.open_read(shape == &flat2 ? path2 : path3, FB_DTYPE_F64, wide_count, o,
                             open_layout{*shape, direct});
        for (const box& x : boxes) {
            if (x.shape != *shape) continue;
            // append, not += " " + ...: GCC 12 warns falsely (-Wrestrict) on that.
            std::string where = "box start";
            for (auto v : x.start)
                where.append(" ").append(std::to_string(v));
            where.append(" count");
            for (auto v : x.count)
                where.append(" ").append(std::to_string(v));
            SCOPED_TRACE(where + " of shape " + std::to_string(shape->size()) + "-D");
            const std::vector<double> want = box_values_nd(*shape, x.start, x.count);
            aligned_buffer b(want.size() * 8);
            r->read_box(x.start, x.count, b.data());
            EXPECT_EQ(std::memcmp(b.data(), want.data(), want.size() * 8), 0);
            EXPECT_EQ(b.data()[want.size() * 8], 0xA5) << "a byte after the box was written";
        }
        r->close();
    }
}

// Sequential read() of a file of n values, with direct when asked: in one
// call, and in chunks of 512 values (whole 4 KiB blocks) and of 333 values
// (never aligned after the first), into aligned buffers.
inline void check_read(const formatbench::plugin& p, const std::string& path, std::uint64_t n,
                       const option_list& o, const open_layout& layout = {}) {
    for (std::uint64_t chunk : {n, std::uint64_t{512}, std::uint64_t{333}}) {
        SCOPED_TRACE("read() in chunks of " + std::to_string(chunk));
        aligned_buffer b(n * 8);
        auto r = p.open_read(path, FB_DTYPE_F64, n, o, layout);
        for (std::uint64_t at = 0; at < n; at += chunk)
            r->read(b.doubles() + at, std::min(chunk, n - at));
        r->close();
        EXPECT_TRUE(holds_values(b.doubles(), 0, n));
    }
}

} // namespace random_access_checks

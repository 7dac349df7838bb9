// mmap plugin specifics: it needs the count, refuses what it cannot map
// (without removing it), reads raw files, and keeps writes within the count;
// its copy routine is exact at every relative alignment. Random access
// (read-at, read-box) of files written here, compared with values computed
// from the index (random_access_checks.hpp, shared with raw and npy), and
// no read-ahead of the whole file at open (populate, willneed).
#include "base/error.hpp"
#include "copy_bytes.hpp"
#include "host/registry.hpp"
#include "random_access_checks.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const formatbench::registry& plugins() {
    static formatbench::registry reg;
    static const bool loaded = (reg.load_directories({FB_TEST_PLUGIN_DIR}), true);
    (void)loaded;
    return reg;
}
const formatbench::plugin& mmap_plugin() {
    return plugins().get("mmap");
}

struct scratch {
    fs::path dir;
    scratch() {
        char t[] = "/tmp/fb-mmap-XXXXXX";
        dir = ::mkdtemp(t);
    }
    ~scratch() { fs::remove_all(dir); }
};

fb_status status_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const formatbench::plugin_error& e) {
        return static_cast<fb_status>(e.status());
    }
    return FB_OK;
}

TEST(mmap, the_file_is_the_array_bytes_for_every_dtype) {
    // Hand-written little-endian bytes of two values per dtype (1.0 and
    // -2.5; 1.5f and -0.25f; 0x0102030405060708 and -2; 0x0a0b0c0d and -3;
    // 0x7f and 0x80): the file must hold exactly these, as raw's does.
    const std::pair<fb_dtype, std::vector<unsigned char>> layouts[] = {
        {FB_DTYPE_F64, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0x04, 0xc0}},
        {FB_DTYPE_F32, {0, 0, 0xc0, 0x3f, 0, 0, 0x80, 0xbe}},
        {FB_DTYPE_I64, {8, 7, 6, 5, 4, 3, 2, 1, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
        {FB_DTYPE_I32, {0x0d, 0x0c, 0x0b, 0x0a, 0xfd, 0xff, 0xff, 0xff}},
        {FB_DTYPE_U8, {0x7f, 0x80}},
    };
    for (const auto& [type, bytes] : layouts) {
        SCOPED_TRACE(formatbench::dtype_name(type));
        scratch s;
        const std::string path = (s.dir / "v.bin").string();
        auto w = mmap_plugin().open_write(path, type, 2, {});
        w->write(bytes.data(), 2);
        w->close();
        std::FILE* f = std::fopen(path.c_str(), "rb");
        ASSERT_NE(f, nullptr);
        std::vector<unsigned char> got(64);
        got.resize(std::fread(got.data(), 1, got.size(), f));
        std::fclose(f);
        EXPECT_EQ(got, bytes);
    }
}

TEST(mmap, unknown_count_is_refused_and_leaves_nothing) {
    scratch s;
    std::string path = (s.dir / "a.raw").string();
    EXPECT_EQ(status_of([&] { mmap_plugin().open_write(path, FB_DTYPE_F64, FB_COUNT_UNKNOWN, {}); }),
              FB_E_UNSUPPORTED);
    EXPECT_FALSE(fs::exists(path));
}

TEST(mmap, full_device_is_refused_at_open_and_not_removed) {
    try {
        mmap_plugin().open_write("/dev/full", FB_DTYPE_F64, 1000, {});
        FAIL() << "/dev/full accepted";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find("mmap: '/dev/full' is not a regular file"), std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(fs::exists("/dev/full"));
}

TEST(mmap, writes_beyond_or_short_of_the_count_are_errors) {
    scratch s;
    std::string path = (s.dir / "b.raw").string();
    std::vector<double> v(10, 1.5);
    {
        auto w = mmap_plugin().open_write(path, FB_DTYPE_F64, 10, {});
        w->write(v.data(), 10);
        EXPECT_EQ(status_of([&] { w->write(v.data(), 1); }), FB_E_STATE);
        w->close();
    }
    fs::remove(path);
    auto w = mmap_plugin().open_write(path, FB_DTYPE_F64, 10, {});
    w->write(v.data(), 9);
    EXPECT_EQ(status_of([&] { w->close(); }), FB_E_STATE);
}

TEST(mmap, reads_raw_files_and_lends_its_mapping) {
    scratch s;
    std::string path = (s.dir / "c.raw").string();
    std::vector<std::int64_t> v(100000);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::int64_t>(i * i) - 5;
    auto w = plugins().get("raw").open_write(path, FB_DTYPE_I64, v.size(), {});
    w->write(v.data(), v.size());
    w->close();
    for (const char* advice : {"normal", "sequential", "random", "willneed", "hugepage"}) {
        formatbench::option_list o{{"advice", advice}, {"populate", "true"}};
        auto r = mmap_plugin().open_read(path, FB_DTYPE_I64, v.size(), o);
        const void* view = r->view(v.size());
        ASSERT_NE(view, nullptr);
        EXPECT_EQ(std::memcmp(view, v.data(), v.size() * 8), 0) << advice;
        std::vector<std::int64_t> back(v.size());
        r->read(back.data(), back.size());
        EXPECT_EQ(back, v) << advice;
        EXPECT_EQ(status_of([&] { r->read(back.data(), 1); }), FB_E_TRUNCATED);
        r->close();
    }
    EXPECT_EQ(status_of([&] { mmap_plugin().open_read(path, FB_DTYPE_I64, v.size() + 1, {}); }),
              FB_E_TRUNCATED);
    EXPECT_EQ(status_of([&] { mmap_plugin().open_read(path, FB_DTYPE_I64, v.size() - 1, {}); }),
              FB_E_CORRUPT);
}

TEST(mmap, reads_of_16_mib_and_more_split_over_threads_come_back_whole) {
    // An odd size, so the last slice is short and not page-aligned; chunks
    // that start mid-file; more threads than a slice per 4 KiB page needs.
    scratch s;
    std::string path = (s.dir / "d.raw").string();
    std::vector<std::uint8_t> v((std::size_t{17} << 20) + 12345);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::uint8_t>(i * 2654435761u >> 24);
    auto w = plugins().get("raw").open_write(path, FB_DTYPE_U8, v.size(), {});
    w->write(v.data(), v.size());
    w->close();
    for (const char* threads : {"1", "2", "3", "64"}) {
        auto r = mmap_plugin().open_read(path, FB_DTYPE_U8, v.size(), {{"read_threads", threads}});
        std::vector<std::uint8_t> back(v.size(), 0);
        r->read(back.data(), 1000);
        r->read(back.data() + 1000, v.size() - 1000);
        r->close();
        EXPECT_TRUE(back == v) << threads << " threads";
    }
    EXPECT_EQ(status_of([&] {
                  mmap_plugin().open_read(path, FB_DTYPE_U8, v.size(), {{"read_threads", "0"}});
              }),
              FB_E_INVALID_OPTION);
}

TEST(mmap, copy_bytes_is_exact_at_every_relative_alignment_and_size) {
    // Sizes on both sides of the 2 KiB threshold and of the 128-byte block,
    // at all 64 skews (the loop runs for all but 0) and several offsets of
    // the source; bytes around the destination must stay untouched.
    std::vector<unsigned char> from(70000 + 192), to(70000 + 192);
    for (std::size_t i = 0; i < from.size(); ++i)
        from[i] = static_cast<unsigned char>(i * 2654435761u >> 24);
    for (std::size_t n : {0u, 1u, 127u, 2047u, 2048u, 2049u, 4096u + 128u + 5u, 70000u})
        for (std::size_t src_at : {0u, 3u, 64u})
            for (std::size_t skew = 0; skew < 64; ++skew) {
                std::fill(to.begin(), to.end(), 0xAB);
                std::size_t to_at = src_at + skew;
                formatbench::detail::copy_bytes(to.data() + to_at, from.data() + src_at, n);
                ASSERT_EQ(std::memcmp(to.data() + to_at, from.data() + src_at, n), 0)
                    << "n " << n << " skew " << skew;
                for (std::size_t i = 0; i < to.size(); ++i) {
                    if (i < to_at || i >= to_at + n) {
                        ASSERT_EQ(to[i], 0xAB) << "n " << n << " byte " << i;
                    }
                }
            }
}

TEST(mmap, chunked_writes_and_reads_from_unaligned_buffers_are_exact) {
    // The runner's align_offset: buffers 8 bytes past a page against a
    // page-aligned mapping, in 64 KiB chunks and one odd-sized tail.
    scratch s;
    std::string path = (s.dir / "u.raw").string();
    const std::size_t n = 300001;
    std::vector<std::uint64_t> storage(n + 1024), back_storage(n + 1024);
    auto* src = reinterpret_cast<std::uint64_t*>(
        (reinterpret_cast<std::uintptr_t>(storage.data()) + 4095) / 4096 * 4096 + 8);
    auto* dst = reinterpret_cast<std::uint64_t*>(
        (reinterpret_cast<std::uintptr_t>(back_storage.data()) + 4095) / 4096 * 4096 + 8);
    for (std::size_t i = 0; i < n; ++i)
        src[i] = i * 0x9E3779B97F4A7C15ull;
    const std::size_t chunk = 8192; // 64 KiB of u64
    auto w = mmap_plugin().open_write(path, FB_DTYPE_I64, n, {});
    for (std::size_t at = 0; at < n; at += chunk)
        w->write(src + at, std::min(chunk, n - at));
    w->close();
    auto r = mmap_plugin().open_read(path, FB_DTYPE_I64, n, {});
    for (std::size_t at = 0; at < n; at += chunk)
        r->read(dst + at, std::min(chunk, n - at));
    r->close();
    EXPECT_EQ(std::memcmp(dst, src, n * sizeof(std::uint64_t)), 0);
}

// ---- Random access (ABI 1.2) -------------------------------------------------

namespace ra = random_access_checks;

// A raw file of values i = 0..n-1 as f64, written here.
void put_values(const std::string& path, std::uint64_t n) {
    const std::vector<double> v = ra::values(n);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(v.data(), 8, v.size(), f), v.size());
    ASSERT_EQ(std::fclose(f), 0);
}

TEST(mmap, read_at_and_read_box_copy_the_right_elements_with_every_advice) {
    scratch s;
    const std::string flat = (s.dir / "flat.raw").string(), cube = (s.dir / "cube.raw").string();
    put_values(flat, 5000);
    put_values(cube, 60);
    for (const char* advice : {"normal", "random", "willneed", "hugepage"})
        for (const char* populate : {"false", "true"}) {
            SCOPED_TRACE(std::string("advice=") + advice + " populate=" + populate);
            const formatbench::option_list o{{"advice", advice}, {"populate", populate}};
            ra::check_read_at(mmap_plugin(), flat, 5000, o);
            ra::check_boxes_3d(mmap_plugin(), cube, o);
        }
}

TEST(mmap, direct_io_is_not_offered) {
    scratch s;
    const std::string flat = (s.dir / "flat.raw").string();
    put_values(flat, 10);
    EXPECT_FALSE(mmap_plugin().has(FB_CAP_DIRECT_IO));
    EXPECT_EQ(status_of([&] {
                  mmap_plugin().open_read(flat, FB_DTYPE_F64, 10, {}, {{}, true});
              }),
              FB_E_UNSUPPORTED);
}

TEST(mmap, a_part_reads_at_offsets_from_its_first_element_and_refuses_boxes) {
    scratch s;
    const std::string path = (s.dir / "flat.raw").string();
    put_values(path, 5000);
    // A part that starts mid-page (byte 8008).
    auto r = mmap_plugin().open_read_part(path, FB_DTYPE_F64, 1001, 2500, 5000, {}, {{50, 100}, false});
    ra::aligned_buffer b(2500 * 8);
    r->read_at(0, b.data(), 3);
    EXPECT_TRUE(ra::holds_values(b.doubles(), 1001, 3));
    r->read_at(2499, b.data(), 1);
    EXPECT_TRUE(ra::holds_values(b.doubles(), 3500, 1));
    EXPECT_EQ(status_of([&] { r->read_at(2499, b.data(), 2); }), FB_E_TRUNCATED) << "past the part";
    EXPECT_EQ(status_of([&] { r->read_box({0, 0}, {1, 1}, b.data()); }), FB_E_UNSUPPORTED);
    r->close();
}

// The share of the file's pages in the page cache (mincore of a mapping of
// our own).
double resident_share(const std::string& path, std::size_t bytes) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    void* m = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (m == MAP_FAILED) return -1;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> in((bytes + page - 1) / page);
    const int rc = ::mincore(m, bytes, in.data());
    ::munmap(m, bytes);
    if (rc != 0) return -1;
    std::size_t resident = 0;
    for (unsigned char c : in)
        resident += c & 1;
    return static_cast<double>(resident) / static_cast<double>(in.size());
}

// Drops the file's clean pages from the page cache (it is written and
// synced first, so every page is clean).
bool evict(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    const bool ok = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    return ok;
}

TEST(mmap, populate_and_willneed_wait_for_the_first_read_so_read_at_reads_what_it_asks) {
    scratch s;
    const std::string path = (s.dir / "big.raw").string();
    // 32 MiB: a fault's read-around (with large folios, megabytes on ext4
    // here: 4 MiB of an 8 MiB file) stays far below the whole file.
    const std::uint64_t n = std::uint64_t{4} << 20;
    put_values(path, n);
    for (const auto& o : {formatbench::option_list{{"advice", "random"}, {"populate", "true"}},
                          formatbench::option_list{{"advice", "willneed"}},
                          formatbench::option_list{{"advice", "normal"}, {"populate", "true"}}}) {
        SCOPED_TRACE(o[0].second);
        if (!evict(path) || resident_share(path, n * 8) > 0.1)
            GTEST_SKIP() << "cannot drop the file's pages from the page cache here";
        {
            auto r = mmap_plugin().open_read(path, FB_DTYPE_F64, n, o);
            double x = -1;
            r->read_at(n / 2, &x, 1);
            EXPECT_EQ(x, ra::value(n / 2));
            // One element with its read-around: far from the whole file.
            const double share = resident_share(path, n * 8);
            EXPECT_LT(share, 0.5) << "open or read_at read the file ahead";
            std::printf("%s: %.3f of the file in the page cache after one read_at\n", o[0].second.c_str(),
                        share);
            r->close();
        }
        // The control: the first read() does fault everything in.
        if (o[0].second == "normal") { // (random would fault the pages in one by one: slow)
            auto r = mmap_plugin().open_read(path, FB_DTYPE_F64, n, o);
            double x = -1;
            r->read(&x, 1);
            EXPECT_EQ(x, 0.0);
            EXPECT_GT(resident_share(path, n * 8), 0.9) << "populate at the first read()";
            r->close();
        }
    }
}

} // namespace

// raw plugin specifics: the file is exactly the array's bytes (in the chosen
// byte order, whatever the buffer size), and a file of the wrong size is
// refused at open with the expected and actual sizes and the path. Random
// access (read-at, read-box) and direct reads (O_DIRECT) of files written
// here, compared with values computed from the index (random_access_checks.hpp).
#include "random_access_checks.hpp"
#include "test_env.hpp"

#include "base/error.hpp"
#include "host/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const formatbench::plugin& raw() {
    static formatbench::registry reg;
    static const formatbench::plugin& p = []() -> const formatbench::plugin& {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        return reg.get("raw");
    }();
    return p;
}

struct scratch {
    fs::path dir;
    scratch() {
        char t[] = "/tmp/fb-raw-XXXXXX";
        dir = ::mkdtemp(t);
    }
    ~scratch() { fs::remove_all(dir); }
};

std::vector<unsigned char> file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void write_values(const std::string& path, const std::vector<std::uint32_t>& v, std::uint64_t chunk,
                  const formatbench::option_list& o) {
    auto w = raw().open_write(path, FB_DTYPE_I32, v.size(), o);
    for (std::size_t off = 0; off < v.size(); off += chunk)
        w->write(v.data() + off, std::min<std::size_t>(chunk, v.size() - off));
    w->close();
}

TEST(raw, file_is_the_bytes_in_the_chosen_order_for_any_buffer_size) {
    std::vector<std::uint32_t> v(1000);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = 0x01020304u + static_cast<std::uint32_t>(i);
    for (const char* buffer : {"0", "1", "7", "4096"})
        for (const char* order : {"native", "little", "big"}) {
            SCOPED_TRACE(std::string("buffer_size=") + buffer + " byte_order=" + order);
            scratch s;
            std::string path = (s.dir / "a.raw").string();
            formatbench::option_list o{{"buffer_size", buffer}, {"byte_order", order}};
            write_values(path, v, 333, o);
            auto bytes = file_bytes(path);
            ASSERT_EQ(bytes.size(), v.size() * 4);
            for (std::size_t i = 0; i < v.size(); ++i) {
                std::uint32_t x = v[i];
                unsigned char le[4] = {static_cast<unsigned char>(x), static_cast<unsigned char>(x >> 8),
                                       static_cast<unsigned char>(x >> 16),
                                       static_cast<unsigned char>(x >> 24)};
                unsigned char be[4] = {le[3], le[2], le[1], le[0]};
                unsigned char native[4];
                std::memcpy(native, &x, 4);
                const unsigned char* want = std::string(order) == "big"      ? be
                                            : std::string(order) == "little" ? le
                                                                             : native;
                ASSERT_EQ(std::memcmp(bytes.data() + 4 * i, want, 4), 0) << "element " << i;
            }
            std::vector<std::uint32_t> back(v.size());
            auto r = raw().open_read(path, FB_DTYPE_I32, v.size(), o);
            for (std::size_t off = 0; off < v.size(); off += 77)
                r->read(back.data() + off, std::min<std::size_t>(77, v.size() - off));
            r->close();
            EXPECT_EQ(back, v);
        }
}

// Every dtype in every byte order: the file holds exactly these bytes,
// written here by hand (each element's bytes are distinct, so a swap of the
// wrong width or a missing swap shows).
TEST(raw, every_dtype_in_both_byte_orders_is_the_hand_written_bytes) {
    struct layout {
        fb_dtype type;
        std::vector<unsigned char> little; // two elements, little-endian
    };
    const layout layouts[] = {
        // 1.0 = 0x3ff0000000000000, -2.5 = 0xc004000000000000
        {FB_DTYPE_F64, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0x04, 0xc0}},
        // 1.5f = 0x3fc00000, -0.25f = 0xbe800000
        {FB_DTYPE_F32, {0, 0, 0xc0, 0x3f, 0, 0, 0x80, 0xbe}},
        // 0x0102030405060708, -2 = 0xfffffffffffffffe
        {FB_DTYPE_I64, {8, 7, 6, 5, 4, 3, 2, 1, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
        // 0x0a0b0c0d, -3 = 0xfffffffd
        {FB_DTYPE_I32, {0x0d, 0x0c, 0x0b, 0x0a, 0xfd, 0xff, 0xff, 0xff}},
        {FB_DTYPE_U8, {0x7f, 0x80}},
    };
    for (const auto& l : layouts) {
        const std::size_t size = formatbench::dtype_size(l.type);
        std::vector<unsigned char> big = l.little;
        for (std::size_t e = 0; e < 2; ++e)
            std::reverse(big.begin() + e * size, big.begin() + (e + 1) * size);
        // The values in memory: the little-endian bytes on this (little-endian) machine.
        static_assert(std::endian::native == std::endian::little);
        const std::vector<unsigned char>& memory = l.little;
        for (const char* buffer : {"0", "3", "4096"})
            for (const char* order : {"native", "little", "big"}) {
                SCOPED_TRACE(std::string(formatbench::dtype_name(l.type)) + " buffer_size=" + buffer +
                             " byte_order=" + order);
                scratch s;
                const std::string path = (s.dir / "v.raw").string();
                const formatbench::option_list o{{"buffer_size", buffer}, {"byte_order", order}};
                auto w = raw().open_write(path, l.type, 2, o);
                w->write(memory.data(), 1); // two calls: the swap must not depend on the call
                w->write(memory.data() + size, 1);
                w->close();
                EXPECT_EQ(file_bytes(path), std::string(order) == "big" ? big : l.little);
                std::vector<unsigned char> back(2 * size, 0xa5);
                auto r = raw().open_read(path, l.type, 2, o);
                r->read(back.data(), 2);
                r->close();
                EXPECT_EQ(back, memory);
            }
    }
}

TEST(raw, wrong_size_is_refused_at_open_with_both_sizes_and_the_path) {
    scratch s;
    std::string path = (s.dir / "b.raw").string();
    write_values(path, std::vector<std::uint32_t>(10, 7), 10, {});
    try {
        raw().open_read(path, FB_DTYPE_I32, 11, {});
        FAIL() << "a file too small was accepted";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_EQ(e.status(), FB_E_TRUNCATED);
        EXPECT_NE(std::string(e.what()).find("expected 44 bytes"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("found 40"), std::string::npos) << e.what();
    }
    try {
        raw().open_read(path, FB_DTYPE_I32, 9, {});
        FAIL() << "a file too large was accepted";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_EQ(e.status(), FB_E_CORRUPT);
        EXPECT_NE(std::string(e.what()).find("'" + path + "' is too large: expected 36 bytes"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(raw().open_read(s.dir.string(), FB_DTYPE_I32, 1, {}), formatbench::plugin_error)
        << "a directory";
}

TEST(raw, full_device_reports_enospc_naming_the_path) {
    std::vector<std::uint32_t> v(1 << 20, 1);
    try {
        write_values("/dev/full", v, v.size(), {});
        FAIL() << "writing to /dev/full succeeded";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_EQ(e.status(), FB_E_IO);
        EXPECT_NE(std::string(e.what()).find("raw: write to '/dev/full': No space left on device"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(fs::exists("/dev/full"));
}

// ---- Random access and direct reads (ABI 1.2) ----------------------------------

namespace ra = random_access_checks;

// A raw file of values i = 0..n-1 as f64, written here: in this machine's
// order, or byte-reversed for byte_order big.
void put_values(const std::string& path, std::uint64_t n, bool big = false) {
    std::vector<double> v = ra::values(n);
    std::vector<unsigned char> b(n * 8);
    std::memcpy(b.data(), v.data(), b.size());
    static_assert(std::endian::native == std::endian::little);
    if (big)
        for (std::uint64_t i = 0; i < n; ++i)
            std::reverse(b.begin() + static_cast<long>(8 * i), b.begin() + static_cast<long>(8 * i + 8));
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

TEST(raw, read_at_and_read_box_read_the_right_bytes_for_every_buffer_and_byte_order) {
    const std::uint64_t n = 5000; // 40000 bytes: the last 4 KiB block is partial
    for (const char* buffer : {"0", "7", "4096"})
        for (const char* order : {"native", "big"}) {
            SCOPED_TRACE(std::string("buffer_size=") + buffer + " byte_order=" + order);
            scratch s;
            const bool big = std::string(order) == "big";
            const formatbench::option_list o{{"buffer_size", buffer}, {"byte_order", order}};
            put_values((s.dir / "flat.raw").string(), n, big);
            ra::check_read_at(raw(), (s.dir / "flat.raw").string(), n, o);
            put_values((s.dir / "cube.raw").string(), 60, big);
            ra::check_boxes_3d(raw(), (s.dir / "cube.raw").string(), o);
            if (std::string(buffer) == "7") continue; // 4 MB in 7-byte preads: slow, and nothing new
            put_values((s.dir / "wide.raw").string(), ra::wide_count, big);
            ra::check_boxes_wide(raw(), (s.dir / "wide.raw").string(), (s.dir / "wide.raw").string(), o);
        }
}

TEST(raw, direct_reads_straight_and_through_the_bounce_buffer) {
    ra::disk_dir d;
    const std::uint64_t n = 5000;
    put_values(d / "flat.raw", n);
    put_values(d / "big.raw", n, true);
    put_values(d / "cube.raw", 60);
    put_values(d / "wide.raw", ra::wide_count);
    if (!ra::direct_io_works(d / "flat.raw")) GTEST_SKIP() << "/var/tmp has no O_DIRECT here";
    const formatbench::open_layout direct{{}, true};
    for (const char* buffer : {"0", "4096", "65536"}) {
        SCOPED_TRACE(std::string("buffer_size=") + buffer);
        const formatbench::option_list o{{"buffer_size", buffer}};
        ra::check_read(raw(), d / "flat.raw", n, o, direct);
        ra::check_read_at(raw(), d / "flat.raw", n, o, direct);
        ra::check_boxes_3d(raw(), d / "cube.raw", o, true);
        ra::check_boxes_wide(raw(), d / "wide.raw", d / "wide.raw", o, true);
        const formatbench::option_list big{{"buffer_size", buffer}, {"byte_order", "big"}};
        ra::check_read(raw(), d / "big.raw", n, big, direct);
        ra::check_read_at(raw(), d / "big.raw", n, big, direct);
    }
}

TEST(raw, direct_with_a_buffer_of_part_blocks_is_refused_naming_the_path) {
    ra::disk_dir d;
    put_values(d / "flat.raw", 5000);
    if (!ra::direct_io_works(d / "flat.raw")) GTEST_SKIP() << "/var/tmp has no O_DIRECT here";
    std::string message;
    EXPECT_EQ(
        ra::status_of(
            [&] {
                raw().open_read(d / "flat.raw", FB_DTYPE_F64, 5000, {{"buffer_size", "1000"}}, {{}, true});
            },
            &message),
        FB_E_INVALID_OPTION);
    EXPECT_NE(message.find("buffer_size 1000 with direct I/O on '" + d / "flat.raw" + "'"), std::string::npos)
        << message;
    EXPECT_NE(message.find("set buffer_size to 0 or a multiple of"), std::string::npos) << message;
}

TEST(raw, direct_where_the_file_system_refuses_it_is_unsupported_naming_the_path) {
    // procfs has no direct I/O on any kernel; its files stat as 0 bytes,
    // which is a raw file of 0 values.
    std::string message;
    EXPECT_EQ(ra::status_of(
                  [&] {
                      raw().open_read("/proc/self/status", FB_DTYPE_F64, 0, {}, {{}, true});
                  },
                  &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("the file system of '/proc/self/status' refuses O_DIRECT"), std::string::npos)
        << message;
    EXPECT_NE(message.find("ext4"), std::string::npos) << "says what to do: " << message;
    // tmpfs refused O_DIRECT before Linux 6.6; later kernels accept it.
    if (!fs::is_directory("/dev/shm")) return;
    char t[] = "/dev/shm/fb-raw-XXXXXX";
    if (!::mkdtemp(t)) return;
    const std::string path = std::string(t) + "/flat.raw";
    put_values(path, 3000);
    if (ra::direct_io_works(path)) {
        ra::check_read_at(raw(), path, 3000, {}, {{}, true}); // the fallback alignment (no statx report)
    } else {
        EXPECT_EQ(ra::status_of(
                      [&] {
                          raw().open_read(path, FB_DTYPE_F64, 3000, {}, {{}, true});
                      },
                      &message),
                  FB_E_UNSUPPORTED);
        EXPECT_NE(message.find(path), std::string::npos) << message;
    }
    fs::remove_all(t);
}

TEST(raw, a_part_reads_at_offsets_from_its_first_element_and_refuses_boxes) {
    scratch s;
    const std::string path = (s.dir / "flat.raw").string();
    put_values(path, 5000);
    auto r = raw().open_read_part(path, FB_DTYPE_F64, 1000, 2500, 5000, {}, {{50, 100}, false});
    ra::aligned_buffer b(2500 * 8);
    r->read_at(0, b.data(), 3);
    EXPECT_TRUE(ra::holds_values(b.doubles(), 1000, 3));
    r->read_at(2499, b.data(), 1);
    EXPECT_TRUE(ra::holds_values(b.doubles(), 3499, 1));
    EXPECT_EQ(ra::status_of([&] { r->read_at(2499, b.data(), 2); }), FB_E_TRUNCATED) << "past the part";
    std::string message;
    EXPECT_EQ(ra::status_of([&] { r->read_box({0, 0}, {1, 1}, b.data()); }, &message), FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("read_box on a part of '" + path + "'"), std::string::npos) << message;
    r->close();
}

TEST(raw, a_shape_that_is_not_the_files_count_is_refused) {
    scratch s;
    const std::string path = (s.dir / "flat.raw").string();
    put_values(path, 60);
    std::string message;
    EXPECT_EQ(ra::status_of(
                  [&] {
                      raw().open_read(path, FB_DTYPE_F64, 60, {}, {{3, 4, 6}, false});
                  },
                  &message),
              FB_E_STATE);
    EXPECT_NE(message.find("the shape (3, 4, 6) given for '" + path + "' holds 72 elements, the file 60"),
              std::string::npos)
        << message;
}

} // namespace

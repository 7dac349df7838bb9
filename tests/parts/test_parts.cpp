// formatbench.part/1 (shared files, MPI layout: shared_file) for every
// plugin that offers it: a file written as parts, all open at once and
// written in turns (as ranks do), is byte-identical to the same values
// written in one stream, and each part reads back its own values (also a
// part other than the one it wrote, as read_rank_shift does). raw's file
// is also compared with the values' bytes themselves.
#include "base/error.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using formatbench::option_list;
using formatbench::plugin;

namespace {

formatbench::registry& reg() {
    static formatbench::registry r;
    static bool loaded = [] {
        r.load_directories({FB_TEST_PLUGIN_DIR});
        return true;
    }();
    (void)loaded;
    return r;
}

struct scratch {
    fs::path dir;
    scratch() {
        char t[] = "/tmp/fb-parts-XXXXXX";
        dir = ::mkdtemp(t);
    }
    ~scratch() { fs::remove_all(dir); }
};

std::vector<unsigned char> file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Values of every dtype with awkward cases (negative, tiny, huge).
std::vector<unsigned char> make_values(fb_dtype d, std::size_t n) {
    const std::size_t size = formatbench::dtype_size(d);
    std::vector<unsigned char> out(n * size);
    std::mt19937_64 gen(static_cast<unsigned>(d) + 11);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t bits = gen();
        unsigned char* p = out.data() + i * size;
        switch (d) {
        case FB_DTYPE_F64: {
            double v = (i % 3 == 0)
                           ? std::ldexp(static_cast<double>(bits >> 11), -53) * (i % 2 ? -1 : 1)
                           : std::ldexp(static_cast<double>(bits >> 11), static_cast<int>(i % 600) - 320);
            std::memcpy(p, &v, 8);
            break;
        }
        case FB_DTYPE_F32: {
            float v = std::ldexp(static_cast<float>(bits >> 40), static_cast<int>(i % 60) - 50) *
                      (i % 2 ? -1.f : 1.f);
            std::memcpy(p, &v, 4);
            break;
        }
        case FB_DTYPE_I64: std::memcpy(p, &bits, 8); break;
        case FB_DTYPE_I32: {
            auto v = static_cast<std::uint32_t>(bits);
            std::memcpy(p, &v, 4);
            break;
        }
        case FB_DTYPE_U8: *p = static_cast<unsigned char>(bits); break;
        }
    }
    return out;
}

// Options under which each plugin's parts are tested (ascii: fixed width,
// wide enough for any value of any dtype in scientific notation, lossless).
std::vector<option_list> option_sets(const std::string& id) {
    if (id == "ascii")
        return {{{"notation", "scientific"}, {"precision", "16"}, {"width", "24"}},
                {{"notation", "scientific"},
                 {"precision", "16"},
                 {"width", "30"},
                 {"values_per_line", "4"},
                 {"separator", ","}}};
    if (id == "raw") return {{}, {{"buffer_size", "4097"}, {"byte_order", "big"}}};
    return {{}};
}

struct part_range {
    std::uint64_t offset, count;
};

class parts_test : public ::testing::TestWithParam<std::string> {};

TEST(parts, offered_by_raw_mmap_and_ascii) {
    std::set<std::string> with;
    for (const auto& p : reg().plugins())
        if (p->has_parts()) with.insert(p->id());
    for (const char* id : {"raw", "mmap", "ascii"})
        EXPECT_TRUE(with.count(id)) << id << " does not offer formatbench.part/1";
    EXPECT_FALSE(with.count("zlib")) << "a compressed stream cannot be written in parts";
}

TEST_P(parts_test, parts_written_at_once_equal_one_stream_and_read_back) {
    const plugin& p = reg().get(GetParam());
    scratch s;
    const std::uint64_t n = 10007;
    // Uneven parts, one empty, one of a single value; they cover [0, n).
    const std::vector<part_range> parts = {{0, 3334}, {3334, 0}, {3334, 1}, {3335, 3333}, {6668, 3339}};
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8}) {
        if (!p.supports(d)) continue;
        const std::size_t size = formatbench::dtype_size(d);
        const auto values = make_values(d, n);
        for (const option_list& o : option_sets(p.id())) {
            SCOPED_TRACE(p.id() + " dtype " + std::string(formatbench::dtype_name(d)) + " options " +
                         std::to_string(o.size()));
            const fs::path whole = s.dir / "whole", shared = s.dir / "shared";
            fs::remove(whole);
            fs::remove(shared);
            {
                auto w = p.open_write(whole.string(), d, n, o);
                w->write(values.data(), n);
                w->close();
            }
            // All parts open first, then written 1000 values at a time in
            // turns, closed in reverse order: as ranks do, in any order.
            std::vector<std::unique_ptr<formatbench::write_stream>> writers;
            for (const auto& r : parts)
                writers.push_back(p.open_write_part(shared.string(), d, r.offset, r.count, n, o));
            std::vector<std::uint64_t> done(parts.size(), 0);
            for (bool more = true; more;) {
                more = false;
                for (std::size_t k = 0; k < parts.size(); ++k) {
                    const std::uint64_t left = parts[k].count - done[k];
                    if (left == 0) continue;
                    const std::uint64_t m = std::min<std::uint64_t>(left, 1000);
                    writers[k]->write(values.data() + (parts[k].offset + done[k]) * size, m);
                    done[k] += m;
                    more = true;
                }
            }
            for (std::size_t k = parts.size(); k-- > 0;)
                writers[k]->close();
            const auto expected = file_bytes(whole);
            const auto got = file_bytes(shared);
            ASSERT_EQ(got.size(), expected.size());
            const auto diff = std::mismatch(got.begin(), got.end(), expected.begin());
            ASSERT_TRUE(diff.first == got.end()) << "first difference at byte " << (diff.first - got.begin());
            if (p.id() == "raw" && o.empty()) ASSERT_EQ(got, values);
            // Each part reads back its values, in two reads.
            for (const auto& r : parts) {
                std::vector<unsigned char> back(r.count * size + 1, 0xA5);
                auto in = p.open_read_part(shared.string(), d, r.offset, r.count, n, o);
                const std::uint64_t half = r.count / 2;
                in->read(back.data(), half);
                in->read(back.data() + half * size, r.count - half);
                in->close();
                ASSERT_EQ(0, std::memcmp(back.data(), values.data() + r.offset * size, r.count * size))
                    << "part at " << r.offset;
            }
        }
    }
}

TEST_P(parts_test, a_part_of_a_file_of_another_size_is_refused) {
    const plugin& p = reg().get(GetParam());
    scratch s;
    const option_list o = option_sets(p.id()).front();
    const auto values = make_values(FB_DTYPE_F64, 100);
    const fs::path path = s.dir / "f";
    auto w = p.open_write(path.string(), FB_DTYPE_F64, 100, o);
    w->write(values.data(), 100);
    w->close();
    try {
        p.open_read_part(path.string(), FB_DTYPE_F64, 50, 50, 101, o);
        ADD_FAILURE() << "a part of a 101-value file opened on a 100-value file";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    try {
        p.open_write_part(path.string(), FB_DTYPE_F64, 90, 20, 100, o);
        ADD_FAILURE() << "a part past the end opened";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find("outside"), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(plugins, parts_test, ::testing::Values("raw", "mmap", "ascii"));

TEST(parts, ascii_needs_a_width_and_a_width_that_fits) {
    const plugin& p = reg().get("ascii");
    scratch s;
    const std::string path = (s.dir / "a.txt").string();
    try {
        p.open_write_part(path, FB_DTYPE_F64, 0, 10, 20, {});
        ADD_FAILURE() << "a part without a width opened";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find("set option width"), std::string::npos) << e.what();
    }
    try {
        p.open_write(path, FB_DTYPE_F64, 10,
                     {{"notation", "scientific"}, {"precision", "16"}, {"width", "23"}});
        ADD_FAILURE() << "a width one short of -d.dddddddddddddddde-308 (24) was accepted";
    } catch (const formatbench::plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find("set width to 24"), std::string::npos) << e.what();
    }
    // The width pads in front, like Fortran's ES24.16E3 (hand-written text).
    const double v[] = {1.5, -2.2250738585072014e-308};
    auto w = p.open_write(path, FB_DTYPE_F64, 2,
                          {{"notation", "scientific"}, {"precision", "16"}, {"width", "24"}});
    w->write(v, 2);
    w->close();
    const auto text = file_bytes(path);
    EXPECT_EQ(std::string(text.begin(), text.end()), "  1.5000000000000000e+00\n-2.2250738585072014e-308\n");
}

} // namespace

// Tests of the ascii plugin through the core registry: bit-exact round trips,
// gfortran's (f0.16) byte for byte, every syntax the reader accepts, every
// corrupt input with its line and column, line layout across chunks, and
// I/O errors (/dev/full, a missing folder).
#include "base/error.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <list>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using formatbench::option_list;
using formatbench::plugin_error;

namespace {

const formatbench::plugin& ascii() {
    static formatbench::registry reg;
    static const formatbench::plugin* p = [] {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        return &reg.get("ascii");
    }();
    return *p;
}

// A fresh folder per test, removed at the end.
class ascii_test : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("fb_ascii_" + std::to_string(::getpid()) + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    fs::path dir_;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void put_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// Writes values in chunks of the given sizes (cycled), then closes.
template <class T>
void write_values(const std::string& path, fb_dtype dtype, const std::vector<T>& values,
                  const option_list& opts, const std::vector<std::size_t>& chunks = {}) {
    auto w = ascii().open_write(path, dtype, values.size(), opts);
    std::size_t i = 0, k = 0;
    while (i < values.size()) {
        std::size_t n =
            chunks.empty() ? values.size() : std::min(chunks[k++ % chunks.size()], values.size() - i);
        w->write(values.data() + i, n);
        i += n;
    }
    w->close();
}

template <class T>
std::vector<T> read_values(const std::string& path, fb_dtype dtype, std::size_t count,
                           const std::vector<std::size_t>& chunks = {}) {
    std::vector<T> out(count);
    auto r = ascii().open_read(path, dtype, count, {});
    std::size_t i = 0, k = 0;
    while (i < count) {
        std::size_t n = chunks.empty() ? count : std::min(chunks[k++ % chunks.size()], count - i);
        r->read(out.data() + i, n);
        i += n;
    }
    r->close();
    return out;
}

// The status and message of a failed read of `count` values of `dtype`.
std::pair<int, std::string> read_error(const std::string& path, fb_dtype dtype, std::size_t count) {
    try {
        read_values<double>(path, dtype, count); // a double per element is room enough
    } catch (const plugin_error& e) {
        return {e.status(), e.what()};
    }
    return {FB_OK, ""};
}

// A read error that expects a buffer of the right element type.
template <class T>
std::pair<int, std::string> read_error_as(const std::string& path, fb_dtype dtype, std::size_t count) {
    try {
        read_values<T>(path, dtype, count);
    } catch (const plugin_error& e) {
        return {e.status(), e.what()};
    }
    return {FB_OK, ""};
}

template <class T>
bool bits_equal(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

double from_bits(std::uint64_t b) {
    return std::bit_cast<double>(b);
}

// Chunk sizes that cross every internal boundary: single values, odd sizes,
// and blocks above the two-thread threshold.
const std::vector<std::size_t> odd_chunks = {1, 7, 4096, 100003, 3, 262144, 65536, 50000};

} // namespace

TEST(ascii_descriptor, identity_and_options) {
    const auto& p = ascii();
    EXPECT_EQ(p.id(), "ascii");
    EXPECT_EQ(p.extension(), "txt");
    EXPECT_TRUE(p.has(FB_CAP_LOSSLESS));
    EXPECT_TRUE(p.has(FB_CAP_LOSSY));
    for (auto d : formatbench::all_dtypes)
        EXPECT_TRUE(p.supports(d));
    std::vector<std::string> names;
    for (const auto& o : p.options())
        names.push_back(o.name);
    EXPECT_EQ(names, (std::vector<std::string>{"notation", "precision", "values_per_line", "separator",
                                               "leading_zero", "nonfinite", "width"}));
}

TEST(ascii_descriptor, lossless_depends_on_notation) {
    const auto& p = ascii();
    EXPECT_TRUE(p.is_lossless({}, FB_DTYPE_F64));
    EXPECT_TRUE(p.is_lossless({{"notation", "shortest"}, {"precision", "0"}}, FB_DTYPE_F64));
    EXPECT_FALSE(p.is_lossless({{"notation", "fixed"}}, FB_DTYPE_F64));
    EXPECT_FALSE(p.is_lossless({{"notation", "fixed"}, {"precision", "40"}}, FB_DTYPE_F64));
    EXPECT_TRUE(p.is_lossless({{"notation", "scientific"}, {"precision", "16"}}, FB_DTYPE_F64));
    EXPECT_FALSE(p.is_lossless({{"notation", "scientific"}, {"precision", "15"}}, FB_DTYPE_F64));
    EXPECT_TRUE(p.is_lossless({{"notation", "general"}, {"precision", "17"}}, FB_DTYPE_F64));
    EXPECT_FALSE(p.is_lossless({{"notation", "general"}, {"precision", "16"}}, FB_DTYPE_F64));
    // binary32 needs 9 significant digits, not 17.
    EXPECT_TRUE(p.is_lossless({{"notation", "scientific"}, {"precision", "8"}}, FB_DTYPE_F32));
    EXPECT_FALSE(p.is_lossless({{"notation", "scientific"}, {"precision", "7"}}, FB_DTYPE_F32));
    EXPECT_TRUE(p.is_lossless({{"notation", "general"}, {"precision", "9"}}, FB_DTYPE_F32));
    EXPECT_FALSE(p.is_lossless({{"notation", "general"}, {"precision", "8"}}, FB_DTYPE_F32));
    EXPECT_FALSE(p.is_lossless({{"notation", "fixed"}, {"precision", "60"}}, FB_DTYPE_F32));
    // Integers are written in full whatever the notation.
    for (fb_dtype d : {FB_DTYPE_I64, FB_DTYPE_I32, FB_DTYPE_U8}) {
        EXPECT_TRUE(p.is_lossless({{"notation", "fixed"}, {"precision", "0"}}, d));
        EXPECT_TRUE(p.is_lossless({{"notation", "general"}, {"precision", "1"}}, d));
    }
}

// ---- Round trips ------------------------------------------------------------

TEST_F(ascii_test, round_trip_f64_shortest_bit_exact) {
    std::mt19937_64 gen(1);
    std::vector<double> v;
    const double specials[] = {0.0,
                               -0.0,
                               1.0,
                               -1.0,
                               0.1,
                               1e-300,
                               5e-324,
                               -5e-324,
                               2.2250738585072014e-308,
                               std::numeric_limits<double>::max(),
                               std::numeric_limits<double>::lowest(),
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::quiet_NaN(),
                               -std::numeric_limits<double>::quiet_NaN()};
    v.insert(v.end(), std::begin(specials), std::end(specials));
    std::uniform_real_distribution<double> unit(0, 1);
    while (v.size() < 300000) {
        double x = std::bit_cast<double>(gen());
        if (std::isnan(x)) continue; // NaN payloads are not kept (documented)
        v.push_back(v.size() % 2 ? x : unit(gen));
    }
    write_values(path("a.txt"), FB_DTYPE_F64, v, {}, odd_chunks);
    EXPECT_TRUE(bits_equal(read_values<double>(path("a.txt"), FB_DTYPE_F64, v.size(), odd_chunks), v));
    // One chunk each way takes the two-thread paths with the largest blocks.
    write_values(path("b.txt"), FB_DTYPE_F64, v, {});
    EXPECT_EQ(slurp(path("a.txt")), slurp(path("b.txt")));
    EXPECT_TRUE(bits_equal(read_values<double>(path("b.txt"), FB_DTYPE_F64, v.size()), v));
}

TEST_F(ascii_test, round_trip_f32_shortest_bit_exact) {
    std::mt19937 gen(2);
    std::vector<float> v = {
        0.0f, -0.0f, 1e-45f, std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity(), 0.1f};
    while (v.size() < 200000) {
        float x = std::bit_cast<float>(static_cast<std::uint32_t>(gen()));
        if (!std::isnan(x)) v.push_back(x);
    }
    write_values(path("a.txt"), FB_DTYPE_F32, v, {}, odd_chunks);
    EXPECT_TRUE(bits_equal(read_values<float>(path("a.txt"), FB_DTYPE_F32, v.size(), odd_chunks), v));
}

TEST_F(ascii_test, round_trip_integers) {
    std::mt19937_64 gen(3);
    std::vector<std::int64_t> i64 = {0, -1, std::numeric_limits<std::int64_t>::min(),
                                     std::numeric_limits<std::int64_t>::max()};
    std::vector<std::int32_t> i32 = {0, -1, std::numeric_limits<std::int32_t>::min(),
                                     std::numeric_limits<std::int32_t>::max()};
    std::vector<std::uint8_t> u8;
    for (int i = 0; i < 200000; ++i) {
        i64.push_back(static_cast<std::int64_t>(gen()));
        i32.push_back(static_cast<std::int32_t>(gen()));
        u8.push_back(static_cast<std::uint8_t>(i));
    }
    // Integers are exact whatever the notation: it applies to floats only.
    write_values(path("i64.txt"), FB_DTYPE_I64, i64, {{"notation", "fixed"}}, odd_chunks);
    EXPECT_EQ(read_values<std::int64_t>(path("i64.txt"), FB_DTYPE_I64, i64.size(), odd_chunks), i64);
    write_values(path("i32.txt"), FB_DTYPE_I32, i32, {}, odd_chunks);
    EXPECT_EQ(read_values<std::int32_t>(path("i32.txt"), FB_DTYPE_I32, i32.size()), i32);
    write_values(path("u8.txt"), FB_DTYPE_U8, u8, {{"values_per_line", "16"}}, odd_chunks);
    EXPECT_EQ(read_values<std::uint8_t>(path("u8.txt"), FB_DTYPE_U8, u8.size(), odd_chunks), u8);
    EXPECT_EQ(slurp(path("u8.txt")).substr(0, 38), "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
}

TEST_F(ascii_test, scientific_16_reads_back_bit_exact_as_claimed) {
    std::mt19937_64 gen(4);
    std::vector<double> v;
    while (v.size() < 100000) {
        double x = std::bit_cast<double>(gen());
        if (std::isfinite(x)) v.push_back(x);
    }
    option_list opts = {{"notation", "scientific"}, {"precision", "16"}};
    ASSERT_TRUE(ascii().is_lossless(opts, FB_DTYPE_F64));
    write_values(path("a.txt"), FB_DTYPE_F64, v, opts);
    EXPECT_TRUE(bits_equal(read_values<double>(path("a.txt"), FB_DTYPE_F64, v.size()), v));
}

// The f32 thresholds checked by the values themselves: 9 significant digits
// read back every float bit-exact, 8 do not (so the claim is not too weak).
TEST_F(ascii_test, f32_thresholds_read_back_as_claimed) {
    std::mt19937 gen(5);
    std::vector<float> v;
    while (v.size() < 100000) {
        float x = std::bit_cast<float>(static_cast<std::uint32_t>(gen()));
        if (std::isfinite(x)) v.push_back(x);
    }
    for (const option_list& opts : {option_list{{"notation", "scientific"}, {"precision", "8"}},
                                    option_list{{"notation", "general"}, {"precision", "9"}}}) {
        ASSERT_TRUE(ascii().is_lossless(opts, FB_DTYPE_F32));
        write_values(path("a.txt"), FB_DTYPE_F32, v, opts);
        EXPECT_TRUE(bits_equal(read_values<float>(path("a.txt"), FB_DTYPE_F32, v.size()), v))
            << opts[0].second;
    }
    for (const option_list& opts : {option_list{{"notation", "scientific"}, {"precision", "7"}},
                                    option_list{{"notation", "general"}, {"precision", "8"}}}) {
        ASSERT_FALSE(ascii().is_lossless(opts, FB_DTYPE_F32));
        write_values(path("a.txt"), FB_DTYPE_F32, v, opts);
        EXPECT_FALSE(bits_equal(read_values<float>(path("a.txt"), FB_DTYPE_F32, v.size()), v))
            << opts[0].second;
    }
}

// ---- The reference format -----------------------------------------------------

// Expected lines produced by gfortran 12.2 on this machine:
//   write (*, '(z16.16, 1x, f0.16)') transfer(x(i), 0_int64), x(i)
// with x from random_number plus hand-picked cases: zero, the largest double
// below 1, exact ties at the 17th decimal (1, 3 and 5 / 2**17: gfortran
// rounds half to even), a value below 1e-16, and 1.0.
TEST_F(ascii_test, fixed_16_without_leading_zero_matches_gfortran_f0_16) {
    const std::pair<std::uint64_t, const char*> cases[] = {
        {0x0000000000000000, ".0000000000000000"},  {0x3FEFFFFFFFFFFFFF, ".9999999999999999"},
        {0x3EE0000000000000, ".0000076293945312"},  {0x3F04000000000000, ".0000381469726562"},
        {0x3EF8000000000000, ".0000228881835938"},  {0x3C670EF54646D497, ".0000000000000000"},
        {0x3FF0000000000000, "1.0000000000000000"}, {0x3FD846CFF813C55C, ".3793220446232988"},
        {0x3FCF193D01FF0618, ".2429577121493345"},  {0x3FE742AB7EB7CEBF, ".7268884158097179"},
        {0x3FB5718B897970A0, ".0837638102179334"},  {0x3FE00E2D3E50DD4D, ".5017305581194847"},
        {0xBFD0000000000000, "-.2500000000000000"}, // write (*, '(f0.16)') -0.25_wp
    };
    std::vector<double> v;
    std::string expected;
    for (const auto& [bits, text] : cases) {
        v.push_back(from_bits(bits));
        expected += text;
        expected += '\n';
    }
    option_list opts = {{"notation", "fixed"}, {"precision", "16"}, {"leading_zero", "false"}};
    write_values(path("a.txt"), FB_DTYPE_F64, v, opts, {1, 2, 3});
    EXPECT_EQ(slurp(path("a.txt")), expected);
    // And the same through the two-thread path, many times over.
    std::vector<double> many;
    std::string many_expected;
    for (int i = 0; i < 20000; ++i) {
        many.insert(many.end(), v.begin(), v.end());
        many_expected += expected;
    }
    write_values(path("b.txt"), FB_DTYPE_F64, many, opts);
    EXPECT_EQ(slurp(path("b.txt")), many_expected);
    // The reader takes gfortran's text back, within the 16 decimals' rounding
    // (the reference program printed maxval(x - xchk) = 5.55e-17).
    auto back = read_values<double>(path("a.txt"), FB_DTYPE_F64, v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        EXPECT_LE(std::abs(back[i] - v[i]), 5.56e-17) << i;
}

TEST_F(ascii_test, other_notations_and_leading_zero) {
    std::vector<double> v = {0.1, -0.25, 1234.5678, 0.0};
    write_values(path("s.txt"), FB_DTYPE_F64, v, {{"notation", "scientific"}, {"precision", "3"}});
    EXPECT_EQ(slurp(path("s.txt")), "1.000e-01\n-2.500e-01\n1.235e+03\n0.000e+00\n");
    write_values(path("g.txt"), FB_DTYPE_F64, v,
                 {{"notation", "general"}, {"precision", "3"}, {"leading_zero", "false"}});
    EXPECT_EQ(slurp(path("g.txt")), ".1\n-.25\n1.23e+03\n0\n");
    write_values(path("f.txt"), FB_DTYPE_F64, v, {{"notation", "fixed"}, {"precision", "2"}});
    EXPECT_EQ(slurp(path("f.txt")), "0.10\n-0.25\n1234.57\n0.00\n");
    write_values(path("d.txt"), FB_DTYPE_F64, v, {});
    EXPECT_EQ(slurp(path("d.txt")), "0.1\n-0.25\n1234.5678\n0\n");
    write_values(path("z.txt"), FB_DTYPE_F64, v, {{"leading_zero", "false"}});
    EXPECT_EQ(slurp(path("z.txt")), ".1\n-.25\n1234.5678\n0\n");
    EXPECT_TRUE(bits_equal(read_values<double>(path("z.txt"), FB_DTYPE_F64, v.size()), v));
    std::vector<float> f = {0.1f, 3.0f};
    write_values(path("f32.txt"), FB_DTYPE_F32, f, {{"notation", "fixed"}, {"precision", "10"}});
    EXPECT_EQ(slurp(path("f32.txt")), "0.1000000015\n3.0000000000\n");
}

// ---- Line layout ---------------------------------------------------------------

TEST_F(ascii_test, values_per_line_and_separator_across_chunks) {
    std::vector<std::int32_t> v = {1, 2, 3, 4, 5, 6, 7};
    option_list opts = {{"values_per_line", "3"}, {"separator", ", "}};
    for (std::size_t chunk : {1, 2, 4, 7}) {
        write_values(path("a.txt"), FB_DTYPE_I32, v, opts, {chunk});
        EXPECT_EQ(slurp(path("a.txt")), "1, 2, 3\n4, 5, 6\n7\n") << "chunk " << chunk;
    }
    EXPECT_EQ(read_values<std::int32_t>(path("a.txt"), FB_DTYPE_I32, v.size()), v);
    // A full last line gets no extra newline; an empty stream writes nothing.
    write_values(path("b.txt"), FB_DTYPE_I32, std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}, opts, {5});
    EXPECT_EQ(slurp(path("b.txt")), "1, 2, 3\n4, 5, 6\n");
    write_values(path("c.txt"), FB_DTYPE_I32, std::vector<std::int32_t>{}, opts);
    EXPECT_EQ(slurp(path("c.txt")), "");
    write_values(path("d.txt"), FB_DTYPE_I32, v, {{"values_per_line", "2"}, {"separator", "\t"}});
    EXPECT_EQ(slurp(path("d.txt")), "1\t2\n3\t4\n5\t6\n7\n");
}

TEST_F(ascii_test, values_per_line_on_the_two_thread_path) {
    // 5 per line, and chunk sizes that put half boundaries mid-line.
    std::vector<std::int32_t> v(400003);
    std::string expected;
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i] = static_cast<std::int32_t>(i);
        expected += std::to_string(i);
        expected += (i % 5 == 4 || i + 1 == v.size()) ? "\n" : " ";
    }
    option_list opts = {{"values_per_line", "5"}};
    write_values(path("a.txt"), FB_DTYPE_I32, v, opts);
    EXPECT_EQ(slurp(path("a.txt")), expected);
    write_values(path("b.txt"), FB_DTYPE_I32, v, opts, {3, 131071, 262147, 1});
    EXPECT_EQ(slurp(path("b.txt")), expected);
    EXPECT_EQ(read_values<std::int32_t>(path("b.txt"), FB_DTYPE_I32, v.size(), {70001, 3}), v);
}

TEST_F(ascii_test, values_far_longer_than_the_writer_estimated) {
    // The two-thread writer sizes its pieces from the text seen so far: after
    // 200k short values, values of 300+ digits in fixed notation overflow
    // them. The text must still be exact and in order, lines included.
    std::vector<double> v;
    for (std::size_t i = 0; i < 200000; ++i)
        v.push_back(static_cast<double>(i % 1000) / 4); // exact in 2 decimals
    for (std::size_t i = 0; i < 100000; ++i)
        v.push_back((i % 2 ? -1e300 : 1e300) * static_cast<double>(i % 7 + 1));
    for (std::size_t i = 0; i < 100001; ++i)
        v.push_back(static_cast<double>(i % 13));
    for (std::uint64_t per_line : {1, 3}) {
        std::string expected;
        char buf[400];
        for (std::size_t i = 0; i < v.size(); ++i) {
            expected.append(buf, std::to_chars(buf, buf + sizeof buf, v[i], std::chars_format::fixed, 2).ptr);
            expected += (i % per_line == per_line - 1 || i + 1 == v.size()) ? '\n' : ' ';
        }
        option_list opts = {
            {"notation", "fixed"}, {"precision", "2"}, {"values_per_line", std::to_string(per_line)}};
        write_values(path("a.txt"), FB_DTYPE_F64, v, opts);
        EXPECT_EQ(slurp(path("a.txt")), expected) << per_line << " per line";
        write_values(path("b.txt"), FB_DTYPE_F64, v, opts, {70001, 3});
        EXPECT_EQ(slurp(path("b.txt")), expected) << per_line << " per line, chunks";
    }
    EXPECT_TRUE(bits_equal(read_values<double>(path("a.txt"), FB_DTYPE_F64, v.size()), v));
}

TEST_F(ascii_test, separator_must_read_back) {
    for (const char* bad : {";", "", " x"}) {
        try {
            ascii().open_write(path("a.txt"), FB_DTYPE_F64, 1, {{"separator", bad}});
            ADD_FAILURE() << "separator '" << bad << "' accepted";
        } catch (const plugin_error& e) {
            EXPECT_EQ(e.status(), FB_E_INVALID_OPTION);
            EXPECT_NE(std::string(e.what()).find("separator"), std::string::npos);
        }
        EXPECT_FALSE(fs::exists(path("a.txt"))) << "open failed but left a file";
    }
}

// ---- Reader syntax ---------------------------------------------------------------

TEST_F(ascii_test, reader_accepts_fortran_and_c_syntax) {
    put_file(path("a.txt"), "  +1.5\t-2.5e3,\r\n.5 -.5 1.0d2 1D-2 +.25E+1,\t7\n\n"
                            "inf -Infinity +INF nan NaN -nan 5. 1e-320 -0\r\n0.1");
    auto v = read_values<double>(path("a.txt"), FB_DTYPE_F64, 18);
    const double expected[] = {1.5, -2500, 0.5, -0.5, 100, 0.01, 2.5, 7};
    for (std::size_t i = 0; i < 8; ++i)
        EXPECT_EQ(v[i], expected[i]) << i;
    EXPECT_EQ(v[8], std::numeric_limits<double>::infinity());
    EXPECT_EQ(v[9], -std::numeric_limits<double>::infinity());
    EXPECT_EQ(v[10], std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(v[11]) && std::isnan(v[12]) && std::isnan(v[13]));
    EXPECT_TRUE(std::signbit(v[13]));
    EXPECT_EQ(v[14], 5.0);
    EXPECT_EQ(v[15], 1e-320);
    EXPECT_TRUE(v[16] == 0 && std::signbit(v[16]));
    EXPECT_EQ(v[17], 0.1); // the last value, without a newline after it
    // Asking for one more names the end of the last line.
    auto [status, message] = read_error(path("a.txt"), FB_DTYPE_F64, 19);
    EXPECT_EQ(status, FB_E_TRUNCATED);
    EXPECT_NE(message.find("line 5, column 4"), std::string::npos) << message;
}

// Fortran's list-directed forms without gfortran (test_ascii_gfortran.cpp
// compares them with gfortran's own read): the values are the decimal
// numbers the text spells.
TEST_F(ascii_test, reader_accepts_fortran_list_directed_forms) {
    put_file(path("a.txt"), "1.0+300 0.49406564584124654-323 -2.5-1 1q2 1Q-2 .5D0\r\n3*0.25 2*-1.5d0, 1*7\n");
    const double expected[] = {
        1e300, 4.9406564584124654e-324, -0.25, 100, 0.01, 0.5, 0.25, 0.25, 0.25, -1.5, -1.5, 7};
    for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {1}, {2}, {5, 3}}) {
        auto v = read_values<double>(path("a.txt"), FB_DTYPE_F64, 12, chunks);
        for (std::size_t i = 0; i < 12; ++i)
            EXPECT_EQ(v[i], expected[i]) << i << ", " << chunks.size() << " chunk sizes";
    }
    put_file(path("i.txt"), "2*-9223372036854775808, 3*7 +5");
    EXPECT_EQ(read_values<std::int64_t>(path("i.txt"), FB_DTYPE_I64, 6, {4}),
              (std::vector<std::int64_t>{INT64_MIN, INT64_MIN, 7, 7, 7, 5}));
    // A repeat count larger than the values asked for: the rest is ignored.
    put_file(path("r.txt"), "1000000000000*0.5");
    EXPECT_EQ(read_values<float>(path("r.txt"), FB_DTYPE_F32, 5, {2}), (std::vector<float>(5, 0.5f)));
    // Not Fortran: a sign on the repeat count, a zero count, a count alone,
    // an exponent sign without digits after it.
    const std::pair<const char*, const char*> bad[] = {{"+3*1", "'+3*1' is not a valid"},
                                                       {"0*1", "'0*1' is not a valid"},
                                                       {"2*3*4", "not a valid"},
                                                       {"1.0+", "'1.0+' is not a valid"},
                                                       {"1+3", "'1+3' is not a valid i32"}};
    for (const auto& [text, problem] : bad) {
        put_file(path("b.txt"), text);
        auto [status, message] = std::string(text) == "1+3"
                                     ? read_error_as<std::int32_t>(path("b.txt"), FB_DTYPE_I32, 1)
                                     : read_error(path("b.txt"), FB_DTYPE_F64, 1);
        EXPECT_EQ(status, FB_E_CORRUPT) << text;
        EXPECT_NE(message.find(problem), std::string::npos) << message;
    }
}

// Repeat counts through every path of the reader: values cut between two
// reads, in a mapped file parsed on two threads, where the helper's scratch
// fills up with copies.
TEST_F(ascii_test, repeat_counts_across_reads_and_two_thread_pieces) {
    std::string text;
    std::vector<double> expected;
    std::mt19937_64 gen(17);
    // ~3 MB of text for ~6 million values: rounds of several pieces, and
    // helper pieces whose copies overflow its scratch.
    while (text.size() < (std::size_t{3} << 20)) {
        double x = static_cast<double>(gen() % 1000) / 8;
        std::size_t r = gen() % 7 == 0 ? 1 + gen() % 200 : 1 + gen() % 3;
        char buf[32];
        std::string value(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
        text += r == 1 ? value : std::to_string(r) + "*" + value;
        text += gen() % 5 == 0 ? ",\n" : " ";
        expected.insert(expected.end(), r, x);
    }
    put_file(path("a.txt"), text);
    EXPECT_TRUE(bits_equal(read_values<double>(path("a.txt"), FB_DTYPE_F64, expected.size()), expected));
    EXPECT_TRUE(bits_equal(
        read_values<double>(path("a.txt"), FB_DTYPE_F64, expected.size(), {65536, 1, 4999, 300000}),
        expected));
}

// Null values (two commas with only blanks or line ends between them, a
// comma first, r*) and slashes are refused wherever they fall: in the first
// read, between two reads, in any piece of a two-thread round. A file
// separated by ", " has no null value anywhere, however it is cut.
TEST_F(ascii_test, null_values_and_slashes_are_refused_wherever_they_fall) {
    const std::pair<const char*, const char*> cases[] = {
        {"1,,2", "line 1, column 3: a second comma"},   {",1", "line 1, column 1: a second comma"},
        {"1, ,2", "line 1, column 4: a second comma"},  {"1,\r\n\t,2", "line 2, column 2: a second comma"},
        {"1 3* 2", "line 1, column 3: '3*', a repeat"}, {"1 /", "line 1, column 3: '/': a slash ends"},
        {"1 2/", "line 1, column 3: '2/': a slash"}};
    for (const auto& [text, where] : cases) {
        put_file(path("a.txt"), text);
        for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {1}}) {
            std::string message;
            try {
                read_values<double>(path("a.txt"), FB_DTYPE_F64, 2, chunks);
            } catch (const plugin_error& e) {
                EXPECT_EQ(e.status(), FB_E_CORRUPT);
                message = e.what();
            }
            EXPECT_NE(message.find(where), std::string::npos) << text << ": " << message;
        }
    }
    // A large file of "x, y, z" lines, read whole and in pieces.
    std::vector<std::int64_t> v(600000);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::int64_t>(i * 7919 % 1000003);
    write_values(path("c.txt"), FB_DTYPE_I64, v, {{"values_per_line", "3"}, {"separator", ", "}});
    EXPECT_EQ(read_values<std::int64_t>(path("c.txt"), FB_DTYPE_I64, v.size()), v);
    EXPECT_EQ(read_values<std::int64_t>(path("c.txt"), FB_DTYPE_I64, v.size(), {65536, 1, 99999}), v);
    // ", " made ",," on lines across the whole file: found at its line.
    const std::string text = slurp(path("c.txt"));
    std::vector<std::size_t> line_start{0};
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') line_start.push_back(i + 1);
    for (std::size_t line = 1; line < line_start.size(); line += line < 10 ? 1 : 4001) {
        std::string bad = text;
        std::size_t comma = bad.find(", ", line_start[line - 1]);
        bad[comma + 1] = ',';
        put_file(path("d.txt"), bad);
        auto [status, message] = read_error_as<std::int64_t>(path("d.txt"), FB_DTYPE_I64, v.size());
        EXPECT_EQ(status, FB_E_CORRUPT) << "line " << line;
        const std::string where = "line " + std::to_string(line) + ", column " +
                                  std::to_string(comma - line_start[line - 1] + 2) + ":";
        EXPECT_NE(message.find(where), std::string::npos) << where << " " << message;
    }
}

// A two-thread round is cut into pieces right after tokens, so that no run
// of separators is split between two pieces: the helper thread parses a
// piece from its start with no comma seen. The cuts are sought every
// round_size / 32 + 1 bytes (reader.cpp: 4 MiB rounds, 32 pieces); here
// ",," has its second comma exactly where the last cut is sought, in the
// piece the helper takes first. (A cut at the first separator found there
// split the two commas, and the null value went unseen.)
TEST_F(ascii_test, null_value_where_a_round_is_cut_into_pieces) {
    std::string text;
    while (text.size() < (std::size_t{5} << 20))
        text += "1000000, ";
    const std::size_t round = text.find_first_of(", ", std::size_t{4} << 20); // the first round's end
    const std::size_t step = round / 32 + 1;
    // Where the cuts fall when each is the first separator at or after the
    // place sought (which splits runs); the last place sought is the target.
    std::size_t p = 0, last_sought = 0;
    while (round - p > step) {
        last_sought = p + step;
        p = text.find_first_of(", ", last_sought);
    }
    // "...7,, 1" with the second comma where the last cut is sought.
    text.replace(last_sought - 2, 4, "7,, ");
    ASSERT_EQ(text.find(",,,"), std::string::npos);
    put_file(path("a.txt"), text);
    for (int run = 0; run < 5; ++run) { // the helper's timing varies; the error may not
        auto [status, message] = read_error(path("a.txt"), FB_DTYPE_F64, text.size() / 9);
        EXPECT_EQ(status, FB_E_CORRUPT) << message;
        EXPECT_NE(message.find("column " + std::to_string(last_sought + 1) + ": a second comma"),
                  std::string::npos)
            << message;
    }
}

// The reader's fast path (fast_float) against std::from_chars on the same
// tokens: random digit strings of 1-25 digits with the point anywhere and
// exponents up to the edges of the range (subnormals, values that round to
// the largest finite or to zero), plus zeros written with exponents. Every
// token std::from_chars reads must read back with the same bits; the file
// (several MB) takes the mapped, two-thread path.
template <class T>
void check_against_std_from_chars(const std::string& file, fb_dtype dtype, int max_exponent) {
    std::mt19937_64 rng(dtype == FB_DTYPE_F64 ? 7 : 8);
    std::string text;
    std::vector<T> expected;
    while (expected.size() < 300000) {
        std::string token = rng() % 2 ? "-" : "";
        const int digits = 1 + static_cast<int>(rng() % 25);
        const int point = static_cast<int>(rng() % static_cast<std::uint64_t>(digits + 1));
        for (int d = 0; d < digits; ++d) {
            if (d == point) token += '.';
            token += static_cast<char>('0' + (expected.size() % 11 == 0 ? 0 : rng() % 10));
        }
        if (rng() % 3 != 0) {
            const auto e =
                static_cast<int>(rng() % static_cast<std::uint64_t>(2 * max_exponent + 1)) - max_exponent;
            token += rng() % 2 ? 'e' : 'E';
            token += std::to_string(e);
        }
        T v;
        auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
        if (ec != std::errc() || ptr != token.data() + token.size()) continue; // out of range
        expected.push_back(v);
        text += token;
        text += expected.size() % 5 == 0 ? ' ' : '\n';
    }
    put_file(file, text);
    auto got = read_values<T>(file, dtype, expected.size(), odd_chunks);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0 && differ++ < 5)
            ADD_FAILURE() << "value " << i << ": " << got[i] << " against " << expected[i];
    EXPECT_EQ(differ, 0u);
}

TEST_F(ascii_test, reader_agrees_with_std_from_chars_bit_for_bit) {
    check_against_std_from_chars<double>(path("d.txt"), FB_DTYPE_F64, 345);
    check_against_std_from_chars<float>(path("f.txt"), FB_DTYPE_F32, 50);
}

// Lossy notations can round the largest finite value up past it (general
// with precision 16 writes DBL_MAX as 1.797693134862316e+308): up to twice
// the maximum reads as the maximum; below the smallest subnormal reads as
// zero (IEEE rounding). Further out is an error (see the corrupt cases).
TEST_F(ascii_test, reader_saturates_rounded_extremes) {
    put_file(path("a.txt"), "1.797693134862316e+308 -2e308 1e-400 -1e-400 3e-324");
    auto v = read_values<double>(path("a.txt"), FB_DTYPE_F64, 5);
    EXPECT_EQ(v[0], std::numeric_limits<double>::max());
    EXPECT_EQ(v[1], std::numeric_limits<double>::lowest());
    EXPECT_TRUE(v[2] == 0 && !std::signbit(v[2]));
    EXPECT_TRUE(v[3] == 0 && std::signbit(v[3]));
    EXPECT_EQ(v[4], std::numeric_limits<double>::denorm_min());
    put_file(path("f.txt"), "3.5e38 1e-50");
    auto f = read_values<float>(path("f.txt"), FB_DTYPE_F32, 2);
    EXPECT_EQ(f[0], std::numeric_limits<float>::max());
    EXPECT_EQ(f[1], 0.0f);
    // The round trip that needs it.
    std::vector<double> extremes = {std::numeric_limits<double>::max(),
                                    std::numeric_limits<double>::lowest()};
    write_values(path("g.txt"), FB_DTYPE_F64, extremes, {{"notation", "general"}, {"precision", "1"}});
    EXPECT_EQ(slurp(path("g.txt")), "2e+308\n-2e+308\n");
    EXPECT_EQ(read_values<double>(path("g.txt"), FB_DTYPE_F64, 2), extremes);
}

TEST_F(ascii_test, reader_fills_exactly_and_ignores_extra_data) {
    put_file(path("a.txt"), "1 2 3 4 garbage");
    auto v = read_values<float>(path("a.txt"), FB_DTYPE_F32, 3, {2, 1});
    EXPECT_EQ(v, (std::vector<float>{1, 2, 3}));
    put_file(path("i.txt"), "+5 -7\t300000,0 0007\n");
    EXPECT_EQ(read_values<std::int32_t>(path("i.txt"), FB_DTYPE_I32, 5),
              (std::vector<std::int32_t>{5, -7, 300000, 0, 7}));
    put_file(path("u.txt"), "0 255 +7");
    EXPECT_EQ(read_values<std::uint8_t>(path("u.txt"), FB_DTYPE_U8, 3),
              (std::vector<std::uint8_t>{0, 255, 7}));
}

// ---- Corrupt input ------------------------------------------------------------------

struct corrupt_case {
    const char* text;
    fb_dtype dtype;
    std::size_t count;
    int status;
    const char* where;   // "line L, column C"
    const char* problem; // part of the message
};

TEST_F(ascii_test, corrupt_input_names_path_line_and_column) {
    const corrupt_case cases[] = {
        {"1.0\n2.0\n  abc\n", FB_DTYPE_F64, 3, FB_E_CORRUPT, "line 3, column 3", "'abc' is not a valid f64"},
        {"1 2\n3 4.5\n", FB_DTYPE_I32, 4, FB_E_CORRUPT, "line 2, column 3", "'4.5' is not a valid i32"},
        {"1\r\n300\r\n", FB_DTYPE_U8, 2, FB_E_CORRUPT, "line 2, column 1", "'300' is out of range for u8"},
        {"5 -1", FB_DTYPE_U8, 2, FB_E_CORRUPT, "line 1, column 3", "'-1' is out of range for u8"},
        {"1 99999999999999999999", FB_DTYPE_I64, 2, FB_E_CORRUPT, "line 1, column 3", "out of range for i64"},
        {"1 2147483648", FB_DTYPE_I32, 2, FB_E_CORRUPT, "line 1, column 3", "out of range for i32"},
        {"\n\n 1e400", FB_DTYPE_F64, 1, FB_E_CORRUPT, "line 3, column 2", "'1e400' is out of range for f64"},
        {"1e39", FB_DTYPE_F32, 1, FB_E_CORRUPT, "line 1, column 1", "out of range for f32"},
        {"1 -1e-99999", FB_DTYPE_F64, 2, FB_E_CORRUPT, "line 1, column 3", "out of range for f64"},
        {"1.5e", FB_DTYPE_F64, 1, FB_E_CORRUPT, "line 1, column 1", "'1.5e' is not a valid"},
        {"1 +-1", FB_DTYPE_F64, 2, FB_E_CORRUPT, "line 1, column 3", "'+-1' is not a valid"},
        {"1 1..2", FB_DTYPE_F64, 2, FB_E_CORRUPT, "line 1, column 3", "not a valid"},
        {"0.5;0.6", FB_DTYPE_F64, 1, FB_E_CORRUPT, "line 1, column 1", "'0.5;0.6' is not a valid"},
        {"12 inf", FB_DTYPE_I64, 2, FB_E_CORRUPT, "line 1, column 4", "'inf' is not a valid i64"},
        {"1\n2\n", FB_DTYPE_F64, 3, FB_E_TRUNCATED, "line 3, column 1", "ends after 2 values, but 3"},
        {"1 2", FB_DTYPE_I32, 3, FB_E_TRUNCATED, "line 1, column 4", "ends after 2 values"},
        {"", FB_DTYPE_U8, 1, FB_E_TRUNCATED, "line 1, column 1", "ends after 0 values"},
    };
    for (const auto& c : cases) {
        put_file(path("bad.txt"), c.text);
        auto [status, message] = read_error(path("bad.txt"), c.dtype, c.count);
        EXPECT_EQ(status, c.status) << c.text << ": " << message;
        EXPECT_NE(message.find(path("bad.txt")), std::string::npos) << message;
        EXPECT_NE(message.find(c.where), std::string::npos) << c.text << ": " << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << c.text << ": " << message;
    }
}

TEST_F(ascii_test, nul_byte_and_overlong_token_are_corrupt) {
    put_file(path("nul.txt"), std::string("1\n2\0\n3\n", 7));
    auto [status, message] = read_error(path("nul.txt"), FB_DTYPE_F64, 3);
    EXPECT_EQ(status, FB_E_CORRUPT);
    EXPECT_NE(message.find("line 2, column 1"), std::string::npos) << message;

    // 600 digits is a fine number for from_chars but longer than any token
    // the reader carries between buffers: rejected wherever it is.
    put_file(path("long.txt"), "1\n" + std::string(600, '1') + "\n");
    std::tie(status, message) = read_error(path("long.txt"), FB_DTYPE_F64, 2);
    EXPECT_EQ(status, FB_E_CORRUPT);
    EXPECT_NE(message.find("line 2, column 1"), std::string::npos) << message;
    EXPECT_NE(message.find("longer than 512"), std::string::npos) << message;
}

// Serves text through a FIFO at path from a thread, as a pipe from another
// program would: a FIFO cannot be mapped, so the reader takes its buffered
// path. The thread waits up to 10 s for the reader to open the FIFO, and
// stops at EPIPE when the reader closes early (SIGPIPE is ignored).
class fifo_feed {
public:
    fifo_feed(std::string path, std::string text) : path_(std::move(path)) {
        std::signal(SIGPIPE, SIG_IGN);
        if (::mkfifo(path_.c_str(), 0600) != 0) throw std::runtime_error("mkfifo " + path_);
        thread_ = std::thread([this, text = std::move(text)] { feed(text); });
    }
    fifo_feed(const fifo_feed&) = delete;
    fifo_feed& operator=(const fifo_feed&) = delete;
    ~fifo_feed() {
        thread_.join();
        ::unlink(path_.c_str());
    }

private:
    void feed(const std::string& text) const {
        int fd = -1;
        for (int i = 0; i < 10000 && fd < 0; ++i) {
            fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK); // ENXIO until a reader opens
            if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (fd < 0) return;
        ::fcntl(fd, F_SETFL, 0); // blocking writes from here on
        const char* p = text.data();
        std::size_t left = text.size();
        while (left > 0) {
            ssize_t w = ::write(fd, p, left);
            if (w <= 0) break;
            p += w;
            left -= static_cast<std::size_t>(w);
        }
        ::close(fd);
    }
    std::string path_;
    std::thread thread_;
};

// Files larger than the reader's 4 MiB rounds and blocks, from a regular
// file (mapped) and from a FIFO (read(2) into a bounded buffer): tokens
// split between two reads, line numbers kept across blocks and halves, and
// no 10 MB token from a file with no separator at all.
TEST_F(ascii_test, large_files_split_tokens_and_far_errors) {
    std::vector<double> v(500000);
    std::string text;
    std::mt19937_64 gen(5);
    std::uniform_real_distribution<double> unit(0, 1);
    for (auto& x : v) {
        x = unit(gen);
        char buf[32];
        text.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
        text += '\n';
    }
    // Corrupt line 400001 (past the first block); "+x" keeps the line's length.
    std::size_t at = 0;
    for (int line = 1; line < 400001; ++line)
        at = text.find('\n', at) + 1;
    std::string bad = text;
    bad[at + 3] = 'x';

    for (bool fifo : {false, true}) {
        SCOPED_TRACE(fifo ? "through a FIFO" : "from a regular file");
        std::list<fifo_feed> feeds; // declared first: joined after the reads
        int serial = 0;
        // A path that yields `t` to one reader.
        auto serve = [&](const std::string& t) {
            std::string p = path((fifo ? "pipe" : "file") + std::to_string(serial++));
            if (fifo)
                feeds.emplace_back(p, t);
            else
                put_file(p, t);
            return p;
        };
        EXPECT_TRUE(bits_equal(read_values<double>(serve(text), FB_DTYPE_F64, v.size()), v));
        EXPECT_TRUE(
            bits_equal(read_values<double>(serve(text), FB_DTYPE_F64, v.size(), {65536, 99999, 1}), v));

        auto [status, message] = read_error(serve(bad), FB_DTYPE_F64, v.size());
        EXPECT_EQ(status, FB_E_CORRUPT);
        EXPECT_NE(message.find("line 400001, column 1"), std::string::npos) << message;
        // Reading only the values before it succeeds.
        EXPECT_NO_THROW(read_values<double>(serve(bad), FB_DTYPE_F64, 400000));

        // Truncated after many blocks.
        std::tie(status, message) = read_error(serve(text), FB_DTYPE_F64, v.size() + 1);
        EXPECT_EQ(status, FB_E_TRUNCATED);
        EXPECT_NE(message.find("line 500001, column 1"), std::string::npos) << message;

        // 10 MB without a separator: an error, not a 10 MB token.
        std::tie(status, message) = read_error(serve(std::string(10 << 20, '7')), FB_DTYPE_F64, 1);
        EXPECT_EQ(status, FB_E_CORRUPT);
        EXPECT_NE(message.find("line 1, column 1"), std::string::npos) << message;

        // Separators only, more than a round's worth and more than the
        // mapped reader unmaps at a time (64 MiB), then the values.
        std::string spaced = std::string(70 << 20, ' ') + "\n\n" + text;
        EXPECT_TRUE(bits_equal(read_values<double>(serve(spaced), FB_DTYPE_F64, v.size()), v));
        std::tie(status, message) = read_error(serve(std::string(9 << 20, ' ')), FB_DTYPE_F64, 1);
        EXPECT_EQ(status, FB_E_TRUNCATED) << message;
    }
}

// A two-thread round is cut into pieces that this thread takes from the
// front and the helper from the back; wherever they meet, a bad token must
// be reported at its own line, and values are copied in file order. Errors
// at lines on both sides of every possible meeting point of the first round
// (~5.7 MB of text: one mapped round of 4 MiB, then the rest).
TEST_F(ascii_test, shared_round_errors_at_every_piece) {
    const std::size_t n = 300000;
    std::vector<double> v(n);
    std::mt19937_64 gen(11);
    std::uniform_real_distribution<double> unit(0, 1);
    for (auto& x : v)
        x = unit(gen);
    write_values(path("a.txt"), FB_DTYPE_F64, v, {});
    const std::string text = slurp(path("a.txt"));
    std::vector<std::size_t> line_start{0}; // line_start[k]: offset of line k + 1
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') line_start.push_back(i + 1);
    ASSERT_EQ(line_start.size(), n + 1);
    // Pieces of the first round are ~131 KiB (~6800 lines), of the second
    // ~64 KiB (~3400 lines): every 3001st line falls in each of them.
    for (std::size_t line = 1; line <= n; line += line < 20 ? 1 : 3001) {
        std::string bad = text;
        bad[line_start[line - 1] + 2] = 'z'; // "0.z...": column 1
        put_file(path("b.txt"), bad);
        auto [status, message] = read_error(path("b.txt"), FB_DTYPE_F64, n);
        EXPECT_EQ(status, FB_E_CORRUPT) << "line " << line;
        EXPECT_NE(message.find("line " + std::to_string(line) + ", column 1:"), std::string::npos)
            << "line " << line << ": " << message;
    }
    // Reads that end inside the helper's pieces, then go on from there.
    for (std::size_t first : {std::size_t{65536}, std::size_t{150001}, std::size_t{220000}}) {
        auto r = ascii().open_read(path("a.txt"), FB_DTYPE_F64, n, {});
        std::vector<double> out(n);
        r->read(out.data(), first);
        r->read(out.data() + first, n - first);
        r->close();
        EXPECT_TRUE(bits_equal(out, v)) << "first read of " << first;
    }
}

// Short tokens: a round of 4 MiB holds ~1.2 million u8 values, more than the
// helper's scratch takes (262144); this thread parses what it leaves.
TEST_F(ascii_test, shared_round_of_short_tokens_overflows_scratch) {
    std::vector<std::uint8_t> v(3000000);
    std::mt19937 gen(3);
    for (auto& x : v)
        x = static_cast<std::uint8_t>(gen());
    write_values(path("u.txt"), FB_DTYPE_U8, v, {});
    EXPECT_EQ(read_values<std::uint8_t>(path("u.txt"), FB_DTYPE_U8, v.size()), v);
    EXPECT_EQ(read_values<std::uint8_t>(path("u.txt"), FB_DTYPE_U8, v.size(), {1000003, 7, 500000}), v);
    // A bad value near the end of the first round, in what the helper left.
    std::string text = slurp(path("u.txt"));
    std::size_t at = text.find('\n', (std::size_t{4} << 20) - 5000) + 1;
    std::size_t line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
    text.insert(at, "256\n");
    put_file(path("bad.txt"), text);
    auto [status, message] = read_error_as<std::uint8_t>(path("bad.txt"), FB_DTYPE_U8, v.size());
    EXPECT_EQ(status, FB_E_CORRUPT);
    EXPECT_NE(message.find("line " + std::to_string(line) + ", column 1: '256' is out of range for u8"),
              std::string::npos)
        << message;
}

TEST_F(ascii_test, error_columns_with_values_per_line) {
    std::vector<std::int64_t> v(300000, 123);
    write_values(path("a.txt"), FB_DTYPE_I64, v, {{"values_per_line", "4"}, {"separator", ", "}});
    std::string text = slurp(path("a.txt"));
    ASSERT_EQ(text.substr(0, 19), "123, 123, 123, 123\n");
    // Line 70000, third value: columns 1, 6, 11, 16.
    text[69999 * 19 + 10] = '#';
    put_file(path("b.txt"), text);
    auto [status, message] = read_error_as<std::int64_t>(path("b.txt"), FB_DTYPE_I64, v.size());
    EXPECT_EQ(status, FB_E_CORRUPT);
    EXPECT_NE(message.find("line 70000, column 11"), std::string::npos) << message;
}

// ---- I/O errors ----------------------------------------------------------------------

TEST_F(ascii_test, full_device_is_an_io_error) {
    // A small write fits the buffer: the error must come at close, not be lost.
    {
        auto w = ascii().open_write("/dev/full", FB_DTYPE_F64, 10, {});
        std::vector<double> v(10, 0.5);
        w->write(v.data(), v.size());
        try {
            w->close();
            ADD_FAILURE() << "close on /dev/full succeeded";
        } catch (const plugin_error& e) {
            EXPECT_EQ(e.status(), FB_E_IO);
            EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(std::strerror(ENOSPC)), std::string::npos) << e.what();
        }
    }
    // A large write fails in write itself.
    auto w = ascii().open_write("/dev/full", FB_DTYPE_F64, 1000000, {});
    std::vector<double> v(1000000, 0.25);
    try {
        w->write(v.data(), v.size());
        ADD_FAILURE() << "write of 1e6 values to /dev/full succeeded";
    } catch (const plugin_error& e) {
        EXPECT_EQ(e.status(), FB_E_IO);
        EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
    }
    EXPECT_THROW(w->close(), plugin_error); // still failing, and the stream is freed
}

TEST_F(ascii_test, open_failures_name_the_path_and_leave_nothing) {
    std::string missing = path("no/such/folder/a.txt");
    try {
        ascii().open_write(missing, FB_DTYPE_F64, 1, {});
        ADD_FAILURE() << "open_write in a missing folder succeeded";
    } catch (const plugin_error& e) {
        EXPECT_EQ(e.status(), FB_E_IO);
        EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(missing));
    auto [status, message] = read_error(path("absent.txt"), FB_DTYPE_F64, 1);
    EXPECT_EQ(status, FB_E_IO);
    EXPECT_NE(message.find(path("absent.txt")), std::string::npos) << message;
}

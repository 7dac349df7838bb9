// Tests of the fortran plugin through the core registry, against a
// standalone gfortran program (reference_io.f90, built beside this test):
// round trips of every dtype and mode; the plugin's files byte for byte
// against the program's; the program's files (records, subrecords,
// list-directed lines) read back through the plugin and through a study's
// from_file; record markers against bytes written by hand; and errors
// (bad formats, unwritable paths, devices, truncated, garbage and lost
// output) as statuses with messages, never a stopped process.
#include "base/error.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using formatbench::option_list;
using formatbench::plugin_error;
using bytes = std::vector<unsigned char>;

namespace {

const formatbench::plugin& fortran() {
    static formatbench::registry reg;
    static const formatbench::plugin* p = [] {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        return &reg.get("fortran");
    }();
    return *p;
}

class fortran_test : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("fb_fortran_" + std::to_string(::getpid()) + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    fs::path dir_;
};

std::size_t esize(fb_dtype d) {
    return fb_dtype_size(d);
}

const char* dname(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f64";
    case FB_DTYPE_F32: return "f32";
    case FB_DTYPE_I64: return "i64";
    case FB_DTYPE_I32: return "i32";
    default: return "u8";
    }
}

constexpr fb_dtype all_dtypes[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I64, FB_DTYPE_I32};

bytes slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void put_file(const std::string& path, const bytes& b) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

void put_text(const std::string& path, const std::string& text) {
    put_file(path, bytes(text.begin(), text.end()));
}

template <class T>
void append(bytes& out, T v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), p, p + sizeof v);
}

// n values of a dtype: the edges of its range first (zeros of both signs,
// subnormals, the extremes, infinities, a NaN, short and long decimals),
// then random bit patterns (any finite value, some NaNs) and values in
// [0, 1) as random_number gives them.
bytes make_values(fb_dtype d, std::size_t n, unsigned seed = 1) {
    std::mt19937_64 rng(seed);
    bytes out;
    if (d == FB_DTYPE_F64) {
        using L = std::numeric_limits<double>;
        const double edges[] = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                L::denorm_min(),
                                -L::denorm_min(),
                                L::min(),
                                L::max(),
                                L::lowest(),
                                0.1,
                                1.0 / 3,
                                1e300,
                                1e-300,
                                -1e-20,
                                123456.789,
                                L::infinity(),
                                -L::infinity(),
                                L::quiet_NaN(),
                                0.5,
                                2.5e-308,
                                9.999999999999999e22};
        for (double v : edges)
            if (out.size() < n * 8) append(out, v);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        while (out.size() < n * 8)
            append(out, rng() % 2 ? std::bit_cast<double>(rng()) : u(rng));
    } else if (d == FB_DTYPE_F32) {
        using L = std::numeric_limits<float>;
        const float edges[] = {
            0.0f,     -0.0f,    1.0f,          -1.0f,          L::denorm_min(), -L::denorm_min(),
            L::min(), L::max(), L::lowest(),   0.1f,           1.0f / 3,        1e30f,
            1e-30f,   -1e-20f,  L::infinity(), -L::infinity(), L::quiet_NaN(),  0.5f};
        for (float v : edges)
            if (out.size() < n * 4) append(out, v);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        while (out.size() < n * 4)
            append(out, rng() % 2 ? std::bit_cast<float>(static_cast<std::uint32_t>(rng())) : u(rng));
    } else if (d == FB_DTYPE_I64) {
        using L = std::numeric_limits<std::int64_t>;
        const std::int64_t edges[] = {0, 1, -1, L::max(), L::min(), 1000000007, -42};
        for (std::int64_t v : edges)
            if (out.size() < n * 8) append(out, v);
        while (out.size() < n * 8)
            append(out, static_cast<std::int64_t>(rng() >> (rng() % 64)) * (rng() % 2 ? 1 : -1));
    } else {
        using L = std::numeric_limits<std::int32_t>;
        const std::int32_t edges[] = {0, 1, -1, L::max(), L::min(), 65536, -42};
        for (std::int32_t v : edges)
            if (out.size() < n * 4) append(out, v);
        while (out.size() < n * 4)
            append(out, static_cast<std::int32_t>(rng() >> (32 + rng() % 32)) * (rng() % 2 ? 1 : -1));
    }
    return out;
}

// Values a and b of dtype d (same length) compared bit for bit, except that
// any NaN matches any NaN (text keeps no payload; the ABI allows it). ""
// when equal, else the first difference.
std::string value_difference(fb_dtype d, const bytes& a, const bytes& b) {
    if (a.size() != b.size())
        return "sizes differ: " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " bytes";
    const std::size_t s = esize(d);
    for (std::size_t i = 0; i < a.size() / s; ++i) {
        if (std::memcmp(&a[i * s], &b[i * s], s) == 0) continue;
        std::ostringstream m;
        m.precision(17);
        if (d == FB_DTYPE_F64) {
            double x, y;
            std::memcpy(&x, &a[i * s], 8);
            std::memcpy(&y, &b[i * s], 8);
            if (std::isnan(x) && std::isnan(y)) continue;
            m << "value " << i << ": " << x << " against " << y;
        } else if (d == FB_DTYPE_F32) {
            float x, y;
            std::memcpy(&x, &a[i * s], 4);
            std::memcpy(&y, &b[i * s], 4);
            if (std::isnan(x) && std::isnan(y)) continue;
            m << "value " << i << ": " << x << " against " << y;
        } else {
            m << "value " << i << " differs";
        }
        return m.str();
    }
    return "";
}

// "" when a and b are equal, else where they first differ, with the text
// around it (files may be megabytes: never the whole of them).
std::string byte_difference(const bytes& a, const bytes& b) {
    std::size_t n = std::min(a.size(), b.size()), i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    if (i == n && a.size() == b.size()) return "";
    auto around = [i](const bytes& x) {
        std::size_t from = i >= 20 ? i - 20 : 0, to = std::min(x.size(), i + 20);
        std::string s;
        for (std::size_t k = from; k < to; ++k)
            s += std::isprint(x[k]) ? static_cast<char>(x[k]) : '.';
        return s;
    };
    return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
           ", first difference at byte " + std::to_string(i) + ": '" + around(a) + "' against '" + around(b) +
           "'";
}

// Writes values through the plugin, in chunks of the given sizes (cycled;
// none: one call).
void plugin_write(const std::string& path, fb_dtype d, const bytes& values, const option_list& options,
                  const std::vector<std::size_t>& chunks = {}) {
    const std::size_t n = values.size() / esize(d);
    auto w = fortran().open_write(path, d, n, options);
    for (std::size_t i = 0, k = 0; i < n;) {
        std::size_t c = chunks.empty() ? n : std::min(chunks[k++ % chunks.size()], n - i);
        w->write(values.data() + i * esize(d), c);
        i += c;
    }
    w->close();
}

bytes plugin_read(const std::string& path, fb_dtype d, std::size_t n, const option_list& options,
                  const std::vector<std::size_t>& chunks = {}) {
    bytes out(n * esize(d));
    auto r = fortran().open_read(path, d, n, options);
    for (std::size_t i = 0, k = 0; i < n;) {
        std::size_t c = chunks.empty() ? n : std::min(chunks[k++ % chunks.size()], n - i);
        r->read(out.data() + i * esize(d), c);
        i += c;
    }
    r->close();
    return out;
}

// The status and message of a failed call, FB_OK if it did not fail.
template <class Fn>
std::pair<int, std::string> failure_of(Fn&& fn) {
    try {
        fn();
    } catch (const plugin_error& e) {
        return {e.status(), e.what()};
    }
    return {FB_OK, ""};
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs a program with arguments; its exit status, and its output in *out.
int run(const std::string& program, const std::vector<std::string>& args, std::string* out = nullptr) {
    std::string command = quoted(program);
    for (const auto& a : args)
        command.append(" ").append(quoted(a)); // not " " + ...: GCC 12's false -Wrestrict
    command += " 2>&1";
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return -1;
    std::string text;
    char buf[4096];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;)
        text.append(buf, got);
    int status = ::pclose(p);
    if (out) *out = text;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The standalone gfortran program: writes `values` (raw bytes at raw_path)
// to `file` in the given mode, one statement (per 0) or statements of per.
struct fortran_mode {
    std::string form = "unformatted", access = "stream", format = "*";
    std::size_t per = 0;
};

void reference_write(const std::string& program, const fortran_mode& m, fb_dtype d, const bytes& values,
                     const std::string& raw_path, const std::string& file) {
    put_file(raw_path, values);
    std::string out;
    int rc = run(program,
                 {"write", m.form, m.access, m.format, dname(d), std::to_string(values.size() / esize(d)),
                  std::to_string(m.per), raw_path, file},
                 &out);
    ASSERT_EQ(rc, 0) << "reference_io write failed: " << out;
}

// The plugin's options for a mode.
option_list options_of(const fortran_mode& m, std::size_t per) {
    return {{"form", m.form},
            {"access", m.access},
            {"format", m.format},
            {"values_per_statement", std::to_string(per)}};
}

} // namespace

// ---- Descriptor ---------------------------------------------------------------

TEST(fortran_descriptor, identity_options_and_losslessness) {
    const auto& p = fortran();
    EXPECT_EQ(p.id(), "fortran");
    EXPECT_EQ(p.dtypes(), FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) |
                              FB_DTYPE_BIT(FB_DTYPE_I64) | FB_DTYPE_BIT(FB_DTYPE_I32));
    std::vector<std::string> names;
    for (const auto& o : p.options())
        names.push_back(o.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"form", "access", "format", "read_format", "values_per_statement"}));
    auto lossless = [&](const option_list& o) { return p.is_lossless(o, FB_DTYPE_F64); };
    EXPECT_TRUE(lossless({}));
    EXPECT_TRUE(lossless({{"access", "sequential"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}})); // (g0)
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "*"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "(es24.16e3)"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "( 3ES25.16E3 )"}}));
    // Three fields of the widest value's width touch: list-directed reads
    // "...E+308-1.7...E+308" as one token; the same format reads them.
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(3es24.16e3)"}}));
    EXPECT_TRUE(
        lossless({{"form", "formatted"}, {"format", "(3es24.16e3)"}, {"read_format", "(3es24.16e3)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(4g0)"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "(es23.16)"}})); // "-9.8813129168249309-321"
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "(e25.17e3)"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "(d24.17)"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "(i20)"}}));
    EXPECT_TRUE(lossless({{"form", "formatted"}, {"format", "(es24.16e3)"}, {"read_format", "(es24.16e3)"}}));
    // Too few digits, too narrow, too short an exponent, or F.
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(f0.16)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(es24.15e3)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(es23.16e3)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(es24.16e2)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(e24.16e3)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(i19)"}}));
    EXPECT_FALSE(lossless({{"form", "formatted"}, {"format", "(g0.5)"}}));
    // Another read format than the write format reads other fields.
    EXPECT_FALSE(
        lossless({{"form", "formatted"}, {"format", "(es24.16e3)"}, {"read_format", "(es30.16e3)"}}));
}

// ---- Round trips ---------------------------------------------------------------

// Every option set that claims to be lossless reads back bit-exact (a NaN as
// some NaN) with any chunk sizes on either side: records of one value, or
// statements of a fixed number of values.
TEST_F(fortran_test, lossless_option_sets_round_trip_bit_exact) {
    struct set {
        option_list options;
        bool reals_only;
    };
    const set sets[] = {
        {{}, false},
        {{{"access", "sequential"}}, false},
        {{{"access", "sequential"}, {"values_per_statement", "7"}}, false},
        {{{"values_per_statement", "1000"}}, false},
        {{{"form", "formatted"}}, false},
        {{{"form", "formatted"}, {"access", "sequential"}}, false},
        {{{"form", "formatted"}, {"format", "*"}, {"values_per_statement", "5"}}, false},
        {{{"form", "formatted"}, {"format", "*"}, {"access", "sequential"}, {"values_per_statement", "1"}},
         false},
        {{{"form", "formatted"}, {"format", "(es24.16e3)"}}, true},
        {{{"form", "formatted"}, {"format", "(es24.16e3)"}, {"read_format", "(es24.16e3)"}}, true},
        {{{"form", "formatted"}, {"format", "(es23.16)"}}, true},
        {{{"form", "formatted"}, {"format", "(3e26.17e3)"}, {"values_per_statement", "6"}}, true},
        {{{"form", "formatted"},
          {"format", "(3e25.17e3)"},
          {"read_format", "(3e25.17e3)"},
          {"values_per_statement", "6"}},
         true},
    };
    const std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> chunkings = {
        {{}, {}}, {{7}, {3}}, {{1000, 1, 2}, {}}, {{}, {333, 1}}};
    for (const auto& s : sets) {
        for (fb_dtype d : all_dtypes) {
            if (s.reals_only && (d == FB_DTYPE_I64 || d == FB_DTYPE_I32)) continue;
            ASSERT_TRUE(fortran().is_lossless(s.options, d));
            bytes values = make_values(d, 2000, static_cast<unsigned>(d));
            for (const auto& [w, r] : chunkings) {
                std::ostringstream what;
                what << dname(d) << " chunks " << w.size() << "/" << r.size() << " options";
                for (const auto& [k, v] : s.options)
                    what << " " << k << "=" << v;
                SCOPED_TRACE(what.str());
                plugin_write(path("a.dat"), d, values, s.options, w);
                EXPECT_EQ(value_difference(d, plugin_read(path("a.dat"), d, 2000, s.options, r), values), "");
            }
        }
    }
}

// The rule of formatted reads: a read statement skips the rest of the
// record it ends in. List-directed records of 7 values read by statements
// of 3 lose values; the reader must then fail, not hand back other values.
TEST_F(fortran_test, statements_that_split_records_fail_instead_of_reading_other_values) {
    bytes values = make_values(FB_DTYPE_F64, 70);
    option_list opts = {{"form", "formatted"}, {"format", "*"}};
    plugin_write(path("a.txt"), FB_DTYPE_F64, values, opts, {7});
    auto [status, message] = failure_of([&] { plugin_read(path("a.txt"), FB_DTYPE_F64, 70, opts, {3}); });
    EXPECT_EQ(status, FB_E_TRUNCATED) << message;
    EXPECT_NE(message.find("skips the rest of the"), std::string::npos) << message;
    // With the statements of the writer it reads back.
    EXPECT_EQ(value_difference(FB_DTYPE_F64, plugin_read(path("a.txt"), FB_DTYPE_F64, 70, opts, {7}), values),
              "");
}

// ---- Against the standalone gfortran program --------------------------------------

// The plugin's files are byte for byte the files the same statements write
// in a standalone program: (f0.16) as the reference program writes it, the
// other edit descriptors, list-directed, unformatted stream and sequential
// (record markers), in one statement or statements of N values whatever
// the plugin's chunks.
TEST_F(fortran_test, files_match_a_gfortran_program_byte_for_byte) {
    struct match_case {
        fortran_mode mode;
        std::vector<fb_dtype> dtypes;
        std::vector<std::size_t> chunks; // the plugin's; per 0 needs one call
    };
    const std::vector<fb_dtype> reals = {FB_DTYPE_F64, FB_DTYPE_F32};
    const std::vector<fb_dtype> all(std::begin(all_dtypes), std::end(all_dtypes));
    const match_case cases[] = {
        {{"formatted", "sequential", "(f0.16)", 0}, reals, {}},
        {{"formatted", "stream", "(f0.16)", 0}, reals, {}},
        {{"formatted", "sequential", "(f0.16)", 1}, reals, {999, 1}},
        {{"formatted", "sequential", "(es24.16e3)", 0}, reals, {}},
        {{"formatted", "sequential", "(es12.4)", 0}, reals, {}},
        {{"formatted", "sequential", "(d26.17)", 0}, reals, {}},
        {{"formatted", "sequential", "(g0)", 0}, all, {}},
        {{"formatted", "sequential", "(4g0)", 0}, all, {}},
        {{"formatted", "sequential", "*", 0}, all, {}},
        {{"formatted", "sequential", "*", 5}, all, {3, 1000}},
        {{"formatted", "sequential", "(i0)", 0}, {FB_DTYPE_I64, FB_DTYPE_I32}, {}},
        {{"unformatted", "stream", "*", 0}, all, {}},
        {{"unformatted", "stream", "*", 0}, all, {1, 777}},
        {{"unformatted", "sequential", "*", 0}, all, {}},
        {{"unformatted", "sequential", "*", 7}, all, {3, 1000, 1}},
    };
    for (const auto& c : cases)
        for (fb_dtype d : c.dtypes) {
            SCOPED_TRACE(c.mode.form + " " + c.mode.access + " " + c.mode.format + " per " +
                         std::to_string(c.mode.per) + " " + dname(d));
            bytes values = make_values(d, 1500, 3);
            reference_write(FB_REFERENCE_IO, c.mode, d, values, path("values.raw"), path("gfortran.dat"));
            plugin_write(path("plugin.dat"), d, values, options_of(c.mode, c.mode.per), c.chunks);
            EXPECT_EQ(byte_difference(slurp(path("plugin.dat")), slurp(path("gfortran.dat"))), "");
        }
}

// Files the standalone program writes read back through the plugin, with
// chunk sizes that end nowhere near the program's records: bit-exact for
// the lossless layouts, within the 16 decimals for (f0.16) (the reference
// program printed maxval(x - xchk) = 5.55e-17 for values in [0, 1)).
TEST_F(fortran_test, gfortran_files_read_back_through_the_plugin) {
    const std::vector<std::size_t> odd = {3, 1000, 1, 4096};
    struct read_case {
        const char* program;
        fortran_mode mode;
        option_list options;
    };
    const read_case cases[] = {
        {FB_REFERENCE_IO, {"unformatted", "stream", "*", 0}, {}},
        {FB_REFERENCE_IO, {"unformatted", "sequential", "*", 0}, {{"access", "sequential"}}},
        {FB_REFERENCE_IO, {"unformatted", "sequential", "*", 7}, {{"access", "sequential"}}},
        // Records of 2000 x 8 bytes split into 16-byte subrecords.
        {FB_REFERENCE_IO_SUBRECORDS, {"unformatted", "sequential", "*", 0}, {{"access", "sequential"}}},
        {FB_REFERENCE_IO_SUBRECORDS, {"unformatted", "sequential", "*", 5}, {{"access", "sequential"}}},
        {FB_REFERENCE_IO, {"formatted", "sequential", "(g0)", 0}, {{"form", "formatted"}}},
        {FB_REFERENCE_IO,
         {"formatted", "sequential", "*", 5},
         {{"form", "formatted"}, {"values_per_statement", "5"}}},
        {FB_REFERENCE_IO,
         {"formatted", "sequential", "(es24.16e3)", 0},
         {{"form", "formatted"}, {"read_format", "(es24.16e3)"}}},
    };
    for (const auto& c : cases)
        for (fb_dtype d : all_dtypes) {
            if (c.mode.format[0] == '(' && c.mode.format != "(g0)" &&
                (d == FB_DTYPE_I64 || d == FB_DTYPE_I32))
                continue;
            SCOPED_TRACE(std::string(c.program) + " " + c.mode.form + " " + c.mode.access + " " +
                         c.mode.format + " per " + std::to_string(c.mode.per) + " " + dname(d));
            bytes values = make_values(d, 2000, 5);
            reference_write(c.program, c.mode, d, values, path("values.raw"), path("gfortran.dat"));
            EXPECT_EQ(value_difference(d, plugin_read(path("gfortran.dat"), d, 2000, c.options, odd), values),
                      "");
        }
    // The seed's own layout: (f0.16), read list-directed, within its loss.
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> x(100000);
    for (double& v : x)
        v = u(rng);
    bytes values(reinterpret_cast<const unsigned char*>(x.data()),
                 reinterpret_cast<const unsigned char*>(x.data() + x.size()));
    reference_write(FB_REFERENCE_IO, {"formatted", "sequential", "(f0.16)", 0}, FB_DTYPE_F64, values,
                    path("values.raw"), path("f016.txt"));
    bytes back = plugin_read(path("f016.txt"), FB_DTYPE_F64, x.size(), {{"form", "formatted"}}, odd);
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        double y;
        std::memcpy(&y, &back[i * 8], 8);
        worst = std::max(worst, std::abs(y - x[i]));
    }
    EXPECT_LE(worst, 5.56e-17);
    EXPECT_GT(worst, 0.0) << "(f0.16) keeps 16 decimals: some values must have moved";
}

// The same files through a study's from_file dataset, end to end: the CLI
// reads the program's file with the fortran plugin and writes the values
// with raw; raw's file must hold the program's values.
TEST_F(fortran_test, from_file_reads_gfortran_files_in_a_study) {
    bytes values = make_values(FB_DTYPE_F64, 5000, 11);
    reference_write(FB_REFERENCE_IO_SUBRECORDS, {"unformatted", "sequential", "*", 333}, FB_DTYPE_F64, values,
                    path("values.raw"), path("records.dat"));
    reference_write(FB_REFERENCE_IO, {"formatted", "sequential", "(es24.16e3)", 0}, FB_DTYPE_F64, values,
                    path("values.raw"), path("es.txt"));
    std::ofstream(path("study.yaml"))
        << "name: fortran-files\n"
           "defaults: {repeat: 1, warmup: 0}\n"
           "datasets:\n"
           "  - {from_file: {path: records.dat, plugin: fortran, options: {access: sequential}}, dtype: f64, "
           "count: 5000}\n"
           "  - {from_file: {path: es.txt, plugin: fortran, options: {form: formatted}}, dtype: f64, "
           "count: 5000}\n"
           "formats: [raw]\n"
           "directory: "
        << path("run") << "\nkeep_files: true\n";
    fs::create_directories(path("run"));
    std::string out;
    ASSERT_EQ(run(FB_FORMATBENCH, {"run", path("study.yaml")}, &out), 0) << out;
    for (const char* name : {"case-0000-raw.raw", "case-0001-raw.raw"})
        EXPECT_EQ(value_difference(FB_DTYPE_F64, slurp(path("run/") + name), values), "") << name;
}

// ---- Record markers ------------------------------------------------------------

TEST_F(fortran_test, sequential_record_markers_are_gfortrans) {
    // i32 1, 2, 3 in statements of 2, handed over one value at a time.
    std::vector<std::int32_t> v = {1, 2, 3};
    bytes raw(reinterpret_cast<unsigned char*>(v.data()), reinterpret_cast<unsigned char*>(v.data() + 3));
    plugin_write(path("a.dat"), FB_DTYPE_I32, raw, {{"access", "sequential"}, {"values_per_statement", "2"}},
                 {1});
    const bytes expected = {8, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0, // record of 8 bytes
                            4, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};            // the rest, 4 bytes
    EXPECT_EQ(byte_difference(slurp(path("a.dat")), expected), "");
    // f64 0.5 and -2 in one record: 16, the IEEE bytes, 16.
    std::vector<double> f = {0.5, -2.0};
    plugin_write(
        path("b.dat"), FB_DTYPE_F64,
        bytes(reinterpret_cast<unsigned char*>(f.data()), reinterpret_cast<unsigned char*>(f.data() + 2)),
        {{"access", "sequential"}});
    const bytes expected_f = {16, 0, 0, 0, 0, 0, 0, 0,    0,  0, 0xe0, 0x3f,
                              0,  0, 0, 0, 0, 0, 0, 0xc0, 16, 0, 0,    0};
    EXPECT_EQ(byte_difference(slurp(path("b.dat")), expected_f), "");
}

TEST_F(fortran_test, subrecords_written_by_hand_read_back_and_bad_markers_are_errors) {
    auto record_file = [&](std::initializer_list<std::int32_t> words) {
        bytes b;
        for (std::int32_t w : words)
            append(b, w);
        put_file(path("r.dat"), b);
    };
    option_list seq = {{"access", "sequential"}};
    // One record of 1, 2, 3 in two subrecords (-8 ... 8, 4 ... -4), then an
    // empty record, then a record of 4.
    record_file({-8, 1, 2, 8, 4, 3, -4, 0, 0, 4, 4, 4});
    for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {1}, {3, 1}}) {
        bytes back = plugin_read(path("r.dat"), FB_DTYPE_I32, 4, seq, chunks);
        std::vector<std::int32_t> got(4);
        std::memcpy(got.data(), back.data(), 16);
        EXPECT_EQ(got, (std::vector<std::int32_t>{1, 2, 3, 4}));
    }
    struct bad_case {
        std::initializer_list<std::int32_t> words;
        int status;
        const char* problem;
    };
    const bad_case bad[] = {
        {{8, 1, 2, 4}, FB_E_CORRUPT, "do not match"},             // trailing marker differs
        {{-8, 1, 2, -8, 4, 3, -4}, FB_E_CORRUPT, "do not match"}, // a first subrecord with a negative tail
        {{8, 1, 2, 8, 400, 3, 400}, FB_E_TRUNCATED, "says 400 bytes"}, // longer than the file
        {{8, 1, 2, 8, INT32_MIN, 3}, FB_E_CORRUPT, "-2^31"},
        {{8, 1, 2, 8, 4, 3}, FB_E_TRUNCATED, "says 4 bytes"}, // cut before the trailing marker
        {{8, 1, 2, 8}, FB_E_TRUNCATED, "ends in"},            // fewer values than asked for
        {{12, 1, 2}, FB_E_TRUNCATED, "says 12 bytes"},
    };
    for (const auto& c : bad) {
        record_file(c.words);
        auto [status, message] = failure_of([&] { plugin_read(path("r.dat"), FB_DTYPE_I32, 3, seq); });
        EXPECT_EQ(status, c.status) << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << message;
        EXPECT_NE(message.find(path("r.dat")), std::string::npos) << message;
    }
}

// ---- Errors ---------------------------------------------------------------------

TEST_F(fortran_test, bad_formats_are_invalid_options_and_leave_nothing) {
    struct format_case {
        fb_dtype dtype;
        option_list options;
        const char* problem; // the runtime's words
    };
    const format_case cases[] = {
        {FB_DTYPE_F64, {{"form", "formatted"}, {"format", "(f0.16"}}, "Unexpected"},
        {FB_DTYPE_F64, {{"form", "formatted"}, {"format", "f0.16"}}, "left parenthesis"},
        {FB_DTYPE_F64, {{"form", "formatted"}, {"format", "(i5)"}}, "Expected INTEGER"},
        {FB_DTYPE_I32, {{"form", "formatted"}, {"format", "(f0.16)"}}, "Expected REAL"},
        {FB_DTYPE_F64, {{"form", "formatted"}, {"format", "(es24.16e3, q)"}}, "format"},
        {FB_DTYPE_F64, {{"form", "formatted"}, {"format", " "}}, "empty"},
        {FB_DTYPE_F64, {{"form", "formatted"}, {"read_format", ""}}, "empty"},
    };
    for (const auto& c : cases) {
        auto [status, message] =
            failure_of([&] { fortran().open_write(path("a.txt"), c.dtype, 10, c.options); });
        EXPECT_EQ(status, FB_E_INVALID_OPTION) << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << message;
        EXPECT_FALSE(fs::exists(path("a.txt"))) << message;
    }
    // A format that cannot read (F0 and G0 have no width for input).
    put_text(path("b.txt"), "0.5\n");
    for (const char* f : {"(f0.16)", "(g0)"}) {
        auto [status, message] = failure_of([&] {
            plugin_read(path("b.txt"), FB_DTYPE_F64, 1, {{"form", "formatted"}, {"read_format", f}});
        });
        EXPECT_EQ(status, FB_E_INVALID_OPTION) << message;
        EXPECT_NE(message.find("read_format"), std::string::npos) << message;
        EXPECT_NE(message.find("width"), std::string::npos) << message;
    }
}

TEST_F(fortran_test, unwritable_paths_and_devices_are_refused) {
    bytes values = make_values(FB_DTYPE_F64, 10);
    put_text(path("file"), "x");
    for (const std::string& p : {path("no/such/dir/a.dat"), path("file/a.dat")}) {
        auto [status, message] = failure_of([&] { plugin_write(p, FB_DTYPE_F64, values, {}); });
        EXPECT_EQ(status, FB_E_IO) << message;
        EXPECT_NE(message.find(p), std::string::npos) << message;
    }
    EXPECT_FALSE(fs::exists(path("no")));
    // A full device: refused before anything is written, and left in place.
    std::string device = path("full");
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) device = "/dev/full";
    for (const char* form : {"formatted", "unformatted"}) {
        auto [status, message] = failure_of([&] {
            plugin_write(device, FB_DTYPE_F64, values, {{"form", form}});
        });
        EXPECT_EQ(status, FB_E_UNSUPPORTED) << message;
        EXPECT_NE(message.find("not a regular file"), std::string::npos) << message;
        struct stat st {};
        EXPECT_TRUE(::lstat(device.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) << "the device is gone";
    }
    // Paths with trailing blanks name another file in Fortran.
    auto [status, message] = failure_of([&] { plugin_write(path("a.dat "), FB_DTYPE_F64, values, {}); });
    EXPECT_EQ(status, FB_E_UNSUPPORTED) << message;
}

// gfortran 12 returns iostat 0 from write, flush and close when the system
// refuses buffered output. A file size limit (RLIMIT_FSIZE, with SIGXFSZ
// ignored) makes write(2) fail with EFBIG on a regular file; the plugin must
// report the lost output. In a child, so that the limit stays there.
TEST_F(fortran_test, output_the_runtime_drops_is_reported) {
    struct lost_case {
        option_list options;
        std::vector<std::size_t> chunks;
    };
    const lost_case cases[] = {
        {{{"form", "formatted"}, {"format", "(f0.16)"}}, {}},
        {{{"form", "formatted"}, {"format", "*"}, {"values_per_statement", "10"}}, {}},
        {{}, {100}}, // unformatted, in the runtime's buffer until close
        {{{"access", "sequential"}}, {100}},
    };
    for (const auto& c : cases) {
        const std::string file = path("limited.dat");
        fs::remove(file);
        pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            std::signal(SIGXFSZ, SIG_IGN);
            struct rlimit limit {
                64 * 1024, 64 * 1024
            };
            ::setrlimit(RLIMIT_FSIZE, &limit);
            int code = 0;
            try {
                plugin_write(file, FB_DTYPE_F64, make_values(FB_DTYPE_F64, 20000), c.options, c.chunks);
                code = 1; // no error: the loss went unnoticed
            } catch (const plugin_error& e) {
                bool named = std::string(e.what()).find(file) != std::string::npos;
                code = e.status() == FB_E_IO && named ? 0 : 2;
                if (code) std::fprintf(stderr, "%s\n", e.what());
            }
            ::_exit(code);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        ASSERT_TRUE(WIFEXITED(status)) << "the writer died";
        EXPECT_EQ(WEXITSTATUS(status), 0)
            << "1: lost output not reported, 2: wrong status or message (" << c.options.size() << " options)";
    }
}

TEST_F(fortran_test, truncated_missing_and_garbage_files_are_errors) {
    bytes values = make_values(FB_DTYPE_F64, 1000);
    // Unformatted stream: the size says it at open.
    plugin_write(path("s.dat"), FB_DTYPE_F64, values, {});
    fs::resize_file(path("s.dat"), 4000);
    auto [s1, m1] = failure_of([&] { plugin_read(path("s.dat"), FB_DTYPE_F64, 1000, {}); });
    EXPECT_EQ(s1, FB_E_TRUNCATED) << m1;
    // Sequential, cut in the middle of the record.
    plugin_write(path("q.dat"), FB_DTYPE_F64, values, {{"access", "sequential"}});
    fs::resize_file(path("q.dat"), 5000);
    auto [s2, m2] = failure_of([&] {
        plugin_read(path("q.dat"), FB_DTYPE_F64, 1000, {{"access", "sequential"}});
    });
    EXPECT_EQ(s2, FB_E_TRUNCATED) << m2;
    // Formatted: fewer values than asked for.
    option_list text = {{"form", "formatted"}};
    plugin_write(path("t.txt"), FB_DTYPE_F64, values, text);
    auto [s3, m3] = failure_of([&] { plugin_read(path("t.txt"), FB_DTYPE_F64, 1001, text, {600}); });
    EXPECT_EQ(s3, FB_E_TRUNCATED) << m3;
    EXPECT_NE(m3.find("values 601..1001"), std::string::npos) << m3;
    // Text that is no number, a number too large for the dtype.
    struct garbage {
        const char* text;
        fb_dtype dtype;
        const char* problem;
    };
    const garbage cases[] = {
        {"0.5\n0.25\nabc\n", FB_DTYPE_F64, "Bad real number"},
        {"1\n2\n3.5\n", FB_DTYPE_I32, "Bad integer"},
        {"1\n99999999999999999999\n3\n", FB_DTYPE_I64, "overflow"},
        {"1\n3000000000\n3\n", FB_DTYPE_I32, "overflow"},
    };
    for (const auto& c : cases) {
        put_text(path("g.txt"), c.text);
        auto [status, message] = failure_of([&] {
            bytes out(3 * 8);
            auto r = fortran().open_read(path("g.txt"), c.dtype, 3, text);
            r->read(out.data(), 3);
        });
        EXPECT_EQ(status, FB_E_CORRUPT) << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << message;
        EXPECT_NE(message.find(path("g.txt")), std::string::npos) << message;
    }
    // Missing file, a directory.
    for (const std::string& p : {path("missing.dat"), dir_.string()}) {
        auto [status, message] = failure_of([&] { plugin_read(p, FB_DTYPE_F64, 1, {}); });
        EXPECT_EQ(status, FB_E_IO) << message;
        EXPECT_NE(message.find(p), std::string::npos) << message;
    }
}

TEST_F(fortran_test, calls_after_close_or_failure_are_refused) {
    bytes values = make_values(FB_DTYPE_F64, 4);
    auto w = fortran().open_write(path("a.dat"), FB_DTYPE_F64, 4, {});
    w->write(values.data(), 4);
    w->close();
    auto [status, message] = failure_of([&] { w->write(values.data(), 1); });
    EXPECT_EQ(status, FB_E_STATE) << message;
    auto r = fortran().open_read(path("a.dat"), FB_DTYPE_F64, 4, {});
    r->close();
    bytes out(8);
    auto [rs, rm] = failure_of([&] { r->read(out.data(), 1); });
    EXPECT_EQ(rs, FB_E_STATE) << rm;
}

// ---- Several streams --------------------------------------------------------------

// Units are process-global in the runtime: streams open at the same time,
// and streams on two threads, must not see each other.
TEST_F(fortran_test, streams_are_independent_also_on_two_threads) {
    bytes a = make_values(FB_DTYPE_F64, 3000, 1), b = make_values(FB_DTYPE_I32, 3000, 2);
    option_list text = {{"form", "formatted"}, {"format", "(es24.16e3)"}};
    option_list seq = {{"access", "sequential"}, {"values_per_statement", "100"}};
    {
        auto wa = fortran().open_write(path("a.txt"), FB_DTYPE_F64, 3000, text);
        auto wb = fortran().open_write(path("b.dat"), FB_DTYPE_I32, 3000, seq);
        for (std::size_t i = 0; i < 3000; i += 250) {
            wa->write(a.data() + i * 8, 250);
            wb->write(b.data() + i * 4, 250);
        }
        wa->close();
        wb->close();
        auto ra = fortran().open_read(path("a.txt"), FB_DTYPE_F64, 3000, text);
        auto rb = fortran().open_read(path("b.dat"), FB_DTYPE_I32, 3000, seq);
        bytes ba(a.size()), bb(b.size());
        for (std::size_t i = 0; i < 3000; i += 300) {
            rb->read(bb.data() + i * 4, 300);
            ra->read(ba.data() + i * 8, 300);
        }
        ra->close();
        rb->close();
        EXPECT_EQ(value_difference(FB_DTYPE_F64, ba, a), "");
        EXPECT_EQ(value_difference(FB_DTYPE_I32, bb, b), "");
    }
    std::string result[2];
    auto work = [&](int k) {
        for (int round = 0; round < 20 && result[k].empty(); ++round) {
            std::string file = path(k == 0 ? "t0.dat" : "t1.dat");
            const bytes& v = k == 0 ? a : b;
            fb_dtype d = k == 0 ? FB_DTYPE_F64 : FB_DTYPE_I32;
            const option_list& o = k == 0 ? text : seq;
            try {
                plugin_write(file, d, v, o, {97});
                result[k] = value_difference(d, plugin_read(file, d, 3000, o, {101}), v);
            } catch (const std::exception& e) {
                result[k] = e.what();
            }
        }
    };
    std::thread t0(work, 0), t1(work, 1);
    t0.join();
    t1.join();
    EXPECT_EQ(result[0], "");
    EXPECT_EQ(result[1], "");
}

// The ascii plugin against gfortran itself. gfortran_io.f90 is compiled with
// gfortran when the test runs (no gfortran: exit 77, SKIP) and is the
// reference: every form gfortran's list-directed read accepts for reals and
// integers (exponents without their letter, d/D/q/Q, repeat counts, commas,
// CRLF, Inf/NaN spellings), written by hand or by gfortran's own formats,
// reads through the ascii reader to the bits gfortran's read gives; the
// null values and slashes gfortran accepts are refused with a clear error;
// and the writer set up as (f0.16) with nonfinite=fortran writes gfortran's
// (f0.16) file byte for byte, infinities and NaN included.
#include "base/error.hpp"
#include "host/registry.hpp"
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cmath>
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
#include <vector>

namespace fs = std::filesystem;
using formatbench::option_list;
using formatbench::plugin_error;
using bytes = std::vector<unsigned char>;

namespace {

fs::path work_dir;   // a temporary folder for the whole run
std::string gf_tool; // gfortran_io, compiled in work_dir

const formatbench::plugin& ascii() {
    static formatbench::registry reg;
    static const formatbench::plugin* p = [] {
        reg.load_directories({FB_TEST_PLUGIN_DIR});
        return &reg.get("ascii");
    }();
    return *p;
}

std::string path(const std::string& name) {
    return (work_dir / name).string();
}

bytes slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void put_file(const std::string& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs a command line; its exit status (-1 if it did not exit), output in *out.
int run(const std::vector<std::string>& argv, std::string* out = nullptr) {
    std::string command;
    for (const auto& a : argv)
        command.append(quoted(a)).append(" ");
    command += "2>&1";
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

std::size_t esize(fb_dtype d) {
    return fb_dtype_size(d);
}

const char* dname(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64: return "f64";
    case FB_DTYPE_F32: return "f32";
    case FB_DTYPE_I64: return "i64";
    default: return "i32";
    }
}

// gfortran's list-directed read of n values of d from a text file: the
// values' bytes, or "" in *error with the runtime's message.
bytes gfortran_read(const std::string& text_file, fb_dtype d, std::size_t n, std::string* error) {
    std::string out;
    int rc = run({gf_tool, "read", dname(d), std::to_string(n), text_file, path("gfortran.raw")}, &out);
    if (rc != 0) {
        *error = "gfortran's read failed (" + std::to_string(rc) + "): " + out;
        return {};
    }
    error->clear();
    return slurp(path("gfortran.raw"));
}

// gfortran writes n values of d (f64 or f32) with a format (or *).
void gfortran_write(const bytes& values, fb_dtype d, const std::string& format,
                    const std::string& text_file) {
    std::ofstream(path("values.raw"), std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size()));
    std::string out;
    ASSERT_EQ(run({gf_tool, "write", dname(d), std::to_string(values.size() / esize(d)), path("values.raw"),
                   text_file, format},
                  &out),
              0)
        << out;
}

bytes ascii_read(const std::string& p, fb_dtype d, std::size_t n, const std::vector<std::size_t>& chunks) {
    bytes out(n * esize(d));
    auto r = ascii().open_read(p, d, n, {});
    for (std::size_t i = 0, k = 0; i < n;) {
        std::size_t c = chunks.empty() ? n : std::min(chunks[k++ % chunks.size()], n - i);
        r->read(out.data() + i * esize(d), c);
        i += c;
    }
    r->close();
    return out;
}

// Whether the ascii reader's x stands for gfortran's y: the same bits, any
// NaN for any NaN (the two parsers need not agree on a NaN's payload or
// sign), and, where `saturated` counts them, the largest finite value for
// gfortran's infinity of the same sign: a number above the largest finite
// value, up to twice it, reads as that value in the ascii reader (lossy
// notations round the largest value up: (es12.4) writes it 1.7977+308),
// where gfortran rounds it to infinity.
template <class T>
bool same_value(T x, T y, std::size_t* saturated) {
    if (std::memcmp(&x, &y, sizeof x) == 0 || (std::isnan(x) && std::isnan(y))) return true;
    if (saturated && std::isinf(y) && std::abs(x) == std::numeric_limits<T>::max() &&
        std::signbit(x) == std::signbit(y)) {
        ++*saturated;
        return true;
    }
    return false;
}

// "" if a (the ascii reader's) and b (gfortran's) hold the same values (see
// same_value), else the first difference.
std::string value_difference(fb_dtype d, const bytes& a, const bytes& b, std::size_t* saturated = nullptr) {
    if (a.size() != b.size()) return "sizes differ";
    const std::size_t s = esize(d);
    for (std::size_t i = 0; i < a.size() / s; ++i) {
        if (std::memcmp(&a[i * s], &b[i * s], s) == 0) continue;
        std::ostringstream m;
        m.precision(17);
        if (d == FB_DTYPE_F64) {
            double x, y;
            std::memcpy(&x, &a[i * s], 8);
            std::memcpy(&y, &b[i * s], 8);
            if (same_value(x, y, saturated)) continue;
            m << "value " << i << ": " << x << " against gfortran's " << y;
        } else if (d == FB_DTYPE_F32) {
            float x, y;
            std::memcpy(&x, &a[i * s], 4);
            std::memcpy(&y, &b[i * s], 4);
            if (same_value(x, y, saturated)) continue;
            m << "value " << i << ": " << x << " against gfortran's " << y;
        } else if (d == FB_DTYPE_I64) {
            std::int64_t x, y;
            std::memcpy(&x, &a[i * s], 8);
            std::memcpy(&y, &b[i * s], 8);
            m << "value " << i << ": " << x << " against gfortran's " << y;
        } else {
            std::int32_t x, y;
            std::memcpy(&x, &a[i * s], 4);
            std::memcpy(&y, &b[i * s], 4);
            m << "value " << i << ": " << x << " against gfortran's " << y;
        }
        return m.str();
    }
    return "";
}

template <class T>
void append(bytes& out, T v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), p, p + sizeof v);
}

// f64 values for the writers: the edges (zeros, subnormals, extremes,
// infinities, NaNs of both signs, ties at the 16th decimal, values that
// round to zero in (f0.16)), then random bit patterns, values in [0, 1) as
// random_number gives them, and values of every magnitude up to 10^6.
bytes f64_values(std::size_t random_bits, std::size_t uniform, std::size_t wide) {
    using L = std::numeric_limits<double>;
    bytes out;
    for (double v : {0.0,
                     -0.0,
                     -0.25,
                     1.5,
                     123456.5,
                     1e-20,
                     -1e-20,
                     L::denorm_min(),
                     -L::denorm_min(),
                     L::min(),
                     1e300,
                     -1e300,
                     L::max(),
                     L::lowest(),
                     L::infinity(),
                     -L::infinity(),
                     L::quiet_NaN(),
                     -L::quiet_NaN(),
                     0.1,
                     1.0 / 3,
                     0.9999999999999999,
                     0.99999999999999999,
                     9.5,
                     -7.0})
        append(out, v);
    for (int k = 17; k <= 40; ++k) // 2^-k: exact ties at the 16th decimal for some k
        append(out, std::ldexp(1.0, -k));
    std::mt19937_64 rng(21);
    for (std::size_t i = 0; i < random_bits; ++i)
        append(out, std::bit_cast<double>(rng()));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (std::size_t i = 0; i < uniform; ++i)
        append(out, u(rng));
    for (std::size_t i = 0; i < wide; ++i)
        append(out, (rng() % 2 ? -1.0 : 1.0) * std::pow(10.0, u(rng) * 26 - 20));
    return out;
}

bytes to_f32(const bytes& f64) {
    bytes out;
    for (std::size_t i = 0; i < f64.size(); i += 8) {
        double x;
        std::memcpy(&x, &f64[i], 8);
        append(out, static_cast<float>(x));
    }
    return out;
}

} // namespace

// Hand-written text in every form of Fortran's list-directed input, read by
// gfortran and by the ascii reader (whole, one value per call, and odd
// chunks): the same bits.
TEST(ascii_gfortran, every_list_directed_form_reads_as_gfortran_reads_it) {
    struct form_case {
        const char* text;
        fb_dtype dtype;
        std::size_t count;
    };
    const form_case cases[] = {
        // Exponents without their letter, as (es12.4) and (d26.17) write them.
        {"1.0+300 -1.0-300 0.49406564584124654-323 2.5-1 7+0 1+3 .5-2 -5.+1 0.17976931348623157+309",
         FB_DTYPE_F64, 9},
        // Exponent letters.
        {"1.5d3 2.5D-1 1q2 1Q-2 -3.25d+002 .5D0 5.Q1 1e5 1E-5 1.0e+003 2.5E+0", FB_DTYPE_F64, 11},
        // Repeat counts, alone and beside commas and other values.
        {"3*2.5 2*-1.0d0, 1*7 4*1.0+300\n5*0 2*+.5,1*1q1", FB_DTYPE_F64, 18},
        // Commas: with blanks around them, at the end of a line, before a
        // value at the start of the next line (the line end is a blank).
        {"1,2 , 3,\n4 ,5\n,6\t7,\t8\n\n9 ,\n 10", FB_DTYPE_F64, 10},
        // CRLF line ends, tabs, signs.
        {"1.5\r\n-2.5\r\n+.25\t-0\r\n+1.5e+1\r\n", FB_DTYPE_F64, 5},
        // Infinities and NaN in gfortran's and C's spellings.
        {"Inf -Inf NaN Infinity -Infinity +Inf nan inf INF -inf nan(123) NAN", FB_DTYPE_F64, 12},
        // binary32: the same forms, and values at its edges.
        {"1.0+30 3.4028235+38 1.4-45 2*0.1 1q1 -1.17549435-38 2*3.d0", FB_DTYPE_F32, 9},
        // Integers: the full ranges, signs, repeat counts, commas.
        {"-9223372036854775808 9223372036854775807 3*7, +5 -0 2*-3\r\n0", FB_DTYPE_I64, 10},
        {"2147483647 -2147483648 4*1,\n2 +8", FB_DTYPE_I32, 8},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.text);
        put_file(path("forms.txt"), c.text);
        std::string error;
        bytes expected = gfortran_read(path("forms.txt"), c.dtype, c.count, &error);
        ASSERT_EQ(error, "");
        for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {1}, {2, 3}}) {
            bytes got;
            try {
                got = ascii_read(path("forms.txt"), c.dtype, c.count, chunks);
            } catch (const plugin_error& e) {
                ADD_FAILURE() << "chunks " << chunks.size() << ": " << e.what();
                continue;
            }
            EXPECT_EQ(value_difference(c.dtype, got, expected), "") << "chunks " << chunks.size();
        }
    }
}

// Files gfortran writes with its own formats (list-directed, (es12.4) and
// (d26.17) with their letterless exponents, (es24.16e3), (g0), (f0.16)
// with Inf and NaN) read through the ascii reader to the bits gfortran's
// read gives, in chunks that cross the two-thread pieces.
TEST(ascii_gfortran, files_gfortran_writes_read_as_gfortran_reads_them) {
    const bytes f64 = f64_values(20000, 60000, 20000);
    const bytes f32 = to_f32(f64);
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32}) {
        const bytes& values = d == FB_DTYPE_F64 ? f64 : f32;
        const std::size_t n = values.size() / esize(d);
        for (const char* format : {"*", "(es12.4)", "(d26.17)", "(es24.16e3)", "(g0)", "(f0.16)"}) {
            SCOPED_TRACE(std::string(dname(d)) + " " + format);
            gfortran_write(values, d, format, path("g.txt"));
            std::string error;
            bytes expected = gfortran_read(path("g.txt"), d, n, &error);
            ASSERT_EQ(error, "");
            for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {65536, 7, 33333}}) {
                std::size_t saturated = 0;
                try {
                    EXPECT_EQ(
                        value_difference(d, ascii_read(path("g.txt"), d, n, chunks), expected, &saturated),
                        "");
                } catch (const plugin_error& e) {
                    ADD_FAILURE() << e.what();
                }
                // Only where (es12.4)'s five digits round the largest finite
                // f64 value up ("1.7977+308", "-1.7977+308").
                EXPECT_EQ(saturated, d == FB_DTYPE_F64 && std::string(format) == "(es12.4)" ? 2u : 0u);
            }
        }
    }
}

// The forms gfortran reads as null values (the variable keeps its old
// value) or as the end of the input (a slash): gfortran's read succeeds,
// the ascii reader has no value to give and says so, with line and column.
TEST(ascii_gfortran, null_values_and_slashes_are_refused) {
    struct refusal {
        const char* text;
        const char* where;
        const char* problem;
    };
    const refusal cases[] = {
        {"1.0,,2.0 3 4", "line 1, column 5", "null value"},
        {",1 2 3 4", "line 1, column 1", "null value"},
        {"1 , ,2 3 4", "line 1, column 5", "null value"},
        {"1,\n,2 3 4", "line 2, column 1", "null value"},
        {"3* 1", "line 1, column 1", "'3*', a repeat count"},
        {"1 2 3\n2*", "line 2, column 1", "null value"},
        {"1 2 / 3 4", "line 1, column 5", "a slash ends"},
        {"1 2 3/", "line 1, column 5", "a slash ends"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.text);
        put_file(path("null.txt"), std::string(c.text) + "\n");
        std::string error;
        gfortran_read(path("null.txt"), FB_DTYPE_F64, 4, &error);
        EXPECT_EQ(error, "") << "gfortran reads this (a null value or the end of the input)";
        for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {1}}) {
            try {
                ascii_read(path("null.txt"), FB_DTYPE_F64, 4, chunks);
                ADD_FAILURE() << "the ascii reader read it";
            } catch (const plugin_error& e) {
                std::string m = e.what();
                EXPECT_EQ(e.status(), FB_E_CORRUPT) << m;
                EXPECT_NE(m.find(c.where), std::string::npos) << m;
                EXPECT_NE(m.find(c.problem), std::string::npos) << m;
                EXPECT_NE(m.find(path("null.txt")), std::string::npos) << m;
            }
        }
    }
}

// The writer set up as (f0.16) (fixed, 16 decimals, no leading zero) with
// nonfinite=fortran writes gfortran's (f0.16) file byte for byte: zero,
// negative zero, negative values, values >= 1 up to the largest finite,
// tiny values, ties at the 16th decimal, Inf, -Inf and NaN; f64 and f32,
// in one call and in odd chunks (two-thread blocks included).
TEST(ascii_gfortran, fixed16_with_fortran_nonfinite_is_gfortrans_f0_16_byte_for_byte) {
    const bytes f64 = f64_values(3000, 100000, 30000);
    const bytes f32 = to_f32(f64);
    const option_list f016 = {
        {"notation", "fixed"}, {"precision", "16"}, {"leading_zero", "false"}, {"nonfinite", "fortran"}};
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32}) {
        const bytes& values = d == FB_DTYPE_F64 ? f64 : f32;
        const std::size_t n = values.size() / esize(d);
        gfortran_write(values, d, "(f0.16)", path("gfortran.txt"));
        const bytes expected = slurp(path("gfortran.txt"));
        for (const std::vector<std::size_t>& chunks : {std::vector<std::size_t>{}, {1, 70001, 3}}) {
            auto w = ascii().open_write(path("ascii.txt"), d, n, f016);
            for (std::size_t i = 0, k = 0; i < n;) {
                std::size_t c = chunks.empty() ? n : std::min(chunks[k++ % chunks.size()], n - i);
                w->write(values.data() + i * esize(d), c);
                i += c;
            }
            w->close();
            const bytes got = slurp(path("ascii.txt"));
            std::size_t at = 0;
            while (at < got.size() && at < expected.size() && got[at] == expected[at])
                ++at;
            EXPECT_TRUE(got == expected)
                << dname(d) << ", chunks " << chunks.size() << ": " << got.size()
                << " bytes against gfortran's " << expected.size() << ", first difference at byte " << at
                << ": '"
                << std::string(got.begin() + static_cast<long>(at),
                               got.begin() + static_cast<long>(std::min(got.size(), at + 30)))
                << "' against '"
                << std::string(expected.begin() + static_cast<long>(at),
                               expected.begin() + static_cast<long>(std::min(expected.size(), at + 30)))
                << "'";
        }
    }
    // C's spelling is the default: the same file then differs in the
    // non-finite lines only.
    gfortran_write(f64, FB_DTYPE_F64, "(f0.16)", path("gfortran.txt"));
    auto w = ascii().open_write(path("c.txt"), FB_DTYPE_F64, f64.size() / 8,
                                {{"notation", "fixed"}, {"precision", "16"}, {"leading_zero", "false"}});
    w->write(f64.data(), f64.size() / 8);
    w->close();
    const bytes c_text = slurp(path("c.txt"));
    std::istringstream a(std::string(c_text.begin(), c_text.end()));
    std::ifstream g(path("gfortran.txt"));
    std::size_t differ = 0;
    for (std::string x, y; std::getline(a, x) && std::getline(g, y);)
        if (x != y) {
            ++differ;
            EXPECT_TRUE(x == "inf" || x == "-inf" || x == "nan" || x == "-nan") << x << " against " << y;
        }
    EXPECT_EQ(differ, 4u); // Inf, -Inf and the two NaNs
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const std::string gfortran = FB_GFORTRAN;
    if (gfortran.empty() || ::access(gfortran.c_str(), X_OK) != 0) {
        std::printf("SKIP: gfortran was not found when the build was configured (apt-get install gfortran); "
                    "the ascii plugin's gfortran comparisons did not run\n");
        return 77;
    }
    work_dir = fs::temp_directory_path() / ("fb_ascii_gfortran_" + std::to_string(::getpid()));
    fs::remove_all(work_dir);
    fs::create_directories(work_dir);
    gf_tool = (work_dir / "gfortran_io").string();
    std::string out;
    if (run({gfortran, "-O1", "-o", gf_tool, FB_GFORTRAN_IO_SOURCE}, &out) != 0) {
        std::printf("gfortran could not compile %s:\n%s\n", FB_GFORTRAN_IO_SOURCE, out.c_str());
        fs::remove_all(work_dir);
        return 1;
    }
    int rc = RUN_ALL_TESTS();
    fs::remove_all(work_dir);
    return rc;
}

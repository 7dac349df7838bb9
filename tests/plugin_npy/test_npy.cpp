// Tests of the npy plugin through the core registry: the bytes it writes
// against headers written out by hand here (magic, version, header length,
// the dict, padding to 64, the final '\n', the data in the chosen byte
// order), round trips of every dtype, version, byte order and chunking,
// files made by hand that it must accept (other key orders, quotes,
// whitespace, N-d shapes, Fortran order where it changes nothing, versions
// 2.0 and 3.0, big-endian data) or refuse with the right status and a
// message naming the path, truncation at every byte, and the zero-copy view;
// the shape in the header, random access (read-at, read-box) and direct
// reads of files made by hand here (random_access_checks.hpp, shared with
// raw and mmap). numpy itself is in test_npy_numpy.cpp.
#include "plugin_test.hpp"
#include "random_access_checks.hpp"

#include <cerrno>

namespace {

using namespace plugin_test;

const std::string id = "npy";

std::string le16(unsigned v) {
    return {static_cast<char>(v & 0xff), static_cast<char>(v >> 8)};
}
std::string le32(std::uint32_t v) {
    return le16(v & 0xffff) + le16(v >> 16);
}

// A .npy file made by hand: magic, version, length, header text as given
// (no padding added), then data.
std::string npy_file(const std::string& header, const std::string& data = "", int major = 1) {
    std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
    out += major == 1 ? le16(static_cast<unsigned>(header.size()))
                      : le32(static_cast<std::uint32_t>(header.size()));
    return out + header + data;
}

std::string doubles(std::initializer_list<double> v) {
    std::string s(v.size() * 8, '\0');
    std::memcpy(s.data(), std::data(v), s.size());
    return s;
}

// Each 8-byte element of s with its bytes reversed.
std::string swap8(std::string s) {
    for (std::size_t i = 0; i + 8 <= s.size(); i += 8)
        std::reverse(s.begin() + static_cast<long>(i), s.begin() + static_cast<long>(i + 8));
    return s;
}

std::string to_string(const bytes& b) {
    return std::string(b.begin(), b.end());
}

// ---- The bytes written -------------------------------------------------------

TEST(NpyWriter, HeaderLayoutVersion1ByHand) {
    temp_dir dir;
    std::string path = dir / "a.npy";
    double v[3] = {1.0, -2.5, 3.0};
    write_array(id, path, FB_DTYPE_F64,
                bytes(reinterpret_cast<unsigned char*>(v), reinterpret_cast<unsigned char*>(v) + 24));
    std::string f = to_string(file_bytes(path));
    ASSERT_EQ(f.size(), 128u + 24);
    EXPECT_EQ(f.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8)) << "magic and version 1.0";
    EXPECT_EQ(f.substr(8, 2), std::string("\x76\x00", 2)) << "header length 118: 10 + 118 = 128";
    EXPECT_EQ(f.substr(10, 57), "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }");
    EXPECT_EQ(f.substr(67, 60), std::string(60, ' ')) << "numpy's 20 growth spaces and 40 of padding";
    EXPECT_EQ(f[127], '\n');
    // The data at 128, little-endian IEEE binary64, written out by hand.
    const unsigned char want[24] = {0, 0, 0,    0,    0, 0, 0xf0, 0x3f, 0, 0, 0,    0,
                                    0, 0, 0x04, 0xc0, 0, 0, 0,    0,    0, 0, 0x08, 0x40};
    EXPECT_EQ(std::memcmp(f.data() + 128, want, 24), 0);
}

TEST(NpyWriter, HeaderLayoutVersions2And3ByHand) {
    for (const char* version : {"2", "3"}) {
        temp_dir dir;
        std::string path = dir / "a.npy";
        write_array(id, path, FB_DTYPE_U8, bytes{7, 8}, {{"version", version}});
        std::string f = to_string(file_bytes(path));
        ASSERT_EQ(f.size(), 130u) << version;
        EXPECT_EQ(f.substr(0, 8), std::string("\x93NUMPY", 6) + char(version[0] - '0') + '\0');
        EXPECT_EQ(f.substr(8, 4), std::string("\x74\x00\x00\x00", 4)) << "4-byte length 116: 12 + 116 = 128";
        EXPECT_EQ(f.substr(12, 57), "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }");
        EXPECT_EQ(f.substr(69, 58), std::string(58, ' '));
        EXPECT_EQ(f[127], '\n');
        EXPECT_EQ(f.substr(128), std::string("\x07\x08"));
    }
}

TEST(NpyWriter, BigEndianDescrAndBytes) {
    temp_dir dir;
    std::string path = dir / "a.npy";
    std::int32_t v[2] = {0x01020304, -2};
    write_array(id, path, FB_DTYPE_I32,
                bytes(reinterpret_cast<unsigned char*>(v), reinterpret_cast<unsigned char*>(v) + 8),
                {{"byte_order", "big"}});
    std::string f = to_string(file_bytes(path));
    ASSERT_EQ(f.size(), 136u);
    EXPECT_EQ(f.substr(10, 57), "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }");
    EXPECT_EQ(f.substr(128), std::string("\x01\x02\x03\x04\xff\xff\xff\xfe", 8));
    // little is '<' whatever the machine.
    write_array(id, path, FB_DTYPE_I32,
                bytes(reinterpret_cast<unsigned char*>(v), reinterpret_cast<unsigned char*>(v) + 8),
                {{"byte_order", "little"}});
    f = to_string(file_bytes(path));
    EXPECT_EQ(f.substr(10, 15), "{'descr': '<i4'");
    EXPECT_EQ(f.substr(128), std::string("\x04\x03\x02\x01\xfe\xff\xff\xff", 8));
}

TEST(NpyWriter, DescrOfEveryDtype) {
    const std::pair<fb_dtype, const char*> want[] = {{FB_DTYPE_F64, "'<f8'"},
                                                     {FB_DTYPE_F32, "'<f4'"},
                                                     {FB_DTYPE_I64, "'<i8'"},
                                                     {FB_DTYPE_I32, "'<i4'"},
                                                     {FB_DTYPE_U8, "'|u1'"}};
    temp_dir dir;
    for (auto [d, descr] : want) {
        write_array(id, dir / "a.npy", d, make_data(d, 5), {{"byte_order", "little"}});
        std::string f = to_string(file_bytes(dir / "a.npy"));
        EXPECT_EQ(f.substr(10, 16), std::string("{'descr': ") + descr + ",") << formatbench::dtype_name(d);
        EXPECT_EQ(f.size(), 128 + 5 * esize(d));
    }
}

TEST(NpyWriter, UnknownCountGivesTheSameFileAsAKnownOne) {
    temp_dir dir;
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{9}, std::size_t{10}, std::size_t{123456}}) {
        bytes data = make_data(FB_DTYPE_F32, n);
        write_array(id, dir / "known.npy", FB_DTYPE_F32, data, {}, 1000);
        write_array(id, dir / "unknown.npy", FB_DTYPE_F32, data, {}, 1000, true);
        EXPECT_EQ(file_bytes(dir / "known.npy"), file_bytes(dir / "unknown.npy")) << "n=" << n;
        std::string f = to_string(file_bytes(dir / "unknown.npy"));
        EXPECT_EQ(f.substr(60, std::to_string(n).size() + 3), "(" + std::to_string(n) + ",)") << "n=" << n;
    }
}

TEST(NpyWriter, LongestCountStillFitsTheHeader) {
    // The header is the same length for any count, up to 20 digits.
    temp_dir dir;
    auto w = plugin(id).open_write(dir / "a.npy", FB_DTYPE_U8, 0, {});
    w->close();
    EXPECT_EQ(file_bytes(dir / "a.npy").size(), 128u);
}

// ---- Round trips -------------------------------------------------------------

TEST(NpyRoundTrip, EveryDtypeVersionByteOrderAndChunking) {
    temp_dir dir;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* version : {"auto", "1", "2", "3"})
            for (const char* order : {"native", "little", "big"})
                for (auto [wc, rc] : {std::pair<std::size_t, std::size_t>{0, 0}, {1, 7}, {4097, 1000}}) {
                    SCOPED_TRACE(testing::Message()
                                 << formatbench::dtype_name(d) << " version=" << version
                                 << " byte_order=" << order << " chunks " << wc << "/" << rc);
                    std::size_t n = wc == 1 ? 3001 : 20011;
                    bytes data = make_data(d, n);
                    option_list o = {{"version", version}, {"byte_order", order}};
                    write_array(id, dir / "a.npy", d, data, o, wc);
                    bytes back = read_array(id, dir / "a.npy", d, n, {}, rc);
                    ASSERT_EQ(first_difference(back, data, esize(d)), "");
                }
}

TEST(NpyRoundTrip, EmptyArray) {
    temp_dir dir;
    write_array(id, dir / "a.npy", FB_DTYPE_F64, {});
    auto r = plugin(id).open_read(dir / "a.npy", FB_DTYPE_F64, 0, {});
    r->read(nullptr, 0);
    r->close();
}

TEST(NpyRoundTrip, ReadWithUnknownCountTakesTheShape) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I64, 100);
    write_array(id, dir / "a.npy", FB_DTYPE_I64, data);
    bytes back(data.size());
    auto r = plugin(id).open_read(dir / "a.npy", FB_DTYPE_I64, FB_COUNT_UNKNOWN, {});
    r->read(back.data(), 100);
    EXPECT_EQ(status_of([&] { r->read(back.data(), 1); }), FB_E_TRUNCATED) << "past the shape";
    r->close();
    EXPECT_EQ(back, data);
}

TEST(NpyRoundTrip, ZeroCopyViewInPlaceOrDeclined) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F64, 1000);
    write_array(id, dir / "a.npy", FB_DTYPE_F64, data);
    auto r = plugin(id).open_read(dir / "a.npy", FB_DTYPE_F64, 1000, {});
    const void* v = r->view(1000);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v) % 64, 0u) << "the data starts at a multiple of 64";
    EXPECT_EQ(std::memcmp(v, data.data(), data.size()), 0);
    r->close();
    write_array(id, dir / "b.npy", FB_DTYPE_F64, data, {{"byte_order", "big"}});
    auto b = plugin(id).open_read(dir / "b.npy", FB_DTYPE_F64, 1000, {});
    std::string message;
    EXPECT_EQ(status_of([&] { b->view(1000); }, &message), FB_E_UNSUPPORTED) << "another byte order";
    EXPECT_NE(message.find("byte order"), std::string::npos) << message;
    b->close();
}

// ---- Files made by hand that the reader accepts ---------------------------------

struct accepted_case {
    const char* what;
    std::string file;
    fb_dtype dtype;
    std::size_t count;
    std::string values; // the elements in this machine's order
};

TEST(NpyReader, AcceptsWhatNumpyAccepts) {
    const std::string two = doubles({1.5, -2.0});
    const std::string two_be = swap8(two);
    const std::string six = doubles({1, 2, 3, 4, 5, 6});
    const std::vector<accepted_case> cases = {
        {"numpy's own layout", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", two),
         FB_DTYPE_F64, 2, two},
        {"keys in another order, double quotes, no trailing comma, no padding",
         npy_file("{\"shape\": (2,), \"descr\": \"<f8\", \"fortran_order\": False}\n", two), FB_DTYPE_F64, 2,
         two},
        {"whitespace and newlines between tokens",
         npy_file("{ 'descr' :'<f8' ,\n\t'fortran_order':False,'shape':( 2 , ) ,\r\n}   \n", two),
         FB_DTYPE_F64, 2, two},
        {"big-endian data", npy_file("{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }\n", two_be),
         FB_DTYPE_F64, 2, two},
        {"'=' is this machine's order",
         npy_file("{'descr': '=f8', 'fortran_order': False, 'shape': (2,), }\n", two), FB_DTYPE_F64, 2, two},
        {"'|' for one byte, and a bare code",
         npy_file("{'descr': 'u1', 'fortran_order': False, 'shape': (3,)}\n", "abc"), FB_DTYPE_U8, 3, "abc"},
        {"a C-order 2-D array reads flat",
         npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n", six), FB_DTYPE_F64, 6,
         six},
        {"a trailing comma in a 2-tuple",
         npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2,), }\n", six), FB_DTYPE_F64, 6,
         six},
        {"a 0-d array holds one element",
         npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n", two.substr(0, 8)),
         FB_DTYPE_F64, 1, two.substr(0, 8)},
        {"Fortran order, 1-D: the same order",
         npy_file("{'descr': '<f8', 'fortran_order': True, 'shape': (2,), }\n", two), FB_DTYPE_F64, 2, two},
        {"Fortran order, one axis longer than 1",
         npy_file("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 2, 1), }\n", two), FB_DTYPE_F64, 2,
         two},
        {"Python 2 long literals",
         npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2L,), }\n", two), FB_DTYPE_F64, 2, two},
        {"version 2.0", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", two, 2),
         FB_DTYPE_F64, 2, two},
        {"version 3.0", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", two, 3),
         FB_DTYPE_F64, 2, two},
        {"a header of 200000 bytes (version 2.0)",
         npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }" + std::string(200000, ' ') +
                      "\n",
                  two, 2),
         FB_DTYPE_F64, 2, two},
        {"bytes after the array (numpy.load reads the first array of a file)",
         npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n", two + "more"), FB_DTYPE_F64,
         2, two},
    };
    temp_dir dir;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        put_file(dir / "in.npy", c.file);
        bytes back;
        std::string message;
        ASSERT_EQ(
            status_of([&] { back = read_array(id, dir / "in.npy", c.dtype, c.count, {}, 1); }, &message),
            FB_OK)
            << message;
        EXPECT_EQ(to_string(back), c.values);
    }
}

// ---- Files the reader refuses ----------------------------------------------------

struct refused_case {
    const char* what;
    std::string file;
    int status;
    const char* message; // a part of the expected message
    std::size_t count = 2;
    fb_dtype dtype = FB_DTYPE_F64;
};

std::string with_shape(const std::string& shape, const std::string& descr = "'<f8'",
                       const std::string& fortran = "False") {
    return npy_file("{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n",
                    doubles({1, 2}));
}

TEST(NpyReader, RefusesWithTheRightStatusAndThePath) {
    const std::string good = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n";
    std::string huge_length = std::string("\x93NUMPY\x02\x00", 8) + le32(2u << 20) + std::string(64, ' ');
    std::vector<refused_case> cases = {
        {"an empty file", "", FB_E_TRUNCATED, "the file is empty"},
        {"bad magic", "\x93NUMPX" + std::string(200, ' '), FB_E_CORRUPT, "no .npy magic"},
        {"text", "not a numpy file at all", FB_E_CORRUPT, "no .npy magic"},
        {"cut in the magic", "\x93NUM", FB_E_TRUNCATED, "ends inside the magic"},
        {"cut in the length", std::string("\x93NUMPY\x01\x00\x76", 9), FB_E_TRUNCATED,
         "ends inside the header length"},
        {"version 4.0", npy_file(good, doubles({1, 2}), 4), FB_E_UNSUPPORTED, "format version 4.0"},
        {"version 1.1",
         [&] {
             std::string f = npy_file(good, doubles({1, 2}));
             f[7] = 1;
             return f;
         }(),
         FB_E_UNSUPPORTED, "format version 1.1"},
        {"a length beyond the file", npy_file(good).substr(0, 40), FB_E_TRUNCATED,
         "goes beyond the end of the file"},
        {"a length over 1 MiB", huge_length, FB_E_CORRUPT, "over the 1 MiB"},
        {"no dict", npy_file("[1, 2]\n"), FB_E_CORRUPT, "does not start with a dict"},
        {"a missing key", npy_file("{'descr': '<f8', 'shape': (2,), }\n", doubles({1, 2})), FB_E_CORRUPT,
         "'fortran_order' is missing"},
        {"an extra key", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}\n"),
         FB_E_CORRUPT, "unexpected key 'x'"},
        {"a key twice", npy_file("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}\n"),
         FB_E_CORRUPT, "appears twice"},
        {"'(2)' is no tuple", with_shape("(2)"), FB_E_CORRUPT, "is not a tuple"},
        {"a bare integer shape", with_shape("2"), FB_E_CORRUPT, "the shape is not a tuple"},
        {"a negative dimension", with_shape("(-2,)"), FB_E_CORRUPT, "non-negative integer"},
        {"two commas", with_shape("(2,,)"), FB_E_CORRUPT, "non-negative integer"},
        {"a lone comma", with_shape("(,)"), FB_E_CORRUPT, "non-negative integer"},
        {"a leading zero", with_shape("(02,)"), FB_E_CORRUPT, "leading zero"},
        {"a float dimension", with_shape("(2.0,)"), FB_E_CORRUPT, "expected ',' or ')'"},
        {"a dimension over 64 bits", with_shape("(18446744073709551616,)"), FB_E_CORRUPT,
         "overflows 64 bits"},
        {"a shape product over 64 bits", with_shape("(4294967296, 4294967296,)"), FB_E_CORRUPT,
         "overflows 64 bits"},
        {"33 dimensions",
         with_shape("(" +
                    [] {
                        std::string s;
                        for (int i = 0; i < 33; ++i)
                            s += "1, ";
                        return s;
                    }() +
                    ")"),
         FB_E_CORRUPT, "more than 32 dimensions"},
        {"fortran_order true", with_shape("(2,)", "'<f8'", "true"), FB_E_CORRUPT, "neither True nor False"},
        {"fortran_order Truest", with_shape("(2,)", "'<f8'", "Truest"), FB_E_CORRUPT,
         "neither True nor False"},
        {"fortran_order 1", with_shape("(2,)", "'<f8'", "1"), FB_E_CORRUPT, "neither True nor False"},
        {"an unquoted descr", with_shape("(2,)", "f8"), FB_E_CORRUPT, "expected descr as a quoted string"},
        {"a quote missing", npy_file("{'descr': '<f8, 'fortran_order': False}\n"), FB_E_CORRUPT,
         "expected ',' or '}' after the value of 'descr'"},
        {"a string running off the header", npy_file("{'descr: \n"), FB_E_CORRUPT, "unterminated string"},
        {"a newline in a string", npy_file("{'descr\n': '<f8'}\n"), FB_E_CORRUPT, "control or non-ASCII"},
        {"no final newline", npy_file(good.substr(0, good.size() - 1) + " ", doubles({1, 2})), FB_E_CORRUPT,
         "does not end with '\\n'"},
        {"an escape", with_shape("(2,)", "'<f\\x38'"), FB_E_CORRUPT, "backslash"},
        {"a NUL byte", with_shape("(2,)", std::string("'<f8\0'", 6)), FB_E_CORRUPT, "control or non-ASCII"},
        {"text after the dict", npy_file(good.substr(0, good.size() - 1) + " x\n", doubles({1, 2})),
         FB_E_CORRUPT, "text after the dict"},
        {"a structured dtype",
         npy_file("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }\n"), FB_E_UNSUPPORTED,
         "structured dtype"},
        {"another dtype", with_shape("(2,)", "'<i8'"), FB_E_CORRUPT, "holds dtype '<i8', not f8 (f64)"},
        {"another item size", with_shape("(2,)", "'<f4'"), FB_E_CORRUPT, "holds dtype '<f4'"},
        {"a signed byte for u8",
         npy_file("{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }\n", "ab"), FB_E_CORRUPT,
         "holds dtype '|i1', not u1 (u8)", 2, FB_DTYPE_U8},
        {"Fortran order, 2-D",
         npy_file("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }\n", doubles({1, 2, 3, 4})),
         FB_E_UNSUPPORTED, "Fortran-ordered array of shape (2, 2)", 4},
        {"fewer elements than asked", with_shape("(1,)"), FB_E_TRUNCATED,
         "holds 1 elements (shape (1,)), 2 were asked"},
        {"more elements than asked", with_shape("(2,)"), FB_E_CORRUPT, "set the count to 2", 1},
        {"data cut short", npy_file(good, doubles({1, 2}).substr(0, 15)), FB_E_TRUNCATED,
         "holds 2 elements, the file has data for 1"},
    };
    temp_dir dir;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        std::string path = dir / "bad.npy";
        put_file(path, c.file);
        std::string message;
        EXPECT_EQ(status_of([&] { read_array(id, path, c.dtype, c.count); }, &message), c.status) << message;
        EXPECT_NE(message.find(c.message), std::string::npos) << message;
        EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
    }
}

TEST(NpyReader, EveryTruncationOfAFileIsAnError) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I32, 50);
    write_array(id, dir / "a.npy", FB_DTYPE_I32, data);
    bytes whole = file_bytes(dir / "a.npy");
    for (std::size_t keep = 0; keep < whole.size(); ++keep) {
        put_file(dir / "cut.npy", whole.data(), keep);
        int st = status_of([&] { read_array(id, dir / "cut.npy", FB_DTYPE_I32, 50); });
        EXPECT_EQ(st, FB_E_TRUNCATED) << "kept " << keep << " of " << whole.size() << " bytes";
    }
}

TEST(NpyReader, EveryFlippedHeaderByteIsAnErrorOrTheSameValues) {
    // A flip in the header either leaves an equivalent header (a padding
    // space turned into a tab by ^ 0x29, '<' into '=' by ^ 0x01 on a
    // little-endian machine) or is refused; it never crashes and never
    // yields other values (a damaged length that moves the data is caught
    // by the header's final '\n').
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F64, 10);
    write_array(id, dir / "a.npy", FB_DTYPE_F64, data);
    bytes whole = file_bytes(dir / "a.npy");
    for (std::size_t at = 0; at < 128; ++at)
        for (unsigned char mask : {0x01, 0x29, 0x80, 0xff}) {
            bytes bad = whole;
            bad[at] ^= mask;
            put_file(dir / "bad.npy", bad);
            bytes back;
            std::string message;
            int st = status_of([&] { back = read_array(id, dir / "bad.npy", FB_DTYPE_F64, 10); }, &message);
            if (st == FB_OK)
                EXPECT_EQ(back, data) << "byte " << at << " ^ " << int(mask);
            else
                EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED || st == FB_E_UNSUPPORTED)
                    << "byte " << at << " ^ " << int(mask) << ": " << message;
        }
}

TEST(NpyReader, MissingFileAndDirectory) {
    temp_dir dir;
    std::string message;
    EXPECT_EQ(status_of([&] { read_array(id, dir / "nope.npy", FB_DTYPE_F64, 1); }, &message), FB_E_IO);
    EXPECT_NE(message.find("nope.npy"), std::string::npos) << message;
    EXPECT_EQ(status_of([&] { read_array(id, dir.path().string(), FB_DTYPE_F64, 1); }, &message), FB_E_IO);
    EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
}

// ---- Writing where it cannot ---------------------------------------------------

TEST(NpyWriter, FullDeviceIsReportedAndNotRemoved) {
    temp_dir dir;
    std::string full = full_device(dir);
    std::string message;
    int st =
        status_of([&] { write_array(id, full, FB_DTYPE_F64, make_data(FB_DTYPE_F64, 1 << 16)); }, &message);
    EXPECT_EQ(st, FB_E_IO);
    EXPECT_NE(message.find("npy: write to '" + full + "': " + std::string(std::strerror(ENOSPC))),
              std::string::npos)
        << message;
    struct stat s {};
    EXPECT_TRUE(::lstat(full.c_str(), &s) == 0 && S_ISCHR(s.st_mode)) << "the device is still there";
}

TEST(NpyWriter, NothingLeftWhenOpenFails) {
    temp_dir dir;
    std::string message;
    std::string path = dir / "no/such/dir/a.npy";
    EXPECT_EQ(status_of([&] { write_array(id, path, FB_DTYPE_F64, {}); }, &message), FB_E_IO);
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(status_of([&] {
                  plugin(id).open_write(dir / "a.npy", FB_DTYPE_F64, 1, {{"version", "4"}});
              }),
              FB_E_INVALID_OPTION);
    EXPECT_FALSE(fs::exists(dir / "a.npy"));
}

// ---- The shape, random access and direct reads (ABI 1.2) ---------------------

namespace ra = random_access_checks;

// Values i = 0..n-1 as f64 bytes, in this machine's order.
std::string value_bytes(std::uint64_t n) {
    const std::vector<double> v = ra::values(n);
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 8);
}

// A hand-made file of values 0..n-1 with the header text given (its dict),
// padded as numpy pads (the data at a multiple of 64) or not at all (the
// data at an odd offset).
std::string values_file(const std::string& dict, std::uint64_t n, bool big, bool padded) {
    std::string text = dict;
    if (padded) text.append(63 - (10 + text.size()) % 64, ' ');
    return npy_file(text + "\n", big ? swap8(value_bytes(n)) : value_bytes(n));
}

TEST(NpyWriter, ShapedHeaderByHand) {
    temp_dir dir;
    const std::string path = dir / "cube.npy";
    const std::string data = value_bytes(60);
    auto w = plugin(id).open_write(path, FB_DTYPE_F64, 60, {}, {{3, 4, 5}, false});
    w->write(data.data(), 60);
    w->close();
    const std::string f = to_string(file_bytes(path));
    ASSERT_EQ(f.size(), 128u + 480);
    EXPECT_EQ(f.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10)) << "version 1.0, length 118";
    EXPECT_EQ(f.substr(10, 62), "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4, 5), }");
    EXPECT_EQ(f.substr(72, 55), std::string(55, ' '))
        << "numpy's 20 growth spaces (21 - one digit), 35 of padding";
    EXPECT_EQ(f[127], '\n');
    EXPECT_EQ(f.substr(128), data);
    // No shape is the flat header, and so is a 1-D shape.
    auto z = plugin(id).open_write(dir / "scalar.npy", FB_DTYPE_F64, 1, {}, {{}, false});
    z->write(data.data(), 1);
    z->close();
    EXPECT_EQ(to_string(file_bytes(dir / "scalar.npy")).substr(10, 57),
              "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }");
    auto one = plugin(id).open_write(dir / "flat.npy", FB_DTYPE_F64, 60, {}, {{60}, false});
    one->write(data.data(), 60);
    one->close();
    EXPECT_EQ(to_string(file_bytes(dir / "flat.npy")).substr(10, 58),
              "{'descr': '<f8', 'fortran_order': False, 'shape': (60,), }");
}

TEST(NpyWriter, AShapeMustHoldTheCountWritten) {
    temp_dir dir;
    std::string message;
    EXPECT_EQ(status_of(
                  [&] {
                      plugin(id).open_write(dir / "a.npy", FB_DTYPE_F64, 60, {}, {{3, 4, 6}, false});
                  },
                  &message),
              FB_E_STATE);
    EXPECT_NE(message.find("the shape (3, 4, 6) given for '" + dir / "a.npy" + "' holds 72 elements"),
              std::string::npos)
        << message;
    const std::string data = value_bytes(60);
    auto w = plugin(id).open_write(dir / "b.npy", FB_DTYPE_F64, 60, {}, {{3, 4, 5}, false});
    w->write(data.data(), 59);
    EXPECT_EQ(status_of([&] { w->close(); }, &message), FB_E_STATE);
    EXPECT_NE(message.find("59 elements were written to '" + dir / "b.npy" + "'"), std::string::npos)
        << message;
}

// ra::wide_count values as 2000 x 256 (wide2.npy) and 20 x 100 x 256 (wide3.npy).
template <class Dir>
void put_wide(const Dir& dir, const std::string& descr, bool big, bool padded) {
    put_file(dir / "wide2.npy",
             values_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': (2000, 256), }",
                         ra::wide_count, big, padded));
    put_file(dir / "wide3.npy",
             values_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': (20, 100, 256), }",
                         ra::wide_count, big, padded));
}

TEST(NpyRandomAccess, ReadAtAndBoxesInBothByteOrdersAndPaddings) {
    temp_dir dir;
    for (bool big : {false, true})
        for (bool padded : {true, false}) {
            SCOPED_TRACE(std::string(big ? "big" : "little") + "-endian, " +
                         (padded ? "padded" : "unpadded"));
            const std::string descr = big ? "'>f8'" : "'<f8'";
            put_file(dir / "flat.npy",
                     values_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': (5000,), }", 5000,
                                 big, padded));
            ra::check_read_at(plugin(id), dir / "flat.npy", 5000, {});
            ra::check_read_at(plugin(id), dir / "flat.npy", 5000, {}, {{5000}, false});
            put_file(dir / "cube.npy",
                     values_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': (3, 4, 5), }", 60,
                                 big, padded));
            ra::check_boxes_3d(plugin(id), dir / "cube.npy", {});
            put_wide(dir, descr, big, padded);
            ra::check_boxes_wide(plugin(id), dir / "wide2.npy", dir / "wide3.npy", {});
        }
}

TEST(NpyRandomAccess, TheOpensShapeMustBeTheFilesOrNone) {
    temp_dir dir;
    put_file(dir / "cube.npy",
             values_file("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4, 5), }", 60, false, true));
    for (const auto& shape : {std::vector<std::uint64_t>{60}, {5, 4, 3}, {3, 20}}) {
        std::string message;
        EXPECT_EQ(status_of(
                      [&] {
                          plugin(id).open_read(dir / "cube.npy", FB_DTYPE_F64, 60, {}, {shape, false});
                      },
                      &message),
                  FB_E_CORRUPT);
        EXPECT_NE(message.find("'" + dir / "cube.npy" +
                               "' holds an array of shape (3, 4, 5), the data set's shape is"),
                  std::string::npos)
            << message;
    }
    // Without a shape (a user's file): read flat; boxes need a shape.
    auto r = plugin(id).open_read(dir / "cube.npy", FB_DTYPE_F64, 60, {});
    ra::aligned_buffer b(60 * 8);
    r->read_at(21, b.data(), 39);
    EXPECT_TRUE(ra::holds_values(b.doubles(), 21, 39));
    EXPECT_EQ(status_of([&] { r->read_box({0, 0, 0}, {1, 1, 1}, b.data()); }), FB_E_TRUNCATED);
    r->close();
}

TEST(NpyRandomAccess, FortranOrderWithOneLongAxisReadsBoxesAndNdIsRefused) {
    temp_dir dir;
    put_file(dir / "row.npy",
             values_file("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 60, 1), }", 60, false, true));
    auto r = plugin(id).open_read(dir / "row.npy", FB_DTYPE_F64, 60, {}, {{1, 60, 1}, false});
    ra::aligned_buffer b(60 * 8);
    r->read_box({0, 7, 0}, {1, 5, 1}, b.data());
    EXPECT_TRUE(ra::holds_values(b.doubles(), 7, 5));
    r->close();
    put_file(dir / "f.npy",
             values_file("{'descr': '<f8', 'fortran_order': True, 'shape': (3, 4, 5), }", 60, false, true));
    std::string message;
    EXPECT_EQ(status_of(
                  [&] {
                      plugin(id).open_read(dir / "f.npy", FB_DTYPE_F64, 60, {}, {{3, 4, 5}, false});
                  },
                  &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("Fortran-ordered array of shape (3, 4, 5)"), std::string::npos) << message;
}

TEST(NpyDirect, ReadReadAtAndBoxesThroughTheBounceBuffer) {
    ra::disk_dir d;
    for (bool big : {false, true})
        for (bool padded : {true, false}) {
            SCOPED_TRACE(std::string(big ? "big" : "little") + "-endian, " +
                         (padded ? "padded" : "unpadded"));
            const std::string descr = big ? "'>f8'" : "'<f8'";
            put_file(d / "flat.npy",
                     values_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': (5000,), }", 5000,
                                 big, padded));
            if (!ra::direct_io_works(d / "flat.npy")) GTEST_SKIP() << "/var/tmp has no O_DIRECT here";
            ra::check_read(plugin(id), d / "flat.npy", 5000, {}, {{}, true});
            ra::check_read_at(plugin(id), d / "flat.npy", 5000, {}, {{}, true});
            put_file(d / "cube.npy",
                     values_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': (3, 4, 5), }", 60,
                                 big, padded));
            ra::check_boxes_3d(plugin(id), d / "cube.npy", {}, true);
            put_wide(d, descr, big, padded);
            ra::check_boxes_wide(plugin(id), d / "wide2.npy", d / "wide3.npy", {}, true);
        }
    // A header longer than a block, read with O_DIRECT too.
    put_file(d / "long.npy", npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (5000,), }" +
                                          std::string(9000, ' ') + "\n",
                                      value_bytes(5000), 2));
    ra::check_read_at(plugin(id), d / "long.npy", 5000, {}, {{}, true});
    // No zero-copy view: a mapping is the page cache.
    auto r = plugin(id).open_read(d / "flat.npy", FB_DTYPE_F64, 5000, {}, {{}, true});
    std::string message;
    EXPECT_EQ(status_of([&] { r->view(5000); }, &message), FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("with direct I/O"), std::string::npos) << message;
    r->close();
}

TEST(NpyDirect, RefusedWhereTheFileSystemHasNoDirectIo) {
    std::string message;
    EXPECT_EQ(status_of(
                  [&] {
                      plugin(id).open_read("/proc/self/status", FB_DTYPE_F64, 0, {}, {{}, true});
                  },
                  &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("the file system of '/proc/self/status' refuses O_DIRECT"), std::string::npos)
        << message;
}

} // namespace

// Tests of the zfp plugin, loaded through the core registry: round trips of
// every dtype in every mode, whole and in chunks, with the count known and
// unknown; reversible bit-exact (NaN payloads, infinities and extremes
// included); accuracy within its tolerance; the file size rate mode implies,
// computed by hand from zfp's stream layout (a 96-bit header, blocks of 4
// values of 4 x rate bits, padded to a 64-bit word); options refused with
// their name and range, parameters of other modes ignored; truncated, trailing, wrong-type, wrong-count and
// garbage files refused; data sets of 2 to 4 axes as zfp fields of that
// rank (extents in the header read with libzfp, round trips, a smooth 3-D
// field smaller than flat at the same accuracy, shapes refused).
#include "zfp_test_support.hpp"

#include <zfp.h>

namespace {

using namespace zfp_test;

const std::string id = "zfp";

const option_list reversible = {};
const option_list rate8 = {{"mode", "rate"}, {"rate", "8"}};
const option_list precision16 = {{"mode", "precision"}, {"precision", "16"}};
const option_list accuracy001 = {{"mode", "accuracy"}, {"accuracy", "0.01"}};

TEST(ZfpPlugin, Described) {
    const auto& p = plugin(id);
    EXPECT_TRUE(p.has(FB_CAP_LOSSLESS));
    EXPECT_TRUE(p.has(FB_CAP_LOSSY));
    EXPECT_EQ(p.dtypes(), FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) |
                              FB_DTYPE_BIT(FB_DTYPE_I64) | FB_DTYPE_BIT(FB_DTYPE_I32));
    for (fb_dtype d : zfp_dtypes) {
        EXPECT_TRUE(p.is_lossless(reversible, d));
        EXPECT_TRUE(p.is_lossless({{"rate", "8"}}, d)); // rate is ignored by mode=reversible
        EXPECT_FALSE(p.is_lossless(rate8, d));
        EXPECT_FALSE(p.is_lossless(precision16, d));
        EXPECT_FALSE(p.is_lossless({{"mode", "precision"}, {"precision", "64"}}, d));
    }
    EXPECT_FALSE(p.is_lossless(accuracy001, FB_DTYPE_F64));
}

TEST(ZfpPlugin, ReversibleIsBitExactForEveryDtypeWholeChunkedAndUnknownCount) {
    temp_dir dir;
    for (fb_dtype d : zfp_dtypes)
        for (std::size_t chunk : {std::size_t{0}, std::size_t{777}})
            for (bool unknown : {false, true}) {
                SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " chunk " << chunk
                                                << (unknown ? " count unknown" : ""));
                // make_data: signed zeros, infinities, a NaN payload, extremes first.
                const bytes data = make_data(d, 10007);
                write_array(id, dir / "a.zfp", d, data, reversible, chunk, unknown);
                EXPECT_EQ(
                    first_difference(read_array(id, dir / "a.zfp", d, 10007, {}, chunk / 3), data, esize(d)),
                    "");
            }
}

// zfp codes integers as fixed point over the dtype's whole range, so a
// rate or precision is counted from the top bit: the lossy integer cases
// keep enough of them for values of ~10^5 (the low 8 bits go).
std::vector<option_list> lossy_options(fb_dtype d) {
    switch (d) {
    case FB_DTYPE_I32:
        return {{{"mode", "rate"}, {"rate", "24"}}, {{"mode", "precision"}, {"precision", "24"}}};
    case FB_DTYPE_I64:
        return {{{"mode", "rate"}, {"rate", "56"}}, {{"mode", "precision"}, {"precision", "56"}}};
    default: return {rate8, precision16, accuracy001};
    }
}

TEST(ZfpPlugin, LossyModesRoundTripEveryDtype) {
    temp_dir dir;
    for (fb_dtype d : zfp_dtypes)
        for (const option_list& o : lossy_options(d)) {
            SCOPED_TRACE(testing::Message()
                         << formatbench::dtype_name(d) << " " << o[0].second << " " << o[1].second);
            const bytes data = smooth_data(d, 20000);
            write_array(id, dir / "a.zfp", d, data, o, 3001);
            const bytes whole = read_array(id, dir / "a.zfp", d, 20000, o);
            // The same values whichever way the file is read.
            EXPECT_EQ(read_array(id, dir / "a.zfp", d, 20000, o, 999), whole);
            // Smaller than the payload and not the same bits: lossy.
            EXPECT_LT(fs::file_size(dir / "a.zfp"), data.size());
            EXPECT_NE(whole, data);
            // A lossy code of a smooth signal of amplitude ~1000 (x100 for
            // the integers) stays within a few percent of it.
            const double scale = (d == FB_DTYPE_I32 || d == FB_DTYPE_I64) ? 100000.0 : 1000.0;
            EXPECT_LT(max_abs_error(whole, data, d), 0.05 * scale);
        }
}

TEST(ZfpPlugin, AccuracyKeepsEveryValueWithinTheTolerance) {
    temp_dir dir;
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32})
        for (const char* tol : {"1", "0.01", "1e-6"}) {
            SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " accuracy " << tol);
            const bytes data = smooth_data(d, 50000, 7);
            write_array(id, dir / "a.zfp", d, data, {{"mode", "accuracy"}, {"accuracy", tol}});
            const bytes got = read_array(id, dir / "a.zfp", d, 50000);
            const double err = max_abs_error(got, data, d);
            EXPECT_LE(err, std::stod(tol));
            if (d == FB_DTYPE_F64) {
                EXPECT_GT(err, 0.0);
            }
        }
}

// zfp's stream in rate mode, from its documentation: the full header is
// 32 bits of magic, 52 of field metadata and 12 of mode; each block of 4
// values takes exactly 4 x rate bits (rate a multiple of 1/4 in 1-D); the
// stream is padded to a whole stream word (libzfp's stream_word_bits: 8 in
// Debian's build, 64 in zfp's default one).
TEST(ZfpPlugin, RateModeGivesTheSizeTheRateImplies) {
    temp_dir dir;
    for (fb_dtype d : zfp_dtypes)
        for (double rate : {4.0, 8.0, 12.5, 16.0})
            for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
                SCOPED_TRACE(testing::Message()
                             << formatbench::dtype_name(d) << " rate " << rate << " n " << n);
                char text[16];
                std::snprintf(text, sizeof text, "%g", rate);
                write_array(id, dir / "a.zfp", d, smooth_data(d, n), {{"mode", "rate"}, {"rate", text}});
                const std::uint64_t blocks = (n + 3) / 4;
                const std::uint64_t bits = 96 + blocks * static_cast<std::uint64_t>(4 * rate);
                const std::uint64_t word = stream_word_bits;
                const std::uint64_t bytes = (bits + word - 1) / word * word / 8;
                EXPECT_EQ(fs::file_size(dir / "a.zfp"), bytes);
                // Against the payload: rate / (8 x dtype size), plus header and padding.
                EXPECT_NEAR(double(fs::file_size(dir / "a.zfp")), rate * double(n) / 8.0,
                            12.0 + 8.0 + 4 * rate);
            }
}

TEST(ZfpPlugin, EmptyArrayIsAnEmptyFile) {
    temp_dir dir;
    write_array(id, dir / "a.zfp", FB_DTYPE_F64, {});
    EXPECT_EQ(fs::file_size(dir / "a.zfp"), 0u);
    EXPECT_TRUE(read_array(id, dir / "a.zfp", FB_DTYPE_F64, 0).empty());
}

TEST(ZfpPlugin, OptionsAreCheckedWithTheirNameValueAndRange) {
    temp_dir dir;
    struct bad {
        fb_dtype d;
        option_list o;
        std::string text;
    };
    const bad cases[] = {
        {FB_DTYPE_F32,
         {{"mode", "rate"}, {"rate", "40"}},
         "option 'rate': '40' is not in [1, 32] bits per value for f32"},
        {FB_DTYPE_I32,
         {{"mode", "precision"}, {"precision", "33"}},
         "option 'precision': '33' is not in [1, 32]"},
        {FB_DTYPE_F64, {{"mode", "lossy"}}, "one of reversible | rate | precision | accuracy"},
        {FB_DTYPE_F64, {{"rate", "-1"}}, "option 'rate': '-1' is not a number in [1, 64]"},
        {FB_DTYPE_F64, {{"rate", "0"}}, "in [1, 64]"},
        {FB_DTYPE_F64, {{"precision", "65"}}, "in [1, 64]"},
        {FB_DTYPE_F64, {{"accuracy", "0"}}, "option 'accuracy': '0'"},
    };
    for (const bad& c : cases) {
        std::string message;
        EXPECT_EQ(
            status_of([&] { write_array(id, dir / "a.zfp", c.d, smooth_data(c.d, 10), c.o); }, &message),
            FB_E_INVALID_OPTION);
        EXPECT_NE(message.find(c.text), std::string::npos) << message;
        EXPECT_FALSE(fs::exists(dir / "a.zfp")) << message;
    }
}

// Each parameter is read by its own mode only: the others ignore it, and
// the file is the same as without it.
TEST(ZfpPlugin, ParametersOfOtherModesAreIgnored) {
    temp_dir dir;
    const bytes data = smooth_data(FB_DTYPE_F64, 5000);
    write_array(id, dir / "a.zfp", FB_DTYPE_F64, data, {{"mode", "rate"}, {"rate", "8"}});
    write_array(id, dir / "b.zfp", FB_DTYPE_F64, data,
                {{"mode", "rate"}, {"rate", "8"}, {"precision", "3"}, {"accuracy", "100"}});
    EXPECT_EQ(file_bytes(dir / "a.zfp"), file_bytes(dir / "b.zfp"));
    write_array(id, dir / "c.zfp", FB_DTYPE_F64, data, {{"rate", "4"}, {"precision", "3"}});
    EXPECT_EQ(read_array(id, dir / "c.zfp", FB_DTYPE_F64, 5000), data);
}

// zfp bounds no error for integers in accuracy mode: the plugin writes them
// reversibly, the same file as mode=reversible.
TEST(ZfpPlugin, AccuracyForIntegersIsReversible) {
    temp_dir dir;
    for (fb_dtype d : {FB_DTYPE_I32, FB_DTYPE_I64}) {
        const bytes data = make_data(d, 3000);
        write_array(id, dir / "a.zfp", d, data, {{"mode", "accuracy"}, {"accuracy", "1000"}});
        write_array(id, dir / "b.zfp", d, data);
        EXPECT_EQ(file_bytes(dir / "a.zfp"), file_bytes(dir / "b.zfp"));
        EXPECT_EQ(read_array(id, dir / "a.zfp", d, 3000), data);
    }
}

TEST(ZfpPlugin, CountAnnouncedBindsTheWriter) {
    temp_dir dir;
    const bytes data = smooth_data(FB_DTYPE_F64, 100);
    for (std::uint64_t announced : {99u, 101u}) {
        std::string message;
        EXPECT_EQ(status_of(
                      [&] {
                          auto w = plugin(id).open_write(dir / "a.zfp", FB_DTYPE_F64, announced, {});
                          w->write(data.data(), 100);
                          w->close();
                      },
                      &message),
                  FB_E_STATE);
        EXPECT_NE(message.find("announced"), std::string::npos) << message;
    }
}

class ZfpErrors : public testing::Test {
protected:
    void SetUp() override {
        data_ = smooth_data(FB_DTYPE_F64, n_);
        write_array(id, dir_ / "good.zfp", FB_DTYPE_F64, data_, accuracy001);
        good_ = file_bytes(dir_ / "good.zfp");
    }
    temp_dir dir_;
    const std::size_t n_ = 10000;
    bytes data_, good_;
};

TEST_F(ZfpErrors, TruncatedTrailingAndGarbage) {
    put_file(dir_ / "half.zfp", good_.data(), good_.size() / 2);
    put_file(dir_ / "cut8.zfp", good_.data(), good_.size() - 8);
    put_file(dir_ / "head.zfp", good_.data(), 10);
    put_file(dir_ / "empty.zfp", "");
    bytes trailing = good_;
    trailing.insert(trailing.end(), 8, 0);
    put_file(dir_ / "trailing.zfp", trailing);
    put_file(dir_ / "garbage.zfp", std::string(4096, 'x'));
    expect_refused(
        id, dir_,
        {{"half.zfp", FB_DTYPE_F64, n_, FB_E_TRUNCATED, "truncated"},
         {"cut8.zfp", FB_DTYPE_F64, n_, FB_E_TRUNCATED, "truncated"},
         {"head.zfp", FB_DTYPE_F64, n_, FB_E_TRUNCATED, "inside the zfp header"},
         {"empty.zfp", FB_DTYPE_F64, n_, FB_E_TRUNCATED, "is empty"},
         {"trailing.zfp", FB_DTYPE_F64, n_, FB_E_CORRUPT, "8 bytes follow the end of the zfp stream"},
         {"garbage.zfp", FB_DTYPE_F64, n_, FB_E_CORRUPT, "magic"}});
}

TEST_F(ZfpErrors, WrongTypeAndCount) {
    expect_refused(
        id, dir_,
        {{"good.zfp", FB_DTYPE_F32, n_, FB_E_CORRUPT, "holds f64 values and f32 was asked for"},
         {"good.zfp", FB_DTYPE_I64, n_, FB_E_CORRUPT, "holds f64 values and i64 was asked for"},
         {"good.zfp", FB_DTYPE_F64, n_ + 1, FB_E_TRUNCATED, "holds 10000 values (1-D), 10001 were"},
         {"good.zfp", FB_DTYPE_F64, n_ - 1, FB_E_CORRUPT, "the count does not match"}});
    expect_read_past_the_end_refused(id, dir_ / "good.zfp", FB_DTYPE_F64, n_);
}

// zfp has no checksum: a flipped bit in the blocks may read back as other
// values. A flip in the magic, type, dimensionality or the used bits of nx
// is refused (bits 68..83, the top of the 48 bits of a 1-D nx - 1, are not
// read by libzfp 1.0, nor by zfpy, which reads such a file as the array);
// anywhere the reader never crashes or reads past its buffer (ASan builds).
TEST_F(ZfpErrors, FlippedHeaderBitsAreRefusedAndNoFlipCrashes) {
    for (std::size_t bit = 0; bit < 68; ++bit) { // magic and field metadata
        bytes bad = good_;
        bad[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
        put_file(dir_ / "bad.zfp", bad);
        std::string message;
        const int st = status_of([&] { read_array(id, dir_ / "bad.zfp", FB_DTYPE_F64, n_); }, &message);
        EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED)
            << "bit " << bit << ": " << st << " " << message;
    }
    std::mt19937 rng(4);
    for (int trial = 0; trial < 300; ++trial) {
        bytes bad = good_;
        bad[rng() % bad.size()] ^= static_cast<unsigned char>(1u << (rng() % 8));
        put_file(dir_ / "bad.zfp", bad);
        const int st =
            status_of([&] { read_array(id, dir_ / "bad.zfp", FB_DTYPE_F64, n_, {}, trial % 2 ? 999 : 0); });
        EXPECT_TRUE(st == FB_OK || st == FB_E_CORRUPT || st == FB_E_TRUNCATED) << st;
    }
}

// ---- N-D data sets (ABI 1.2 shapes) ----------------------------------------------

using shape_t = std::vector<std::uint64_t>;

std::size_t count_of(const shape_t& shape) {
    std::size_t n = 1;
    for (std::uint64_t e : shape)
        n *= static_cast<std::size_t>(e);
    return n;
}

// Writes `data` as a data set of `shape` (row-major), in chunks of `chunk`
// values (0: one write).
void write_shaped(const std::string& path, fb_dtype d, const bytes& data, const shape_t& shape,
                  const option_list& o, std::size_t chunk = 0) {
    const std::size_t n = data.size() / esize(d);
    auto w = plugin(id).open_write(path, d, n, o, formatbench::open_layout{shape});
    const std::size_t step = chunk ? chunk : std::max<std::size_t>(n, 1);
    for (std::size_t i = 0; i < n; i += step)
        w->write(data.data() + i * esize(d), std::min(step, n - i));
    w->close();
}

bytes read_shaped(const std::string& path, fb_dtype d, const shape_t& shape, const option_list& o = {}) {
    bytes out(count_of(shape) * esize(d));
    auto r = plugin(id).open_read(path, d, count_of(shape), o, formatbench::open_layout{shape});
    r->read(out.data(), count_of(shape));
    r->close();
    return out;
}

// The extents in the file's zfp header, read with libzfp (x first).
std::vector<std::size_t> header_extents(const std::string& path) {
    bytes head = file_bytes(path);
    head.resize(head.size() + 64, 0);
    bitstream* bs = stream_open(head.data(), head.size());
    zfp_stream* zs = zfp_stream_open(bs);
    zfp_field* f = zfp_field_alloc();
    const std::size_t bits = zfp_read_header(zs, f, ZFP_HEADER_FULL);
    std::vector<std::size_t> e;
    if (bits) {
        const std::size_t all[4] = {f->nx, f->ny, f->nz, f->nw};
        for (unsigned i = 0; i < zfp_field_dimensionality(f); ++i)
            e.push_back(all[i]);
    }
    zfp_field_free(f);
    zfp_stream_close(zs);
    stream_close(bs);
    return e;
}

// A smooth 3-D field (sums of sines along each axis) of shape [nz, ny, nx]:
// smooth along every axis, which 1-D blocks (4 neighbours along x) cannot
// exploit across rows and planes and 4 x 4 x 4 blocks can.
bytes smooth_field(const shape_t& shape) {
    const std::size_t nz = shape[0], ny = shape[1], nx = shape[2];
    bytes out(nz * ny * nx * 8);
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t y = 0; y < ny; ++y)
            for (std::size_t x = 0; x < nx; ++x) {
                const double v = std::sin(0.11 * double(x)) + std::cos(0.07 * double(y)) +
                                 std::sin(0.05 * double(z) + 0.3) * std::cos(0.02 * double(x + y));
                std::memcpy(out.data() + ((z * ny + y) * nx + x) * 8, &v, 8);
            }
    return out;
}

TEST(ZfpShape, HeaderHoldsTheShapeWithXFastest) {
    temp_dir dir;
    const std::string path = dir / "a.zfp";
    write_shaped(path, FB_DTYPE_F64, smooth_data(FB_DTYPE_F64, 7 * 9 * 11), {7, 9, 11}, reversible);
    EXPECT_EQ(header_extents(path), (std::vector<std::size_t>{11, 9, 7}));
    write_shaped(path, FB_DTYPE_F32, smooth_data(FB_DTYPE_F32, 13 * 17), {13, 17}, reversible);
    EXPECT_EQ(header_extents(path), (std::vector<std::size_t>{17, 13}));
    write_shaped(path, FB_DTYPE_I32, smooth_data(FB_DTYPE_I32, 2 * 3 * 5 * 6), {2, 3, 5, 6}, reversible);
    EXPECT_EQ(header_extents(path), (std::vector<std::size_t>{6, 5, 3, 2}));
    // One axis, or no shape, is 1-D.
    write_shaped(path, FB_DTYPE_F64, smooth_data(FB_DTYPE_F64, 1000), {1000}, reversible);
    EXPECT_EQ(header_extents(path), (std::vector<std::size_t>{1000}));
}

TEST(ZfpShape, ReversibleRoundTripsAreBitExactIn2DAnd3D) {
    temp_dir dir;
    const std::string path = dir / "a.zfp";
    for (fb_dtype d : zfp_dtypes)
        for (const shape_t& shape : {shape_t{13, 17}, shape_t{7, 9, 11}, shape_t{8, 8, 8}, shape_t{1, 5}})
            for (std::size_t chunk : {std::size_t{0}, std::size_t{100}}) {
                SCOPED_TRACE(testing::Message()
                             << formatbench::dtype_name(d) << " " << shape.size() << "-D chunk " << chunk);
                const bytes data = make_data(d, count_of(shape)); // extremes, NaN and infinities included
                write_shaped(path, d, data, shape, reversible, chunk);
                EXPECT_EQ(first_difference(read_shaped(path, d, shape), data, esize(d)), "");
                // Without a shape the reader gives the values flat, in C order.
                EXPECT_EQ(first_difference(read_array(id, path, d, count_of(shape), {}, 7), data, esize(d)),
                          "");
            }
}

TEST(ZfpShape, AccuracyHoldsIn2DAnd3D) {
    temp_dir dir;
    const std::string path = dir / "a.zfp";
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32})
        for (const shape_t& shape : {shape_t{50, 61}, shape_t{21, 18, 23}})
            for (const char* tolerance : {"0.01", "1e-6"}) {
                if (d == FB_DTYPE_F32 && std::string(tolerance) == "1e-6")
                    continue; // below f32's ulp at 1000
                SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " " << shape.size()
                                                << "-D accuracy " << tolerance);
                const bytes data = smooth_data(d, count_of(shape));
                const option_list o = {{"mode", "accuracy"}, {"accuracy", tolerance}};
                write_shaped(path, d, data, shape, o);
                const bytes got = read_shaped(path, d, shape, o);
                EXPECT_LE(max_abs_error(got, data, d), std::stod(tolerance));
                EXPECT_LT(fs::file_size(path), data.size());
            }
}

TEST(ZfpShape, RateAndPrecisionModesIn3D) {
    temp_dir dir;
    const std::string path = dir / "a.zfp";
    const shape_t shape = {8, 12, 16}; // 2 x 3 x 4 = 24 blocks of 4 x 4 x 4 values
    const bytes data = smooth_data(FB_DTYPE_F64, count_of(shape));
    // Rate mode: every 3-D block takes exactly 64 x rate bits after the
    // 96-bit header, padded to a stream word.
    write_shaped(path, FB_DTYPE_F64, data, shape, {{"mode", "rate"}, {"rate", "8"}});
    const std::uint64_t bits = 96 + 24 * 64 * 8, word = stream_word_bits;
    EXPECT_EQ(fs::file_size(path), (bits + word - 1) / word * word / 8);
    EXPECT_EQ(read_shaped(path, FB_DTYPE_F64, shape).size(), data.size());
    // Precision mode reads back the same values whichever way it is read.
    write_shaped(path, FB_DTYPE_F64, data, shape, precision16);
    EXPECT_EQ(read_shaped(path, FB_DTYPE_F64, shape), read_array(id, path, FB_DTYPE_F64, count_of(shape)));
}

TEST(ZfpShape, ASmooth3DFieldCompressesBetterIn3DThanFlat) {
    temp_dir dir;
    const shape_t shape = {40, 48, 56};
    const bytes data = smooth_field(shape);
    for (const char* tolerance : {"1e-3", "1e-6"}) {
        SCOPED_TRACE(tolerance);
        const option_list o = {{"mode", "accuracy"}, {"accuracy", tolerance}};
        write_shaped(dir / "3d.zfp", FB_DTYPE_F64, data, shape, o);
        write_array(id, dir / "1d.zfp", FB_DTYPE_F64, data, o);
        EXPECT_EQ(header_extents(dir / "1d.zfp").size(), 1u);
        // Both within the tolerance; the 3-D stream smaller.
        EXPECT_LE(max_abs_error(read_shaped(dir / "3d.zfp", FB_DTYPE_F64, shape), data, FB_DTYPE_F64),
                  std::stod(tolerance));
        EXPECT_LE(
            max_abs_error(read_array(id, dir / "1d.zfp", FB_DTYPE_F64, count_of(shape)), data, FB_DTYPE_F64),
            std::stod(tolerance));
        EXPECT_LT(fs::file_size(dir / "3d.zfp"), fs::file_size(dir / "1d.zfp"));
    }
}

TEST(ZfpShape, ShapesZfpCannotHoldAreRefusedAtOpen) {
    temp_dir dir;
    const std::string path = dir / "a.zfp";
    std::string message;
    // Five axes: zfp has fields of 1 to 4 dimensions.
    EXPECT_EQ(
        status_of(
            [&] {
                plugin(id).open_write(path, FB_DTYPE_F64, 32, {}, formatbench::open_layout{{2, 2, 2, 2, 2}});
            },
            &message),
        FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("[2, 2, 2, 2, 2]"), std::string::npos) << message;
    EXPECT_NE(message.find("1 to 4 dimensions"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(path));
    // 4-D extents have 12 bits each in zfp's header.
    EXPECT_EQ(status_of(
                  [&] {
                      plugin(id).open_write(path, FB_DTYPE_F64, 5000 * 8, {},
                                            formatbench::open_layout{{5000, 2, 2, 2}});
                  },
                  &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("header"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(path));
    // Reading with five axes: the same refusal.
    write_array(id, path, FB_DTYPE_F64, smooth_data(FB_DTYPE_F64, 32));
    EXPECT_EQ(
        status_of(
            [&] {
                plugin(id).open_read(path, FB_DTYPE_F64, 32, {}, formatbench::open_layout{{2, 2, 2, 2, 2}});
            },
            &message),
        FB_E_UNSUPPORTED);
}

TEST(ZfpShape, TheFileMustHaveTheDataSetsShape) {
    temp_dir dir;
    const std::string path = dir / "a.zfp";
    const bytes data = smooth_data(FB_DTYPE_F64, 512);
    write_shaped(path, FB_DTYPE_F64, data, {8, 8, 8}, reversible);
    std::string message;
    for (const shape_t& other : {shape_t{8, 64}, shape_t{512}, shape_t{8, 4, 16}}) {
        EXPECT_EQ(status_of([&] { read_shaped(path, FB_DTYPE_F64, other); }, &message), FB_E_CORRUPT);
        EXPECT_NE(message.find("[8, 8, 8]"), std::string::npos) << message;
        EXPECT_NE(message.find("a.zfp"), std::string::npos) << message;
    }
    // A flat file read as 3-D: refused the same way.
    write_array(id, path, FB_DTYPE_F64, data);
    EXPECT_EQ(status_of([&] { read_shaped(path, FB_DTYPE_F64, {8, 8, 8}); }, &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("[512]"), std::string::npos) << message;
    EXPECT_NE(message.find("[8, 8, 8]"), std::string::npos) << message;
}

} // namespace

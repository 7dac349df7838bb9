// Tests of the zstd plugin, loaded through the core registry: round trips of
// every dtype, chunked and whole, with and without shuffle; every option at
// its extremes; the frame header's content size and checksum flag, read by
// hand from the bytes per RFC 8878; the errors of truncated, damaged,
// trailing, mislabelled and oversized-window files; and (tests named
// ZstdTool*, run with --require-tool=zstd) interop with the zstd command
// both ways.
#include "compress_test_support.hpp"

#include <zstd.h>

#include <cerrno>

namespace {

using namespace compress_test;

constexpr const char* id = "zstd";

// The frame header fields this plugin promises, decoded from the bytes as
// RFC 8878 section 3.1.1.1 defines them (not with libzstd).
struct frame_header {
    bool single_segment = false;
    bool checksum = false;
    bool has_content_size = false;
    std::uint64_t content_size = 0;
    unsigned dictionary_id_bytes = 0;
};

frame_header parse_header(const bytes& f) {
    frame_header h;
    EXPECT_GE(f.size(), 6u);
    if (f.size() < 6) return h;
    EXPECT_EQ(f[0], 0x28);
    EXPECT_EQ(f[1], 0xb5);
    EXPECT_EQ(f[2], 0x2f);
    EXPECT_EQ(f[3], 0xfd);
    const unsigned fhd = f[4];
    const unsigned fcs_flag = fhd >> 6;
    h.single_segment = (fhd >> 5) & 1;
    h.checksum = (fhd >> 2) & 1;
    const unsigned did_flag = fhd & 3;
    h.dictionary_id_bytes = did_flag == 3 ? 4 : did_flag;
    std::size_t at = 5 + (h.single_segment ? 0 : 1) + h.dictionary_id_bytes;
    const unsigned fcs_bytes[4] = {h.single_segment ? 1u : 0u, 2, 4, 8};
    const unsigned k = fcs_bytes[fcs_flag];
    h.has_content_size = k > 0;
    EXPECT_GE(f.size(), at + k);
    for (unsigned i = 0; i < k && at + i < f.size(); ++i)
        h.content_size |= std::uint64_t(f[at + i]) << (8 * i);
    if (k == 2) h.content_size += 256;
    return h;
}

void check_round_trip(const fs::path& path, fb_dtype d, std::size_t n, const option_list& o,
                      std::size_t write_chunk = 0, std::size_t read_chunk = 0) {
    SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " n=" << n << " chunks " << write_chunk
                                    << "/" << read_chunk);
    bytes data = make_data(d, n);
    write_array(id, path, d, data, o, write_chunk);
    EXPECT_TRUE(same_bytes(read_array(id, path, d, n, o, read_chunk), data));
}

// ---- Description and round trips ---------------------------------------------

TEST(ZstdPlugin, Described) {
    const auto& p = plugin(id);
    EXPECT_TRUE(p.has(FB_CAP_LOSSLESS));
    EXPECT_EQ(p.dtypes(), unsigned(FB_DTYPES_ALL));
    std::vector<std::string> names;
    for (const auto& o : p.options()) {
        names.push_back(o.name);
        if (o.name == "level") {
            // The installed libzstd's own range, negative levels included.
            EXPECT_EQ(o.min, ZSTD_minCLevel());
            EXPECT_EQ(o.max, ZSTD_maxCLevel());
            EXPECT_LT(o.min, 0);
        }
        if (o.name == "shuffle") {
            EXPECT_NE(o.help.find("no longer"), std::string::npos) << o.help;
        }
    }
    for (const char* want : {"level", "threads", "frames", "frame_size", "checksum", "shuffle",
                             "shuffle_block", "long", "window_log"})
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

TEST(ZstdPlugin, EveryDtypeWholeAndChunkedWithAndWithoutShuffle) {
    temp_dir dir;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* shuffle : {"false", "true"})
            for (auto [w, r] : {std::pair<std::size_t, std::size_t>{0, 0}, {1000, 999}, {7, 4096}, {0, 3}}) {
                SCOPED_TRACE(testing::Message() << "shuffle=" << shuffle);
                // 5000-byte shuffle blocks: not a multiple of 8 (rounded down),
                // with a partial last block.
                check_round_trip(dir / "a.zst", d, 33333, {{"shuffle", shuffle}, {"shuffle_block", "5000"}},
                                 w, r);
            }
}

TEST(ZstdPlugin, EmptyAndTinyArrays) {
    temp_dir dir;
    for (const char* shuffle : {"false", "true"})
        for (const char* threads : {"0", "2"})
            for (std::size_t n : {0, 1, 2}) {
                SCOPED_TRACE(testing::Message() << "shuffle=" << shuffle << " threads=" << threads);
                check_round_trip(dir / "a.zst", FB_DTYPE_F64, n,
                                 {{"shuffle", shuffle}, {"threads", threads}});
            }
}

TEST(ZstdPlugin, ExactShuffleBlockMultiple) {
    // The data ends exactly at a shuffle block boundary.
    temp_dir dir;
    check_round_trip(dir / "a.zst", FB_DTYPE_F64, 4096, {{"shuffle", "true"}, {"shuffle_block", "8192"}},
                     1024);
}

TEST(ZstdPlugin, LevelExtremesThreadsChecksumLongWindow) {
    temp_dir dir;
    const std::string min_level = std::to_string(ZSTD_minCLevel());
    const std::string max_level = std::to_string(ZSTD_maxCLevel());
    const std::vector<option_list> sets = {
        {{"level", min_level}},
        {{"level", "-5"}},
        {{"level", "0"}},
        {{"level", "1"}},
        {{"level", max_level}},
        {{"threads", "2"}},
        {{"threads", "2"}, {"level", "19"}, {"shuffle", "true"}},
        {{"checksum", "false"}},
        {{"long", "true"}},
        {{"long", "true"}, {"window_log", "28"}, {"threads", "2"}},
        {{"window_log", "10"}},
        {{"window_log", "31"}},
    };
    for (const auto& o : sets) {
        std::string label;
        for (const auto& [k, v] : o)
            label += k + "=" + v + " ";
        SCOPED_TRACE(label);
        check_round_trip(dir / "a.zst", FB_DTYPE_F64, 150000, o);
        check_round_trip(dir / "b.zst", FB_DTYPE_I32, 150000, o, 4097, 1000);
    }
}

TEST(ZstdPlugin, ShuffleImprovesRatioOnSmoothFloats) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F32, 300000);
    write_array(id, dir / "plain.zst", FB_DTYPE_F32, data, {});
    write_array(id, dir / "shuf.zst", FB_DTYPE_F32, data, {{"shuffle", "true"}});
    double plain = double(fs::file_size(dir / "plain.zst")),
           shuffled = double(fs::file_size(dir / "shuf.zst"));
    EXPECT_LT(shuffled, plain * 0.95) << "plain " << plain << " bytes, shuffled " << shuffled;
}

// ---- Independent frames --------------------------------------------------------------

// The frames of a file and each one's content size, found with libzstd's
// frame functions (not the plugin's code); skippable frames are counted
// apart.
struct frame_list {
    std::vector<std::uint64_t> content_sizes;
    std::size_t skippable = 0;
};

frame_list list_frames(const bytes& f) {
    frame_list l;
    std::size_t at = 0;
    while (at < f.size()) {
        std::size_t size = ZSTD_findFrameCompressedSize(f.data() + at, f.size() - at);
        EXPECT_FALSE(ZSTD_isError(size)) << "at byte " << at << ": " << ZSTD_getErrorName(size);
        if (ZSTD_isError(size)) break;
        // Skippable magic numbers are 0x184D2A50..5F (RFC 8878 3.1.2).
        if (f.size() - at >= 4 && f[at + 3] == 0x18 && f[at + 2] == 0x4d && f[at + 1] == 0x2a &&
            (f[at] & 0xf0) == 0x50)
            ++l.skippable;
        else
            l.content_sizes.push_back(ZSTD_getFrameContentSize(f.data() + at, f.size() - at));
        at += size;
    }
    return l;
}

TEST(ZstdPlugin, IndependentFramesRoundTrip) {
    temp_dir dir;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* threads : {"0", "1", "2", "3"})
            for (const char* shuffle : {"false", "true"})
                for (auto [w, r] : {std::pair<std::size_t, std::size_t>{0, 0}, {1000, 999}, {7, 40000}}) {
                    SCOPED_TRACE(testing::Message() << "threads=" << threads << " shuffle=" << shuffle);
                    // 64 KiB frames, a 5000-byte shuffle block: many frames,
                    // blocks that straddle them, a short last one.
                    check_round_trip(dir / "a.zst", d, 45679,
                                     {{"frames", "independent"},
                                      {"frame_size", "64KiB"},
                                      {"threads", threads},
                                      {"shuffle", shuffle},
                                      {"shuffle_block", "5000"}},
                                     w, r);
                }
    for (std::size_t n : {0, 1, 2})
        check_round_trip(dir / "a.zst", FB_DTYPE_F64, n, {{"frames", "independent"}, {"threads", "2"}});
}

TEST(ZstdPlugin, IndependentFramesLayout) {
    temp_dir dir;
    const option_list two = {{"frames", "independent"}, {"frame_size", "64KiB"}, {"threads", "2"}};
    // 150000 f64 = 1200000 bytes in one write: ceil(1200000 / 65536) = 19
    // frames at least; a multiple of the 2 threads (20) would leave frames
    // under 128 KiB, so 19, of ceil(1200000 / 19) = 63158 bytes rounded up
    // to whole f64: 63160, and the last 1200000 - 18 * 63160 = 63120.
    bytes data = make_data(FB_DTYPE_F64, 150000);
    write_array(id, dir / "a.zst", FB_DTYPE_F64, data, two);
    frame_list l = list_frames(read_file(dir / "a.zst"));
    ASSERT_EQ(l.content_sizes.size(), 19u);
    for (std::size_t i = 0; i + 1 < 19; ++i)
        EXPECT_EQ(l.content_sizes[i], 63160u) << i;
    EXPECT_EQ(l.content_sizes[18], 63120u);
    // With 8 MiB frames (the default) and 2 threads, 40 MB in one write:
    // ceil(40000000 / 8388608) = 5, rounded up to 6 frames of 6666672 bytes
    // (ceil(40000000 / 6) = 6666667 rounded up to whole f64), the last
    // 40000000 - 5 * 6666672 = 6666640.
    bytes big = make_data(FB_DTYPE_F64, 5000000);
    write_array(id, dir / "b.zst", FB_DTYPE_F64, big, {{"frames", "independent"}, {"threads", "2"}});
    l = list_frames(read_file(dir / "b.zst"));
    ASSERT_EQ(l.content_sizes.size(), 6u);
    EXPECT_EQ(l.content_sizes[0], 6666672u);
    EXPECT_EQ(l.content_sizes[5], 6666640u);
    // Small writes collect in the batch (2 x 64 KiB): full batches of 131072
    // bytes become two 65536-byte frames; the 1200000 - 9 * 131072 = 20352
    // left at the end are one frame (under 2 x 128 KiB).
    write_array(id, dir / "c.zst", FB_DTYPE_F64, data, two, 1000);
    l = list_frames(read_file(dir / "c.zst"));
    ASSERT_EQ(l.content_sizes.size(), 19u);
    EXPECT_EQ(l.content_sizes[0], 65536u);
    EXPECT_EQ(l.content_sizes[17], 65536u);
    EXPECT_EQ(l.content_sizes[18], 20352u);
    // An empty array is one empty frame.
    write_array(id, dir / "e.zst", FB_DTYPE_F64, {}, two);
    l = list_frames(read_file(dir / "e.zst"));
    ASSERT_EQ(l.content_sizes.size(), 1u);
    EXPECT_EQ(l.content_sizes[0], 0u);
    // Frames: one stays one frame with threads.
    write_array(id, dir / "d.zst", FB_DTYPE_F64, data, {{"threads", "2"}});
    EXPECT_EQ(list_frames(read_file(dir / "d.zst")).content_sizes.size(), 1u);
}

// ---- The frame header ------------------------------------------------------------

TEST(ZstdPlugin, HeaderHoldsContentSizeWhenCountKnown) {
    temp_dir dir;
    for (std::size_t n : {0, 1, 40, 100000})
        for (const option_list& o : {option_list{}, option_list{{"threads", "2"}},
                                     option_list{{"shuffle", "true"}}, option_list{{"checksum", "false"}}})
            for (std::size_t chunk : {std::size_t{0}, std::size_t{333}}) {
                SCOPED_TRACE(testing::Message()
                             << "n=" << n << " chunk=" << chunk << " options " << o.size());
                write_array(id, dir / "a.zst", FB_DTYPE_F64, make_data(FB_DTYPE_F64, n), o, chunk);
                frame_header h = parse_header(read_file(dir / "a.zst"));
                EXPECT_TRUE(h.has_content_size);
                EXPECT_EQ(h.content_size, n * 8);
                EXPECT_EQ(h.checksum, !(o.size() == 1 && o[0].first == "checksum"));
                EXPECT_EQ(h.dictionary_id_bytes, 0u);
            }
}

TEST(ZstdPlugin, NoContentSizeWhenCountUnknown) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I64, 20000);
    write_array(id, dir / "a.zst", FB_DTYPE_I64, data, {}, 3000, FB_COUNT_UNKNOWN);
    frame_header h = parse_header(read_file(dir / "a.zst"));
    EXPECT_FALSE(h.has_content_size);
    EXPECT_TRUE(same_bytes(read_array(id, dir / "a.zst", FB_DTYPE_I64, 20000, {}, 777), data));
    EXPECT_TRUE(same_bytes(read_array(id, dir / "a.zst", FB_DTYPE_I64, 20000, {}), data));
}

// ---- Errors ------------------------------------------------------------------------

class ZstdErrors : public testing::Test {
protected:
    void SetUp() override {
        data_ = make_data(FB_DTYPE_F64, n_);
        write_array(id, dir_ / "good.zst", FB_DTYPE_F64, data_, {{"level", "1"}});
        file_ = read_file(dir_ / "good.zst");
    }
    // Reads `content` (as bad.zst) in whole or in chunks; the status.
    int read_status(const bytes& content, std::string* message = nullptr, const option_list& o = {},
                    std::size_t n = 0, std::size_t chunk = 0) {
        write_file(dir_ / "bad.zst", content);
        return status_of([&] { read_array(id, dir_ / "bad.zst", FB_DTYPE_F64, n ? n : n_, o, chunk); },
                         message);
    }
    void expect_named(const std::string& message) {
        EXPECT_NE(message.find("bad.zst"), std::string::npos) << message;
    }

    temp_dir dir_;
    std::size_t n_ = 50000;
    bytes data_, file_;
};

TEST_F(ZstdErrors, Truncated) {
    for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}})
        for (std::size_t keep : {file_.size() - 1, file_.size() - 4, file_.size() / 2, std::size_t{1},
                                 std::size_t{3}, std::size_t{5}, std::size_t{9}}) {
            std::string message;
            bytes cut(file_.begin(), file_.begin() + static_cast<std::ptrdiff_t>(keep));
            EXPECT_EQ(read_status(cut, &message, {}, 0, chunk), FB_E_TRUNCATED)
                << "kept " << keep << ", chunk " << chunk << ": " << message;
            expect_named(message);
        }
}

TEST_F(ZstdErrors, TruncatedShuffledAndWithoutContentSize) {
    option_list o = {{"shuffle", "true"}, {"shuffle_block", "8KiB"}};
    write_array(id, dir_ / "s.zst", FB_DTYPE_F64, data_, o, 333, FB_COUNT_UNKNOWN);
    bytes file = read_file(dir_ / "s.zst");
    for (std::size_t keep : {file.size() - 1, file.size() - 5, file.size() / 3}) {
        bytes cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(keep));
        EXPECT_EQ(read_status(cut, nullptr, o), FB_E_TRUNCATED) << "kept " << keep;
    }
}

TEST_F(ZstdErrors, CountMismatch) {
    std::string message;
    // The header's content size says how many there are: refused at open.
    EXPECT_EQ(read_status(file_, &message, {}, n_ + 1), FB_E_TRUNCATED);
    EXPECT_NE(message.find("50000 elements"), std::string::npos) << message;
    EXPECT_EQ(read_status(file_, &message, {}, n_ - 1), FB_E_CORRUPT);
    EXPECT_NE(message.find("does not match"), std::string::npos) << message;
    // Without a content size the decoder finds out, whole or in chunks.
    write_array(id, dir_ / "u.zst", FB_DTYPE_F64, data_, {}, 0, FB_COUNT_UNKNOWN);
    bytes unknown = read_file(dir_ / "u.zst");
    for (std::size_t chunk : {std::size_t{0}, std::size_t{1000}}) {
        EXPECT_EQ(read_status(unknown, &message, {}, n_ + 1, chunk), FB_E_TRUNCATED)
            << chunk << ": " << message;
        EXPECT_EQ(read_status(unknown, &message, {}, n_ - 1, chunk), FB_E_CORRUPT)
            << chunk << ": " << message;
        EXPECT_NE(message.find("more than"), std::string::npos) << message;
    }
}

TEST_F(ZstdErrors, TrailingGarbageAndSecondFrame) {
    for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}}) {
        std::string message;
        EXPECT_EQ(read_status(concat(file_, bytes{0}), &message, {}, 0, chunk), FB_E_CORRUPT) << message;
        EXPECT_NE(message.find("follow the end"), std::string::npos) << message;
        EXPECT_EQ(read_status(concat(file_, bytes(100, 'x')), &message, {}, 0, chunk), FB_E_CORRUPT);
        EXPECT_EQ(read_status(concat(file_, file_), &message, {}, 0, chunk), FB_E_CORRUPT) << message;
        // A second frame is not more of the same array, even when the count
        // asked for would take it.
        EXPECT_EQ(read_status(concat(file_, file_), &message, {}, 2 * n_, chunk), FB_E_TRUNCATED) << message;
    }
}

TEST_F(ZstdErrors, DamagedBytesAreDetected) {
    // With the checksum (the default) no damage reads back as data: every
    // flip ends in CORRUPT or TRUNCATED (a flip in a block size can make the
    // frame look longer than the file).
    expect_flips_detected(file_, 80, 3, [&](const bytes& b, std::string* m, std::size_t chunk) {
        return read_status(b, m, {}, 0, chunk);
    });
    bytes checksum = file_;
    checksum.back() ^= 0x01; // inside the 4-byte XXH64 checksum
    std::string message;
    EXPECT_EQ(read_status(checksum, &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("checksum"), std::string::npos) << message;
}

TEST_F(ZstdErrors, EmptyGarbageAndOtherMagic) {
    std::string message;
    EXPECT_EQ(read_status({}, &message), FB_E_TRUNCATED);
    EXPECT_NE(message.find("empty"), std::string::npos) << message;
    std::mt19937 rng(5);
    bytes garbage(100000);
    for (auto& b : garbage)
        b = static_cast<unsigned char>(rng());
    EXPECT_EQ(read_status(garbage, &message), FB_E_CORRUPT);
    expect_named(message);
    // A skippable frame (magic 0x184D2A50, size 4, four bytes) before the frame.
    bytes skippable = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4};
    EXPECT_EQ(read_status(concat(skippable, file_), &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("skippable"), std::string::npos) << message;
    // gzip's magic.
    EXPECT_EQ(read_status(bytes{0x1f, 0x8b, 8, 0, 0, 0, 0, 0}, &message), FB_E_CORRUPT);
}

TEST_F(ZstdErrors, OversizedWindowIsRefusedBeforeAllocating) {
    // A frame header written by hand (RFC 8878): no single segment, no
    // checksum, no dictionary, no content size (FHD 0x00); window descriptor
    // exponent 21, mantissa 0: a 2^31-byte window. Then one raw last block
    // of 8 bytes (block header 0x41 0x00 0x00: last, raw, size 8).
    bytes frame(9 + 8, 0x3f);
    const unsigned char header[9] = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3, 0x41, 0x00, 0x00};
    std::memcpy(frame.data(), header, sizeof header);
    std::string message;
    EXPECT_EQ(read_status(frame, &message, {}, 1), FB_E_UNSUPPORTED) << message;
    EXPECT_NE(message.find("window_log=31"), std::string::npos) << message;
    // With the limit raised the same frame is read: its one value.
    write_file(dir_ / "w.zst", frame);
    bytes one = read_array(id, dir_ / "w.zst", FB_DTYPE_F64, 1, {{"window_log", "31"}});
    EXPECT_TRUE(same_bytes(one, bytes(8, 0x3f)));
    // A 2^27 window (exponent 17) is within the default limit.
    frame[5] = 17 << 3;
    EXPECT_EQ(read_status(frame, &message, {}, 1), FB_OK) << message;
}

TEST_F(ZstdErrors, SingleSegmentFrameOfHugeContent) {
    // Found by fuzz_zstd: a single-segment frame's window is its content
    // size; FHD 0xe0 (8-byte content size, single segment), content size
    // 2^64 - 1, then the start of a block. Refused, without undefined
    // behaviour (ASan/UBSan builds), and without allocating.
    bytes frame = {0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x41, 0, 0};
    std::string message;
    EXPECT_EQ(read_status(frame, &message, {}, 1), FB_E_CORRUPT) << message;
    EXPECT_NE(message.find("window"), std::string::npos) << message;
    // 2^32 bytes of content: a window no encoder uses either.
    frame[5] = frame[6] = frame[7] = frame[8] = frame[10] = frame[11] = frame[12] = 0;
    frame[9] = 1;
    EXPECT_EQ(read_status(frame, &message, {}, 1), FB_E_CORRUPT) << message;
}

TEST_F(ZstdErrors, MissingFileAndDirectory) {
    std::string message;
    EXPECT_EQ(status_of([&] { read_array(id, dir_ / "nope.zst", FB_DTYPE_F64, 1, {}); }, &message), FB_E_IO);
    EXPECT_NE(message.find("nope.zst"), std::string::npos) << message;
    fs::create_directory(dir_ / "d.zst");
    EXPECT_EQ(status_of([&] { read_array(id, dir_ / "d.zst", FB_DTYPE_F64, 1, {}); }, &message), FB_E_IO);
}

TEST(ZstdWriteErrors, DiskFullIsReportedWithThePath) {
    ASSERT_TRUE(fs::exists("/dev/full")) << "needs /dev/full";
    bytes data = make_data(FB_DTYPE_F64, 1 << 19);
    // Independent frames: the append that fills the file buffer, and so
    // meets the full disk, may be any thread's; the caller gets its error.
    const std::vector<option_list> sets = {
        {{"threads", "0"}, {"level", "1"}},
        {{"threads", "2"}, {"level", "1"}},
        {{"threads", "2"}, {"level", "1"}, {"frames", "independent"}, {"frame_size", "64KiB"}},
        {{"threads", "3"}, {"level", "1"}, {"frames", "independent"}, {"frame_size", "64KiB"}},
    };
    for (const auto& o : sets) {
        std::string message;
        int st = status_of([&] { write_array(id, "/dev/full", FB_DTYPE_F64, data, o); }, &message);
        EXPECT_EQ(st, FB_E_IO) << message;
        EXPECT_NE(message.find("/dev/full"), std::string::npos) << message;
        EXPECT_NE(message.find(std::strerror(ENOSPC)), std::string::npos) << message;
    }
}

TEST(ZstdWriteErrors, AFailedWriteStaysFailed) {
    ASSERT_TRUE(fs::exists("/dev/full")) << "needs /dev/full";
    expect_sticky_write_failure(id, {{"level", "1"}});
    expect_sticky_write_failure(id, {{"level", "1"}, {"frames", "independent"}, {"threads", "2"}});
}

TEST(ZstdWriteErrors, BadWindowLogLeavesNothing) {
    temp_dir dir;
    fs::path path = dir / "a.zst";
    std::string message;
    int st = status_of(
        [&] {
            plugin(id).open_write(path.string(), FB_DTYPE_F64, 10, {{"window_log", "9"}});
        },
        &message);
    EXPECT_EQ(st, FB_E_INVALID_OPTION) << message;
    EXPECT_NE(message.find("window_log"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(path));
}

TEST(ZstdWriteErrors, MoreOrFewerThanAnnounced) {
    expect_count_binds(id);
    expect_count_binds(id, {{"frames", "independent"}});
}

TEST_F(ZstdErrors, IndependentFrames) {
    // 50000 f64 = 400000 bytes in 64 KiB frames, one thread: ceil(400000 /
    // 65536) = 7 frames of 57144 bytes (ceil(400000 / 7) rounded up to whole
    // f64), the last 400000 - 6 * 57144 = 57136.
    const option_list o = {{"frames", "independent"}, {"frame_size", "64KiB"}};
    write_array(id, dir_ / "f.zst", FB_DTYPE_F64, data_, o);
    const bytes file = read_file(dir_ / "f.zst");
    frame_list l = list_frames(file);
    ASSERT_EQ(l.content_sizes.size(), 7u);
    EXPECT_EQ(l.content_sizes[6], 57136u);
    const std::size_t last_frame = ZSTD_findFrameCompressedSize(file.data(), file.size());
    std::size_t last_start = 0;
    for (int i = 0; i < 6; ++i)
        last_start += ZSTD_findFrameCompressedSize(file.data() + last_start, file.size() - last_start);
    ASSERT_GT(last_frame, 0u);
    const bytes empty_frame = {0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00}; // zstd -c < /dev/null
    const bytes skippable = {0x5f, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 7, 8, 9};
    for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}}) {
        SCOPED_TRACE(testing::Message() << "chunk " << chunk);
        std::string message;
        // Frames that hold nothing may come anywhere.
        bytes padded =
            concat(concat(skippable, bytes(file.begin(), file.begin() + last_start)),
                   concat(empty_frame, concat(skippable, bytes(file.begin() + last_start, file.end()))));
        padded = concat(padded, concat(empty_frame, skippable));
        EXPECT_EQ(read_status(padded, &message, o, 0, chunk), FB_OK) << message;
        // The file ends at a frame boundary: a frame is missing.
        EXPECT_EQ(read_status(bytes(file.begin(), file.begin() + last_start), &message, o, 0, chunk),
                  FB_E_TRUNCATED);
        EXPECT_NE(message.find("fewer than"), std::string::npos) << message;
        // Inside a frame.
        EXPECT_EQ(read_status(bytes(file.begin(), file.end() - 5), &message, o, 0, chunk), FB_E_TRUNCATED)
            << message;
        // More frames with data than asked for: the count does not match.
        EXPECT_EQ(read_status(concat(file, file), &message, o, 0, chunk), FB_E_CORRUPT) << message;
        EXPECT_NE(message.find("more than"), std::string::npos) << message;
        EXPECT_EQ(read_status(concat(file, bytes(100, 'x')), &message, o, 0, chunk), FB_E_CORRUPT) << message;
        expect_named(message);
        // Without the option: the first frame's content size is too small
        // (every independent frame has one, the count known or not), a
        // skippable frame first is refused.
        EXPECT_EQ(read_status(file, &message, {}, 0, chunk), FB_E_TRUNCATED) << message;
        EXPECT_NE(message.find("frames: independent"), std::string::npos) << message;
        EXPECT_EQ(read_status(concat(skippable, file), &message, {}, 0, chunk), FB_E_CORRUPT) << message;
        EXPECT_NE(message.find("frames: independent"), std::string::npos) << message;
    }
    // Two copies are 2n values.
    write_file(dir_ / "two.zst", concat(file, file));
    EXPECT_TRUE(same_bytes(read_array(id, dir_ / "two.zst", FB_DTYPE_F64, 2 * n_, o), concat(data_, data_)));
    EXPECT_TRUE(
        same_bytes(read_array(id, dir_ / "two.zst", FB_DTYPE_F64, 2 * n_, o, 777), concat(data_, data_)));
    // Flips anywhere: never read back as data (each frame has its checksum).
    expect_flips_detected(file, 60, 11, [&](const bytes& b, std::string* m, std::size_t chunk) {
        return read_status(b, m, o, 0, chunk);
    });
}

// ---- Random access (formatbench.read-at/1) -----------------------------------------

// i64 values 0, 1, 2, ...: value i is i, so every read_at is checked by hand.
bytes counting(std::size_t n) {
    bytes b(n * 8);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t v = static_cast<std::int64_t>(i);
        std::memcpy(b.data() + i * 8, &v, 8);
    }
    return b;
}

// Reads [offset, offset + count) through read_at and checks value i == i.
testing::AssertionResult reads_counting(formatbench::read_stream& r, std::uint64_t offset,
                                        std::uint64_t count) {
    std::vector<std::int64_t> got(count, -1);
    r.read_at(offset, got.data(), count);
    for (std::uint64_t k = 0; k < count; ++k)
        if (got[k] != static_cast<std::int64_t>(offset + k))
            return testing::AssertionFailure() << "element " << offset + k << " reads " << got[k];
    return testing::AssertionSuccess();
}

// 300000 i64 = 2.4 MB in 64 KiB frames: 37 frames (the last shorter).
constexpr std::size_t at_n = 300000;

void check_read_at(const fs::path& path, const option_list& o) {
    auto r = plugin(id).open_read(path.string(), FB_DTYPE_I64, at_n, o);
    const std::uint64_t frame = 65536 / 8; // values per 64 KiB frame
    EXPECT_TRUE(reads_counting(*r, 0, 1));
    EXPECT_TRUE(reads_counting(*r, at_n - 1, 1));
    EXPECT_TRUE(reads_counting(*r, frame - 3, 10));              // across a frame boundary
    EXPECT_TRUE(reads_counting(*r, 5 * frame - 100, 3 * frame)); // across several
    EXPECT_TRUE(reads_counting(*r, 0, at_n));                    // everything
    EXPECT_TRUE(reads_counting(*r, 1234, 512));
    EXPECT_TRUE(reads_counting(*r, 1234, 512)); // again (the cached frame)
    std::mt19937_64 rng(7);
    for (int k = 0; k < 200; ++k) {
        const std::uint64_t count = 1 + rng() % 5000;
        const std::uint64_t offset = rng() % (at_n - count + 1);
        ASSERT_TRUE(reads_counting(*r, offset, count)) << offset << "+" << count;
    }
    r->read_at(17, nullptr, 0); // an empty range reads nothing
    std::int64_t one = 0;
    std::string message;
    EXPECT_EQ(status_of([&] { r->read_at(at_n, &one, 1); }, &message), FB_E_TRUNCATED) << message;
    EXPECT_EQ(status_of([&] { r->read_at(at_n - 2, &one, 3); }, &message), FB_E_TRUNCATED) << message;
    EXPECT_TRUE(reads_counting(*r, at_n - 2, 2)); // still readable after a refused range
    r->close();
}

TEST(ZstdReadAt, IndependentFramesWithAndWithoutShuffleAndSeekTable) {
    temp_dir dir;
    const bytes data = counting(at_n);
    for (const char* shuffle : {"false", "true"})
        for (const char* table : {"true", "false"}) {
            SCOPED_TRACE(testing::Message() << "shuffle " << shuffle << ", seek_table " << table);
            // A 5000-byte shuffle block: blocks that straddle frames.
            const option_list o = {{"frames", "independent"}, {"frame_size", "64KiB"},
                                   {"threads", "2"},          {"shuffle", shuffle},
                                   {"shuffle_block", "5000"}, {"seek_table", table}};
            write_array(id, dir / "a.zst", FB_DTYPE_I64, data, o);
            frame_list l = list_frames(read_file(dir / "a.zst"));
            EXPECT_EQ(l.content_sizes.size(), 37u);
            EXPECT_EQ(l.skippable, std::string(table) == "true" ? 1u : 0u);
            check_read_at(dir / "a.zst", o);
            // read() is unchanged by the table.
            EXPECT_TRUE(same_bytes(read_array(id, dir / "a.zst", FB_DTYPE_I64, at_n, o, 9999), data));
        }
}

TEST(ZstdReadAt, EachFrameIsDecodedOnceForTheReadsInIt) {
    // 13 reads that fall in 3 frames, in frame order: 3 in frame 0, 4 in
    // frame 2, 6 in frame 7. The reader keeps the frame it decoded last, so
    // `decoded_frames` is 3; a reader that decoded the frame again for every
    // read would report 13 and spend 4x the codec time a user sees.
    temp_dir dir;
    // Without shuffle: a shuffle block that straddles two frames would
    // rightly decode both.
    const option_list o = {{"frames", "independent"}, {"frame_size", "64KiB"}, {"shuffle", "false"}};
    write_array(id, dir / "a.zst", FB_DTYPE_I64, counting(at_n), o);
    // Where each frame's values start, from the frames' headers walked by hand.
    const frame_list l = list_frames(read_file(dir / "a.zst"));
    ASSERT_GE(l.content_sizes.size(), 8u);
    std::vector<std::uint64_t> start{0};
    for (std::uint64_t size : l.content_sizes)
        start.push_back(start.back() + size / 8);
    auto r = plugin(id).open_read((dir / "a.zst").string(), FB_DTYPE_I64, at_n, o);
    for (std::uint64_t at : {start[0], start[0] + 100, start[1] - 8})
        EXPECT_TRUE(reads_counting(*r, at, 8));
    for (std::uint64_t k = 0; k < 4; ++k)
        EXPECT_TRUE(reads_counting(*r, start[2] + 1000 * k, 16));
    for (std::uint64_t k = 0; k < 6; ++k)
        EXPECT_TRUE(reads_counting(*r, start[7] + 1300 * k, 4));
    r->close();
    double decoded = -1;
    for (const auto& [name, value] : r->metrics())
        if (name == "decoded_frames") decoded = value;
    EXPECT_EQ(decoded, 3);
}

// The seek table, read by hand from the file's last bytes as zstd's
// seekable format defines it: a skippable frame 0x184D2A5E of 8-byte
// entries (compressed, decompressed size), then the frame count, a
// descriptor byte and the magic 0x8F92EAB1.
TEST(ZstdReadAt, SeekTableIsZstdsSeekableFormat) {
    temp_dir dir;
    write_array(id, dir / "a.zst", FB_DTYPE_I64, counting(at_n),
                {{"frames", "independent"}, {"frame_size", "64KiB"}});
    const bytes f = read_file(dir / "a.zst");
    auto le32 = [&](std::size_t at) {
        return std::uint32_t(f[at]) | std::uint32_t(f[at + 1]) << 8 | std::uint32_t(f[at + 2]) << 16 |
               std::uint32_t(f[at + 3]) << 24;
    };
    ASSERT_GT(f.size(), 17u);
    EXPECT_EQ(le32(f.size() - 4), 0x8F92EAB1u);
    EXPECT_EQ(f[f.size() - 5], 0); // no checksums
    const std::uint32_t frames = le32(f.size() - 9);
    EXPECT_EQ(frames, 37u);
    const std::size_t table = 8 + 8 * std::size_t{frames} + 9;
    ASSERT_LE(table, f.size());
    const std::size_t start = f.size() - table;
    EXPECT_EQ(le32(start), 0x184D2A5Eu);
    EXPECT_EQ(le32(start + 4), table - 8);
    std::uint64_t compressed = 0, decompressed = 0;
    for (std::uint32_t i = 0; i < frames; ++i) {
        compressed += le32(start + 8 + 8 * i);
        decompressed += le32(start + 12 + 8 * i);
    }
    EXPECT_EQ(compressed, start);
    EXPECT_EQ(decompressed, at_n * 8);
}

TEST(ZstdReadAt, OneFrameIsRefusedNamingTheOption) {
    temp_dir dir;
    write_array(id, dir / "a.zst", FB_DTYPE_I64, counting(1000), {});
    auto r = plugin(id).open_read((dir / "a.zst").string(), FB_DTYPE_I64, 1000, {});
    std::int64_t v = 0;
    std::string message;
    EXPECT_EQ(status_of([&] { r->read_at(10, &v, 1); }, &message), FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("frames: independent"), std::string::npos) << message;
    EXPECT_NE(message.find("a.zst"), std::string::npos) << message;
    r->close();
}

TEST(ZstdReadAt, CountMismatchAndDamagedFrame) {
    temp_dir dir;
    // Without shuffle: a shuffle block that straddles two frames would
    // rightly decode both.
    const option_list o = {{"frames", "independent"}, {"frame_size", "64KiB"}, {"shuffle", "false"}};
    write_array(id, dir / "a.zst", FB_DTYPE_I64, counting(at_n), o);
    std::int64_t v = 0;
    std::string message;
    {
        auto r = plugin(id).open_read((dir / "a.zst").string(), FB_DTYPE_I64, at_n + 1, o);
        EXPECT_EQ(status_of([&] { r->read_at(0, &v, 1); }, &message), FB_E_TRUNCATED) << message;
        r->close();
    }
    // A flipped byte inside frame 3's compressed data (its checksum catches it); other frames still read.
    bytes f = read_file(dir / "a.zst");
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i)
        at += ZSTD_findFrameCompressedSize(f.data() + at, f.size() - at);
    f[at + ZSTD_findFrameCompressedSize(f.data() + at, f.size() - at) / 2] ^= 0x10;
    write_file(dir / "b.zst", f);
    auto r = plugin(id).open_read((dir / "b.zst").string(), FB_DTYPE_I64, at_n, o);
    const int st = status_of([&] { r->read_at(3 * 8192 + 5, &v, 1); }, &message);
    EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED) << st << " " << message;
    EXPECT_TRUE(reads_counting(*r, 0, 100));
    r->close();
}

// ---- The zstd command (run with --require-tool=zstd) ------------------------------

// Writes with the plugin, decompresses with `zstd -dc`: the raw array, or
// its shuffled form computed here.
TEST(ZstdTool, CommandDecodesPluginFiles) {
    temp_dir dir;
    const std::vector<option_list> sets = {
        {},
        {{"level", "-50"}},
        {{"level", "19"}, {"checksum", "false"}},
        {{"threads", "2"}},
        {{"long", "true"}},
        {{"shuffle", "true"}},
        {{"shuffle", "true"}, {"shuffle_block", "5000"}, {"threads", "2"}},
        {{"frames", "independent"}, {"frame_size", "64KiB"}, {"threads", "2"}},
        {{"frames", "independent"}, {"frame_size", "100000"}, {"shuffle", "true"}, {"shuffle_block", "5000"}},
    };
    for (fb_dtype d : formatbench::all_dtypes)
        for (const auto& o : sets)
            for (std::size_t chunk : {std::size_t{0}, std::size_t{4097}}) {
                SCOPED_TRACE(testing::Message()
                             << formatbench::dtype_name(d) << " chunk " << chunk << " options "
                             << (o.empty() ? "" : o[0].first + "=" + o[0].second));
                const std::size_t n = 200000;
                bytes data = make_data(d, n);
                write_array(id, dir / "a.zst", d, data, o, chunk);
                ASSERT_TRUE(run("zstd -q -dc " + quoted(dir / "a.zst") + " > " + quoted(dir / "a.out")));
                bool shuffle = false;
                std::size_t block = std::size_t{1} << 20;
                for (const auto& [k, v] : o) {
                    if (k == "shuffle") shuffle = v == "true";
                    if (k == "shuffle_block") block = std::stoul(v);
                }
                bytes want = shuffle ? reference_shuffle(data, esize(d), block) : data;
                EXPECT_TRUE(same_bytes(read_file(dir / "a.out"), want));
            }
}

// Files the zstd command makes, read back through the plugin.
TEST(ZstdTool, PluginReadsCommandFiles) {
    temp_dir dir;
    const std::size_t n = 300000; // 2.4 MB of f64: many 128 KiB blocks
    bytes data = make_data(FB_DTYPE_F64, n);
    write_file(dir / "in.bin", data);
    const std::string in = quoted(dir / "in.bin"), out = quoted(dir / "c.zst");
    const std::vector<std::string> commands = {
        "zstd -q -c " + in + " > " + out,
        "zstd -q -c --no-check " + in + " > " + out,
        "zstd -q -c --no-content-size " + in + " > " + out,
        "cat " + in + " | zstd -q -c > " + out, // from a pipe: no content size either
        "zstd -q -c -19 " + in + " > " + out,
        "zstd -q -c --fast=7 " + in + " > " + out,
        "zstd -q -c -T2 -3 " + in + " > " + out,
        "zstd -q -c --long=27 " + in + " > " + out,
        "cat " + in + " | zstd -q -c -B4096 --no-check > " + out, // small jobs, no size, no checksum
    };
    for (const auto& c : commands) {
        SCOPED_TRACE(c);
        ASSERT_TRUE(run(c));
        EXPECT_TRUE(same_bytes(read_array(id, dir / "c.zst", FB_DTYPE_F64, n, {}), data));
        EXPECT_TRUE(same_bytes(read_array(id, dir / "c.zst", FB_DTYPE_F64, n, {}, 12345), data));
    }
    // The header says whether the command stored the content size.
    ASSERT_TRUE(run("zstd -q -c " + in + " > " + out));
    EXPECT_TRUE(parse_header(read_file(dir / "c.zst")).has_content_size);
    ASSERT_TRUE(run("cat " + in + " | zstd -q -c > " + out));
    EXPECT_FALSE(parse_header(read_file(dir / "c.zst")).has_content_size);
}

// Files of several frames from the command, read with frames: independent:
// two files' frames one after the other (cut inside an element), and
// pzstd's (a skippable frame before each frame).
TEST(ZstdTool, PluginReadsConcatenatedAndPzstdFiles) {
    temp_dir dir;
    const std::size_t n = 300000;
    bytes data = make_data(FB_DTYPE_F64, n);
    write_file(dir / "in.bin", data);
    write_file(dir / "a.bin", bytes(data.begin(), data.begin() + 1000003));
    write_file(dir / "b.bin", bytes(data.begin() + 1000003, data.end()));
    const option_list o = {{"frames", "independent"}};
    const std::string out = quoted(dir / "c.zst");
    const std::vector<std::string> commands = {
        "zstd -q -c " + quoted(dir / "a.bin") + " > " + out + " && zstd -q -c " + quoted(dir / "b.bin") +
            " >> " + out,
        // Level 1: a 2^19 window, frames of 4 windows (2 MiB).
        "pzstd -q -p 2 -1 -c " + quoted(dir / "in.bin") + " > " + out,
        "cat " + quoted(dir / "in.bin") + " | pzstd -q -p 2 -1 > " + out,
    };
    for (const auto& c : commands) {
        SCOPED_TRACE(c);
        ASSERT_TRUE(run(c));
        frame_list l = list_frames(read_file(dir / "c.zst"));
        EXPECT_GE(l.content_sizes.size(), 2u);
        if (c.find("pzstd") != std::string::npos) {
            EXPECT_GE(l.skippable, 1u);
        }
        EXPECT_TRUE(same_bytes(read_array(id, dir / "c.zst", FB_DTYPE_F64, n, o), data));
        EXPECT_TRUE(same_bytes(read_array(id, dir / "c.zst", FB_DTYPE_F64, n, o, 12345), data));
    }
    // pzstd -d reads the plugin's independent frames too.
    write_array(id, dir / "p.zst", FB_DTYPE_F64, data,
                {{"frames", "independent"}, {"frame_size", "64KiB"}, {"threads", "2"}});
    ASSERT_TRUE(run("pzstd -q -d -c " + quoted(dir / "p.zst") + " > " + quoted(dir / "p.out")));
    EXPECT_TRUE(same_bytes(read_file(dir / "p.out"), data));
}

TEST(ZstdTool, LongWindowNeedsWindowLog) {
    // zstd --long=30 from a pipe (no content size): the frame asks for a
    // 2^30 window, above the reader's default limit of 2^27.
    temp_dir dir;
    const std::size_t n = 100000;
    bytes data = make_data(FB_DTYPE_I32, n);
    write_file(dir / "in.bin", data);
    ASSERT_TRUE(run("cat " + quoted(dir / "in.bin") + " | zstd -q -c --long=30 > " + quoted(dir / "c.zst")));
    std::string message;
    int st = status_of([&] { read_array(id, dir / "c.zst", FB_DTYPE_I32, n, {}); }, &message);
    EXPECT_EQ(st, FB_E_UNSUPPORTED) << message;
    EXPECT_NE(message.find("window_log=30"), std::string::npos) << message;
    EXPECT_TRUE(same_bytes(read_array(id, dir / "c.zst", FB_DTYPE_I32, n, {{"window_log", "30"}}), data));
}

TEST(ZstdTool, ConcatenatedFramesAreRefused) {
    // zstd -dc reads concatenated frames as one stream; this plugin reads a
    // file of one frame and says what follows it.
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_U8, 1000);
    write_file(dir / "in.bin", data);
    ASSERT_TRUE(run("zstd -q -c " + quoted(dir / "in.bin") + " > " + quoted(dir / "c.zst")));
    ASSERT_TRUE(run("zstd -q -c " + quoted(dir / "in.bin") + " >> " + quoted(dir / "c.zst")));
    std::string message;
    int st = status_of([&] { read_array(id, dir / "c.zst", FB_DTYPE_U8, 1000, {}); }, &message);
    EXPECT_EQ(st, FB_E_CORRUPT) << message;
    EXPECT_NE(message.find("second frame"), std::string::npos) << message;
    EXPECT_NE(message.find("frames: independent"), std::string::npos) << message;
    // With it, they are 2000 values.
    EXPECT_TRUE(same_bytes(read_array(id, dir / "c.zst", FB_DTYPE_U8, 2000, {{"frames", "independent"}}),
                           concat(data, data)));
}

TEST(ZstdTool, SeekTableKeepsCommandOutputAndReadAtReadsCommandFiles) {
    temp_dir dir;
    const bytes data = counting(at_n);
    // zstd -d skips the seek table: the same bytes as without it.
    for (const char* shuffle : {"false", "true"}) {
        const option_list o = {{"frames", "independent"}, {"frame_size", "64KiB"}, {"shuffle", shuffle}};
        write_array(id, dir / "a.zst", FB_DTYPE_I64, data, o);
        ASSERT_TRUE(run("zstd -q -dc " + quoted(dir / "a.zst") + " > " + quoted(dir / "a.out")));
        const bytes want =
            std::string(shuffle) == "true" ? reference_shuffle(data, 8, std::size_t{1} << 20) : data;
        EXPECT_TRUE(same_bytes(read_file(dir / "a.out"), want));
    }
    // Files without a table, from the command: the frame headers are walked.
    write_file(dir / "in.bin", data);
    write_file(dir / "a.bin", bytes(data.begin(), data.begin() + 1000000));
    write_file(dir / "b.bin", bytes(data.begin() + 1000000, data.end()));
    const option_list o = {{"frames", "independent"}};
    ASSERT_TRUE(run("zstd -q -c " + quoted(dir / "a.bin") + " > " + quoted(dir / "c.zst") +
                    " && zstd -q -c -B4096 " + quoted(dir / "b.bin") + " >> " + quoted(dir / "c.zst")));
    auto r = plugin(id).open_read((dir / "c.zst").string(), FB_DTYPE_I64, at_n, o);
    EXPECT_TRUE(reads_counting(*r, 0, 10));
    EXPECT_TRUE(reads_counting(*r, 1000000 / 8 - 5, 10)); // across the two files' frames
    EXPECT_TRUE(reads_counting(*r, at_n - 7, 7));
    r->close();
    // One frame of the command is one frame: read_at is refused with frames: one.
    ASSERT_TRUE(run("cat " + quoted(dir / "in.bin") + " | zstd -q -c > " + quoted(dir / "p.zst") +
                    " && cat " + quoted(dir / "p.zst") + " " + quoted(dir / "p.zst") + " > " +
                    quoted(dir / "pp.zst")));
    // Frames without a content size (from a pipe): read-at cannot place them.
    auto q = plugin(id).open_read((dir / "pp.zst").string(), FB_DTYPE_I64, 2 * at_n, o);
    std::int64_t v = 0;
    std::string message;
    EXPECT_EQ(status_of([&] { q->read_at(0, &v, 1); }, &message), FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("content size"), std::string::npos) << message;
    q->close();
}

} // namespace

int main(int argc, char** argv) {
    return compress_test::test_main(argc, argv);
}

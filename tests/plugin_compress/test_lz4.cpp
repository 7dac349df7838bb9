// Tests of the lz4 plugin, loaded through the core registry: round trips of
// every dtype, chunked and whole, with and without shuffle; every option at
// its extremes; the frame's structure (FLG and BD flags, content size,
// blocks, checksums) walked by hand from the bytes per the LZ4 frame format
// description; the errors of truncated, damaged, trailing and mislabelled
// files; and (tests named Lz4Tool*, run with --require-tool=lz4) interop
// with the lz4 command both ways.
#include "compress_test_support.hpp"

#include <cerrno>

namespace {

using namespace compress_test;

constexpr const char* id = "lz4";

// The frame as the LZ4 frame format description lays it out (not decoded
// with liblz4): header fields, then each block's size word, data and
// optional checksum, the end mark and the optional content checksum.
struct frame_layout {
    bool ok = false; // the walk ended exactly at the end of the file
    unsigned version = 0;
    bool block_independent = false;
    bool block_checksum = false;
    bool has_content_size = false;
    bool content_checksum = false;
    bool dictionary_id = false;
    unsigned block_size_code = 0; // 4: 64 KiB .. 7: 4 MiB
    std::uint64_t content_size = 0;
    std::size_t blocks = 0;
    std::size_t largest_block = 0; // bytes of data in the largest block
    std::size_t uncompressed_blocks = 0;
};

std::uint32_t le32(const bytes& f, std::size_t at) {
    return std::uint32_t(f[at]) | std::uint32_t(f[at + 1]) << 8 | std::uint32_t(f[at + 2]) << 16 |
           std::uint32_t(f[at + 3]) << 24;
}

frame_layout walk_frame(const bytes& f) {
    frame_layout l;
    if (f.size() < 7 || le32(f, 0) != 0x184D2204) {
        ADD_FAILURE() << "no LZ4 frame magic";
        return l;
    }
    const unsigned flg = f[4], bd = f[5];
    l.version = flg >> 6;
    l.block_independent = (flg >> 5) & 1;
    l.block_checksum = (flg >> 4) & 1;
    l.has_content_size = (flg >> 3) & 1;
    l.content_checksum = (flg >> 2) & 1;
    l.dictionary_id = flg & 1;
    l.block_size_code = (bd >> 4) & 7;
    std::size_t at = 6;
    if (l.has_content_size) {
        for (unsigned i = 0; i < 8; ++i)
            l.content_size |= std::uint64_t(f[at + i]) << (8 * i);
        at += 8;
    }
    if (l.dictionary_id) at += 4;
    at += 1; // header checksum
    for (;;) {
        if (at + 4 > f.size()) return l;
        std::uint32_t word = le32(f, at);
        at += 4;
        if (word == 0) break; // end mark
        std::size_t size = word & 0x7fffffffu;
        if (word & 0x80000000u) ++l.uncompressed_blocks;
        l.largest_block = std::max(l.largest_block, size);
        ++l.blocks;
        at += size + (l.block_checksum ? 4 : 0);
    }
    at += l.content_checksum ? 4 : 0;
    l.ok = at == f.size();
    return l;
}

void check_round_trip(const fs::path& path, fb_dtype d, std::size_t n, const option_list& o,
                      std::size_t write_chunk = 0, std::size_t read_chunk = 0) {
    SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " n=" << n << " chunks " << write_chunk
                                    << "/" << read_chunk);
    bytes data = make_data(d, n);
    write_array(id, path, d, data, o, write_chunk);
    EXPECT_TRUE(same_bytes(read_array(id, path, d, n, o, read_chunk), data));
}

std::size_t block_bytes(const std::string& option) {
    return option == "64KiB"    ? 64 << 10
           : option == "256KiB" ? 256 << 10
           : option == "1MiB"   ? 1 << 20
                                : 4 << 20;
}

// ---- Description and round trips ---------------------------------------------

TEST(Lz4Plugin, Described) {
    const auto& p = plugin(id);
    EXPECT_TRUE(p.has(FB_CAP_LOSSLESS));
    EXPECT_EQ(p.dtypes(), unsigned(FB_DTYPES_ALL));
    std::vector<std::string> names;
    for (const auto& o : p.options()) {
        names.push_back(o.name);
        if (o.name == "level") {
            EXPECT_LT(o.min, 0);  // the accelerated fast mode
            EXPECT_EQ(o.max, 12); // LZ4HC_CLEVEL_MAX
        }
        if (o.name == "block_size") {
            EXPECT_EQ(o.choices, (std::vector<std::string>{"64KiB", "256KiB", "1MiB", "4MiB"}));
        }
    }
    for (const char* want :
         {"level", "block_size", "block_independent", "content_checksum", "block_checksum", "shuffle"})
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

TEST(Lz4Plugin, EveryDtypeWholeAndChunkedWithAndWithoutShuffle) {
    temp_dir dir;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* shuffle : {"false", "true"})
            for (const char* block : {"64KiB", "4MiB"})
                for (auto [w, r] : {std::pair<std::size_t, std::size_t>{0, 0},
                                    {1000, 999},
                                    {7, 4096},
                                    {0, 3},
                                    {70001, 0}}) {
                    SCOPED_TRACE(testing::Message() << "shuffle=" << shuffle << " block_size=" << block);
                    check_round_trip(dir / "a.lz4", d, 100003, {{"shuffle", shuffle}, {"block_size", block}},
                                     w, r);
                }
}

TEST(Lz4Plugin, EmptyAndTinyArrays) {
    temp_dir dir;
    for (const char* shuffle : {"false", "true"})
        for (std::size_t n : {0, 1, 2}) {
            SCOPED_TRACE(testing::Message() << "shuffle=" << shuffle);
            check_round_trip(dir / "a.lz4", FB_DTYPE_F64, n, {{"shuffle", shuffle}});
        }
}

TEST(Lz4Plugin, EveryOptionAtItsExtremes) {
    temp_dir dir;
    const std::vector<option_list> sets = {
        {{"level", "-65536"}},
        {{"level", "-1"}},
        {{"level", "2"}},
        {{"level", "3"}},
        {{"level", "12"}},
        {{"level", "9"}, {"block_independent", "false"}, {"block_size", "64KiB"}},
        {{"block_independent", "false"}},
        {{"block_independent", "false"}, {"shuffle", "true"}, {"block_size", "256KiB"}},
        {{"block_size", "1MiB"}, {"block_checksum", "true"}},
        {{"content_checksum", "false"}},
    };
    for (const auto& o : sets) {
        std::string label;
        for (const auto& [k, v] : o)
            label += k + "=" + v + " ";
        SCOPED_TRACE(label);
        check_round_trip(dir / "a.lz4", FB_DTYPE_F64, 150000, o);
        check_round_trip(dir / "b.lz4", FB_DTYPE_I32, 150000, o, 4097, 1000);
    }
}

TEST(Lz4Plugin, LevelsOrderSizes) {
    // HC at 12 is smaller than fast, and fast smaller than accelerated.
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I32, 300000);
    std::vector<double> sizes;
    for (const char* level : {"-100", "0", "12"}) {
        write_array(id, dir / "a.lz4", FB_DTYPE_I32, data, {{"level", level}});
        sizes.push_back(double(fs::file_size(dir / "a.lz4")));
    }
    EXPECT_GT(sizes[0], sizes[1]);
    EXPECT_GT(sizes[1], sizes[2]);
}

TEST(Lz4Plugin, ShuffleImprovesRatioOnSmoothFloats) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F32, 300000);
    write_array(id, dir / "plain.lz4", FB_DTYPE_F32, data, {});
    write_array(id, dir / "shuf.lz4", FB_DTYPE_F32, data, {{"shuffle", "true"}});
    double plain = double(fs::file_size(dir / "plain.lz4")),
           shuffled = double(fs::file_size(dir / "shuf.lz4"));
    EXPECT_LT(shuffled, plain * 0.95) << "plain " << plain << " bytes, shuffled " << shuffled;
}

// ---- The frame's structure -----------------------------------------------------------

TEST(Lz4Plugin, FrameFlagsBlocksAndContentSize) {
    temp_dir dir;
    const std::size_t n = 100003;
    bytes data = make_data(FB_DTYPE_F64, n);
    for (const char* block : {"64KiB", "256KiB", "1MiB", "4MiB"})
        for (const char* independent : {"true", "false"})
            for (const char* block_checksum : {"false", "true"})
                for (const char* content_checksum : {"true", "false"})
                    for (std::size_t chunk : {std::size_t{0}, std::size_t{4097}}) {
                        SCOPED_TRACE(testing::Message() << block << " independent=" << independent << " bc="
                                                        << block_checksum << " cc=" << content_checksum);
                        write_array(id, dir / "a.lz4", FB_DTYPE_F64, data,
                                    {{"block_size", block},
                                     {"block_independent", independent},
                                     {"block_checksum", block_checksum},
                                     {"content_checksum", content_checksum}},
                                    chunk);
                        frame_layout l = walk_frame(read_file(dir / "a.lz4"));
                        EXPECT_TRUE(l.ok) << "the blocks do not end at the end of the file";
                        EXPECT_EQ(l.version, 1u);
                        EXPECT_EQ(l.block_independent, std::string(independent) == "true");
                        EXPECT_EQ(l.block_checksum, std::string(block_checksum) == "true");
                        EXPECT_EQ(l.content_checksum, std::string(content_checksum) == "true");
                        EXPECT_FALSE(l.dictionary_id);
                        EXPECT_EQ(std::size_t(64) << (10 + 2 * (l.block_size_code - 4)), block_bytes(block));
                        EXPECT_TRUE(l.has_content_size);
                        EXPECT_EQ(l.content_size, n * 8);
                        // Full blocks of the block size: as many as the payload needs.
                        std::size_t b = block_bytes(block);
                        EXPECT_EQ(l.blocks, (n * 8 + b - 1) / b);
                        EXPECT_LE(l.largest_block, b);
                    }
}

TEST(Lz4Plugin, NoContentSizeWhenCountUnknownOrZero) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I64, 20000);
    write_array(id, dir / "a.lz4", FB_DTYPE_I64, data, {}, 3000, FB_COUNT_UNKNOWN);
    frame_layout l = walk_frame(read_file(dir / "a.lz4"));
    EXPECT_TRUE(l.ok);
    EXPECT_FALSE(l.has_content_size);
    EXPECT_TRUE(same_bytes(read_array(id, dir / "a.lz4", FB_DTYPE_I64, 20000, {}, 777), data));
    // LZ4F stores no content size of 0 (0 means "unknown" to it).
    write_array(id, dir / "e.lz4", FB_DTYPE_I64, {}, {});
    l = walk_frame(read_file(dir / "e.lz4"));
    EXPECT_TRUE(l.ok);
    EXPECT_EQ(l.blocks, 0u);
}

// ---- Errors ------------------------------------------------------------------------

class Lz4Errors : public testing::Test {
protected:
    void SetUp() override {
        data_ = make_data(FB_DTYPE_I32, n_);
        write_array(id, dir_ / "good.lz4", FB_DTYPE_I32, data_, {{"block_size", "64KiB"}});
        file_ = read_file(dir_ / "good.lz4");
    }
    int read_status(const bytes& content, std::string* message = nullptr, const option_list& o = {},
                    std::size_t n = 0, std::size_t chunk = 0) {
        write_file(dir_ / "bad.lz4", content);
        return status_of([&] { read_array(id, dir_ / "bad.lz4", FB_DTYPE_I32, n ? n : n_, o, chunk); },
                         message);
    }
    void expect_named(const std::string& message) {
        EXPECT_NE(message.find("bad.lz4"), std::string::npos) << message;
    }

    temp_dir dir_;
    std::size_t n_ = 100000; // 400 kB: seven 64 KiB blocks
    bytes data_, file_;
};

TEST_F(Lz4Errors, Truncated) {
    for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}})
        for (std::size_t keep :
             {file_.size() - 1, file_.size() - 4, file_.size() - 5, file_.size() / 2, std::size_t{1},
              std::size_t{4}, std::size_t{6}, std::size_t{15}, std::size_t{20}}) {
            std::string message;
            bytes cut(file_.begin(), file_.begin() + static_cast<std::ptrdiff_t>(keep));
            EXPECT_EQ(read_status(cut, &message, {}, 0, chunk), FB_E_TRUNCATED)
                << "kept " << keep << ", chunk " << chunk << ": " << message;
            expect_named(message);
        }
}

TEST_F(Lz4Errors, TruncatedShuffledAndWithoutContentSize) {
    option_list o = {{"shuffle", "true"}, {"block_size", "64KiB"}};
    write_array(id, dir_ / "s.lz4", FB_DTYPE_I32, data_, o, 333, FB_COUNT_UNKNOWN);
    bytes file = read_file(dir_ / "s.lz4");
    for (std::size_t keep : {file.size() - 1, file.size() - 5, file.size() / 3}) {
        bytes cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(keep));
        EXPECT_EQ(read_status(cut, nullptr, o), FB_E_TRUNCATED) << "kept " << keep;
    }
}

TEST_F(Lz4Errors, CountMismatch) {
    std::string message;
    EXPECT_EQ(read_status(file_, &message, {}, n_ + 1), FB_E_TRUNCATED);
    EXPECT_NE(message.find("100000 elements"), std::string::npos) << message;
    EXPECT_EQ(read_status(file_, &message, {}, n_ - 1), FB_E_CORRUPT);
    write_array(id, dir_ / "u.lz4", FB_DTYPE_I32, data_, {}, 0, FB_COUNT_UNKNOWN);
    bytes unknown = read_file(dir_ / "u.lz4");
    for (std::size_t chunk : {std::size_t{0}, std::size_t{1000}}) {
        EXPECT_EQ(read_status(unknown, &message, {}, n_ + 1, chunk), FB_E_TRUNCATED)
            << chunk << ": " << message;
        EXPECT_EQ(read_status(unknown, &message, {}, n_ - 1, chunk), FB_E_CORRUPT)
            << chunk << ": " << message;
        EXPECT_NE(message.find("more than"), std::string::npos) << message;
    }
}

TEST_F(Lz4Errors, TrailingGarbageAndSecondFrame) {
    for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}}) {
        std::string message;
        EXPECT_EQ(read_status(concat(file_, bytes{0}), &message, {}, 0, chunk), FB_E_CORRUPT) << message;
        EXPECT_NE(message.find("follow the end"), std::string::npos) << message;
        EXPECT_EQ(read_status(concat(file_, file_), &message, {}, 0, chunk), FB_E_CORRUPT) << message;
        EXPECT_EQ(read_status(concat(file_, file_), &message, {}, 2 * n_, chunk), FB_E_TRUNCATED) << message;
    }
}

TEST_F(Lz4Errors, DamagedBytesAreDetected) {
    expect_flips_detected(file_, 80, 3, [&](const bytes& b, std::string* m, std::size_t chunk) {
        return read_status(b, m, {}, 0, chunk);
    });
    bytes checksum = file_;
    checksum.back() ^= 0x01; // inside the content checksum
    std::string message;
    EXPECT_EQ(read_status(checksum, &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("checksum"), std::string::npos) << message;
}

TEST_F(Lz4Errors, EmptyGarbageAndOtherMagic) {
    std::string message;
    EXPECT_EQ(read_status({}, &message), FB_E_TRUNCATED);
    EXPECT_NE(message.find("empty"), std::string::npos) << message;
    std::mt19937 rng(5);
    bytes garbage(100000);
    for (auto& b : garbage)
        b = static_cast<unsigned char>(rng());
    EXPECT_EQ(read_status(garbage, &message), FB_E_CORRUPT);
    expect_named(message);
    bytes skippable = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4};
    EXPECT_EQ(read_status(concat(skippable, file_), &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("skippable"), std::string::npos) << message;
    bytes legacy = {0x02, 0x21, 0x4c, 0x18, 0, 0, 0, 0};
    EXPECT_EQ(read_status(legacy, &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("legacy"), std::string::npos) << message;
    // A header whose checksum byte is wrong.
    bytes header = file_;
    header[6 + 8] ^= 0xff; // FLG, BD, 8-byte content size, then HC
    EXPECT_EQ(read_status(header, &message), FB_E_CORRUPT) << message;
}

TEST_F(Lz4Errors, MissingFile) {
    std::string message;
    EXPECT_EQ(status_of([&] { read_array(id, dir_ / "nope.lz4", FB_DTYPE_I32, 1, {}); }, &message), FB_E_IO);
    EXPECT_NE(message.find("nope.lz4"), std::string::npos) << message;
}

TEST(Lz4WriteErrors, DiskFullIsReportedWithThePath) {
    ASSERT_TRUE(fs::exists("/dev/full")) << "needs /dev/full";
    bytes data = make_data(FB_DTYPE_F64, 1 << 19);
    std::string message;
    int st = status_of([&] { write_array(id, "/dev/full", FB_DTYPE_F64, data, {}); }, &message);
    EXPECT_EQ(st, FB_E_IO) << message;
    EXPECT_NE(message.find("/dev/full"), std::string::npos) << message;
    EXPECT_NE(message.find(std::strerror(ENOSPC)), std::string::npos) << message;
}

TEST(Lz4WriteErrors, AFailedWriteStaysFailed) {
    ASSERT_TRUE(fs::exists("/dev/full")) << "needs /dev/full";
    expect_sticky_write_failure(id, {});
}

TEST(Lz4WriteErrors, MoreOrFewerThanAnnounced) {
    expect_count_binds(id);
}

// ---- The lz4 command (run with --require-tool=lz4) ----------------------------------

TEST(Lz4Tool, CommandDecodesPluginFiles) {
    temp_dir dir;
    const std::vector<option_list> sets = {
        {},
        {{"level", "-20"}},
        {{"level", "12"}, {"content_checksum", "false"}},
        {{"block_size", "64KiB"}, {"block_independent", "false"}},
        {{"block_size", "256KiB"}, {"block_checksum", "true"}},
        {{"shuffle", "true"}},
        {{"shuffle", "true"}, {"block_size", "64KiB"}, {"block_independent", "false"}},
    };
    for (fb_dtype d : formatbench::all_dtypes)
        for (const auto& o : sets)
            for (std::size_t chunk : {std::size_t{0}, std::size_t{4097}}) {
                SCOPED_TRACE(testing::Message()
                             << formatbench::dtype_name(d) << " chunk " << chunk << " options "
                             << (o.empty() ? "" : o[0].first + "=" + o[0].second));
                const std::size_t n = 200000;
                bytes data = make_data(d, n);
                write_array(id, dir / "a.lz4", d, data, o, chunk);
                ASSERT_TRUE(run("lz4 -q -dc " + quoted(dir / "a.lz4") + " > " + quoted(dir / "a.out")));
                bool shuffle = false;
                std::size_t block = 4 << 20;
                for (const auto& [k, v] : o) {
                    if (k == "shuffle") shuffle = v == "true";
                    if (k == "block_size") block = block_bytes(v);
                }
                bytes want = shuffle ? reference_shuffle(data, esize(d), block) : data;
                EXPECT_TRUE(same_bytes(read_file(dir / "a.out"), want));
            }
}

TEST(Lz4Tool, PluginReadsCommandFiles) {
    temp_dir dir;
    const std::size_t n = 300000; // 2.4 MB of f64
    bytes data = make_data(FB_DTYPE_F64, n);
    write_file(dir / "in.bin", data);
    const std::string in = quoted(dir / "in.bin"), out = quoted(dir / "c.lz4");
    const std::vector<std::string> commands = {
        "lz4 -q -c " + in + " > " + out,                          // no content size, 4 MiB blocks
        "lz4 -q -c --content-size " + in + " > " + out,           //
        "lz4 -q -c --no-frame-crc " + in + " > " + out,           //
        "lz4 -q -c -B4 " + in + " > " + out,                      // 64 KiB blocks: many
        "lz4 -q -c -B4 -BD " + in + " > " + out,                  // linked blocks
        "lz4 -q -c -B5 -BX --content-size " + in + " > " + out,   // block checksums
        "lz4 -q -c -9 -B6 " + in + " > " + out,                   // HC
        "lz4 -q -c --fast=5 " + in + " > " + out,                 // accelerated
        "cat " + in + " | lz4 -q -c -B4 --no-frame-crc > " + out, // from a pipe
    };
    for (const auto& c : commands) {
        SCOPED_TRACE(c);
        ASSERT_TRUE(run(c));
        EXPECT_TRUE(same_bytes(read_array(id, dir / "c.lz4", FB_DTYPE_F64, n, {}), data));
        EXPECT_TRUE(same_bytes(read_array(id, dir / "c.lz4", FB_DTYPE_F64, n, {}, 12345), data));
    }
    ASSERT_TRUE(run("lz4 -q -c -B4 " + in + " > " + out));
    frame_layout l = walk_frame(read_file(dir / "c.lz4"));
    EXPECT_TRUE(l.ok);
    EXPECT_GT(l.blocks, 30u);
    EXPECT_FALSE(l.has_content_size);
}

TEST(Lz4Tool, LegacyAndConcatenatedFramesAreRefused) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_U8, 1000);
    write_file(dir / "in.bin", data);
    ASSERT_TRUE(run("lz4 -q -c -l " + quoted(dir / "in.bin") + " > " + quoted(dir / "l.lz4")));
    std::string message;
    int st = status_of([&] { read_array(id, dir / "l.lz4", FB_DTYPE_U8, 1000, {}); }, &message);
    EXPECT_EQ(st, FB_E_CORRUPT) << message;
    EXPECT_NE(message.find("legacy"), std::string::npos) << message;
    ASSERT_TRUE(run("lz4 -q -c " + quoted(dir / "in.bin") + " > " + quoted(dir / "c.lz4")));
    ASSERT_TRUE(run("lz4 -q -c " + quoted(dir / "in.bin") + " >> " + quoted(dir / "c.lz4")));
    st = status_of([&] { read_array(id, dir / "c.lz4", FB_DTYPE_U8, 1000, {}); }, &message);
    EXPECT_EQ(st, FB_E_CORRUPT) << message;
    EXPECT_NE(message.find("second frame"), std::string::npos) << message;
}

} // namespace

int main(int argc, char** argv) {
    return compress_test::test_main(argc, argv);
}

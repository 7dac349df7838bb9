// Tests of the zlib plugin, loaded through the core registry like the CLI
// loads it: round trips over dtypes, containers, levels, strategies, shuffle,
// threads and chunk sizes; decoding with an independent decoder (zlib's
// inflate here, gzip -dc and python3's zlib when installed); errors on
// truncated, corrupt, garbage, empty and mislabelled files, and ENOSPC.
#include "base/error.hpp"
#include "host/registry.hpp"

#include "common/shuffle.hpp"
#include "compress_test_support.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace compress_test;

const formatbench::plugin& zlib_plugin() {
    return plugin("zlib");
}

int window_bits_for(const std::string& container) {
    if (container == "gzip") return 15 + 16;
    if (container == "deflate") return -15;
    return 15;
}

void write_raw(const fs::path& path, const bytes& b) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// zlib's inflate as the independent decoder; fails the test unless the
// stream ends properly (checksum verified) and nothing but the stream is
// in the file.
bytes inflate_file(const fs::path& path, const std::string& container) {
    bytes in = read_file(path);
    z_stream z{};
    EXPECT_EQ(inflateInit2(&z, window_bits_for(container)), Z_OK);
    bytes out(in.size() * 4 + 1024);
    z.next_in = in.data();
    z.avail_in = static_cast<uInt>(in.size());
    std::size_t produced = 0;
    int rc = Z_OK;
    while (rc == Z_OK) {
        if (produced == out.size()) out.resize(out.size() * 2);
        z.next_out = out.data() + produced;
        z.avail_out = static_cast<uInt>(out.size() - produced);
        rc = inflate(&z, Z_NO_FLUSH);
        produced = out.size() - z.avail_out;
    }
    EXPECT_EQ(rc, Z_STREAM_END) << (z.msg ? z.msg : "") << " in " << path;
    EXPECT_EQ(z.avail_in, 0u) << "bytes after the end of the stream in " << path;
    inflateEnd(&z);
    out.resize(produced);
    return out;
}

// Writes `data` (n elements) in chunks of `chunk` elements.
void write_array(const fs::path& path, fb_dtype d, const bytes& data, const option_list& options,
                 std::size_t chunk = 0) {
    std::size_t n = data.size() / esize(d);
    if (chunk == 0) chunk = n ? n : 1;
    auto w = zlib_plugin().open_write(path.string(), d, n, options);
    for (std::size_t i = 0; i < n; i += chunk)
        w->write(data.data() + i * esize(d), std::min(chunk, n - i));
    if (n == 0) w->write(data.data(), 0);
    w->close();
}

bytes read_array(const fs::path& path, fb_dtype d, std::size_t n, const option_list& options,
                 std::size_t chunk = 0) {
    bytes out(n * esize(d));
    if (chunk == 0) chunk = n ? n : 1;
    auto r = zlib_plugin().open_read(path.string(), d, n, options);
    for (std::size_t i = 0; i < n; i += chunk)
        r->read(out.data() + i * esize(d), std::min(chunk, n - i));
    r->close();
    return out;
}

std::string option_value(const option_list& options, const std::string& name, const std::string& def) {
    for (const auto& [k, v] : options)
        if (k == name) return v;
    return def;
}

// Round trip plus the independent decoder's view of the same file.
void check_round_trip(const fs::path& path, fb_dtype d, std::size_t n, const option_list& options,
                      std::size_t write_chunk = 0, std::size_t read_chunk = 0) {
    SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " n=" << n << " chunks " << write_chunk
                                    << "/" << read_chunk);
    bytes data = make_data(d, n);
    write_array(path, d, data, options, write_chunk);
    EXPECT_EQ(read_array(path, d, n, options, read_chunk), data);

    std::string container = option_value(options, "container", "zlib");
    bytes decoded = inflate_file(path, container);
    bool shuffle = option_value(options, "shuffle", "false") == "true";
    if (shuffle) {
        std::string text = option_value(options, "block_size", "1MiB");
        std::size_t suffix = text.find_first_not_of("0123456789");
        std::size_t block = std::stoul(text);
        if (suffix != std::string::npos) block <<= text[suffix] == 'K' ? 10 : 20; // "16KiB", "1MiB"
        EXPECT_TRUE(decoded == reference_shuffle(data, esize(d), block)) << "shuffled layout differs";
    } else {
        EXPECT_TRUE(decoded == data) << "independent decoding differs";
    }
}

// ---- Round trips ---------------------------------------------------------------

TEST(ZlibPlugin, Described) {
    const auto& p = zlib_plugin();
    EXPECT_TRUE(p.has(FB_CAP_LOSSLESS));
    EXPECT_EQ(p.dtypes(), FB_DTYPES_ALL);
    bool has_shuffle = false;
    for (const auto& o : p.options())
        if (o.name == "shuffle") has_shuffle = o.help.find("no longer") != std::string::npos;
    EXPECT_TRUE(has_shuffle) << "the shuffle option's help must say the stream is no plain array";
}

TEST(ZlibPlugin, EveryDtypeContainerShuffleThreads) {
    temp_dir dir;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* container : {"zlib", "gzip", "deflate"})
            for (const char* shuffle : {"false", "true"})
                for (const char* threads : {"1", "2", "3"}) {
                    SCOPED_TRACE(testing::Message()
                                 << container << " shuffle=" << shuffle << " threads=" << threads);
                    // 5000 bytes per block: not a multiple of 8 (rounds down), and
                    // an odd number of blocks with a partial last one.
                    option_list o = {{"container", container},
                                     {"shuffle", shuffle},
                                     {"threads", threads},
                                     {"block_size", "5000"},
                                     {"level", "1"}};
                    check_round_trip(dir / "a.z", d, 33333, o);
                }
}

TEST(ZlibPlugin, Levels) {
    temp_dir dir;
    for (const char* level : {"0", "1", "9"})
        for (const char* threads : {"1", "2"})
            for (const char* shuffle : {"false", "true"}) {
                SCOPED_TRACE(testing::Message() << "level=" << level << " threads=" << threads);
                option_list o = {
                    {"level", level}, {"threads", threads}, {"shuffle", shuffle}, {"block_size", "65536"}};
                check_round_trip(dir / "a.z", FB_DTYPE_F64, 100000, o);
            }
}

TEST(ZlibPlugin, StrategiesAndMemLevels) {
    temp_dir dir;
    for (const char* strategy : {"default", "filtered", "huffman", "rle", "fixed"})
        for (const char* container : {"zlib", "gzip"})
            for (const char* threads : {"1", "2"}) {
                SCOPED_TRACE(testing::Message() << strategy << " " << container << " threads=" << threads);
                option_list o = {{"strategy", strategy},
                                 {"container", container},
                                 {"threads", threads},
                                 {"mem_level", "1"},
                                 {"block_size", "16KiB"}};
                check_round_trip(dir / "a.z", FB_DTYPE_I32, 20000, o);
                o.back() = {"mem_level", "9"};
                o.push_back({"block_size", "16384"});
                check_round_trip(dir / "a.z", FB_DTYPE_I32, 20000, o);
            }
}

TEST(ZlibPlugin, ChunkedWritesAndReads) {
    temp_dir dir;
    for (const char* threads : {"1", "2", "3"})
        for (const char* shuffle : {"false", "true"})
            for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{4096}}) {
                SCOPED_TRACE(testing::Message() << "threads=" << threads << " shuffle=" << shuffle);
                option_list o = {
                    {"threads", threads}, {"shuffle", shuffle}, {"block_size", "4096"}, {"level", "1"}};
                check_round_trip(dir / "a.z", FB_DTYPE_F64, 20011, o, chunk, chunk == 1 ? 3 : chunk + 5);
                check_round_trip(dir / "b.z", FB_DTYPE_F32, 20011, o, chunk + 1, 999);
            }
}

TEST(ZlibPlugin, EmptyAndTinyArrays) {
    temp_dir dir;
    for (const char* container : {"zlib", "gzip", "deflate"})
        for (const char* threads : {"1", "2"})
            for (const char* shuffle : {"false", "true"})
                for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
                    option_list o = {{"container", container}, {"threads", threads}, {"shuffle", shuffle}};
                    check_round_trip(dir / "a.z", FB_DTYPE_F64, n, o);
                }
}

TEST(ZlibPlugin, ExactBlockMultiple) {
    // The data ends exactly at a block boundary: the last block is empty.
    temp_dir dir;
    for (const char* threads : {"1", "2"}) {
        option_list o = {{"threads", threads}, {"shuffle", "true"}, {"block_size", "8192"}};
        check_round_trip(dir / "a.z", FB_DTYPE_F64, 4 * 1024, o, 1024);
    }
}

TEST(ZlibPlugin, PrefixReadIsNotAnError) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I64, 10000);
    write_array(dir / "a.z", FB_DTYPE_I64, data, {});
    bytes half = read_array(dir / "a.z", FB_DTYPE_I64, 5000, {});
    EXPECT_TRUE(std::equal(half.begin(), half.end(), data.begin()));
}

TEST(ZlibPlugin, ConcatenatedGzipMembers) {
    // gzip -dc reads concatenated members as one; so does the reader.
    temp_dir dir;
    bytes a = make_data(FB_DTYPE_F64, 3000, 1), b = make_data(FB_DTYPE_F64, 2000, 2);
    write_array(dir / "a.gz", FB_DTYPE_F64, a, {{"container", "gzip"}});
    write_array(dir / "b.gz", FB_DTYPE_F64, b,
                {{"container", "gzip"}, {"threads", "2"}, {"block_size", "4k"}});
    bytes both = read_file(dir / "a.gz"), tail = read_file(dir / "b.gz");
    both.insert(both.end(), tail.begin(), tail.end());
    write_raw(dir / "ab.gz", both);
    bytes expect = a;
    expect.insert(expect.end(), b.begin(), b.end());
    EXPECT_EQ(read_array(dir / "ab.gz", FB_DTYPE_F64, 5000, {{"container", "gzip"}}), expect);
}

// ---- Independent tools -------------------------------------------------------

TEST(ZlibPlugin, GzipToolReadsGzipContainer) {
    ASSERT_TRUE(have_tool("gzip"))
        << "gzip (an essential Debian package) is needed as the independent decoder";
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F64, 100000);
    for (const char* threads : {"1", "2", "3"}) {
        write_array(dir / "a.gz", FB_DTYPE_F64, data,
                    {{"container", "gzip"}, {"threads", threads}, {"block_size", "32KiB"}}, 777);
        std::string cmd = "gzip -dc '" + (dir / "a.gz").string() + "' > '" + (dir / "a.out").string() + "'";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
        EXPECT_TRUE(read_file(dir / "a.out") == data) << "gzip -dc output differs, threads=" << threads;
        // gzip -t checks the crc32 and ISIZE the parallel writer computes.
        cmd = "gzip -t '" + (dir / "a.gz").string() + "'";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
}

TEST(ZlibPlugin, PythonZlibReadsZlibContainer) {
    ASSERT_TRUE(have_tool("python3") && std::system("python3 -c 'import zlib' >/dev/null 2>&1") == 0)
        << "python3 with its zlib module is needed as the independent decoder";
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I32, 100000);
    for (const char* threads : {"1", "2", "3"}) {
        write_array(dir / "a.zz", FB_DTYPE_I32, data, {{"threads", threads}, {"block_size", "32KiB"}}, 1001);
        std::string cmd = "python3 -c 'import sys, zlib; "
                          "sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], \"rb\").read()))' '" +
                          (dir / "a.zz").string() + "' > '" + (dir / "a.out").string() + "'";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
        EXPECT_TRUE(read_file(dir / "a.out") == data) << "python3 zlib output differs, threads=" << threads;
    }
}

TEST(ZlibPlugin, ParallelOutputIsOneStreamOfSimilarSize) {
    // Same payload, one thread and four: both decode with uncompress, and
    // the dictionary priming keeps the parallel file within 1% in size.
    temp_dir dir;
    std::size_t n = 200000;
    bytes data(n * 8);
    for (std::size_t i = 0; i < n; ++i) {
        double x = std::sin(0.0003 * double(i));
        std::memcpy(data.data() + 8 * i, &x, 8);
    }
    write_array(dir / "one.zz", FB_DTYPE_F64, data, {});
    write_array(dir / "four.zz", FB_DTYPE_F64, data, {{"threads", "4"}});
    for (const char* name : {"one.zz", "four.zz"}) {
        bytes file = read_file(dir / name);
        bytes out(data.size());
        uLongf out_len = static_cast<uLongf>(out.size());
        ASSERT_EQ(uncompress(out.data(), &out_len, file.data(), static_cast<uLong>(file.size())), Z_OK)
            << name;
        EXPECT_EQ(out_len, data.size());
        EXPECT_TRUE(out == data);
    }
    double one = double(fs::file_size(dir / "one.zz")), four = double(fs::file_size(dir / "four.zz"));
    EXPECT_LT(four, one * 1.01) << "one thread " << one << " bytes, four threads " << four;
}

// ---- Shuffle -------------------------------------------------------------------

TEST(ZlibPlugin, ShuffleImprovesRatioOnUniformDoubles) {
    temp_dir dir;
    std::size_t n = 200000;
    bytes data = make_data(FB_DTYPE_F64, n);
    write_array(dir / "plain.zz", FB_DTYPE_F64, data, {});
    write_array(dir / "shuf.zz", FB_DTYPE_F64, data, {{"shuffle", "true"}});
    double payload = double(data.size());
    double plain = payload / double(fs::file_size(dir / "plain.zz"));
    double shuffled = payload / double(fs::file_size(dir / "shuf.zz"));
    RecordProperty("ratio_plain", std::to_string(plain));
    RecordProperty("ratio_shuffle", std::to_string(shuffled));
    EXPECT_GT(shuffled, plain * 1.07) << "ratio without shuffle " << plain << ", with " << shuffled;
}

TEST(ZlibPlugin, SimdShuffleMatchesDefinition) {
    std::mt19937 rng(7);
    for (std::size_t es : {1, 2, 3, 4, 8, 16})
        for (std::size_t n = 0; n < 200; ++n) {
            bytes a(n * es), fast(n * es), slow(n * es), back(n * es);
            for (auto& x : a)
                x = static_cast<unsigned char>(rng());
            formatbench::detail::shuffle_bytes(a.data(), fast.data(), n, es);
            formatbench::detail::shuffle_bytes_scalar(a.data(), slow.data(), n, es);
            ASSERT_EQ(fast, slow) << "es=" << es << " n=" << n;
            ASSERT_EQ(slow, reference_shuffle(a, es, n * es)) << "es=" << es << " n=" << n;
            formatbench::detail::unshuffle_bytes(fast.data(), back.data(), n, es);
            ASSERT_EQ(back, a) << "es=" << es << " n=" << n;
        }
}

// ---- Errors --------------------------------------------------------------------

class ZlibErrors : public testing::Test {
protected:
    void SetUp() override {
        data_ = make_data(FB_DTYPE_F64, n_);
        write_array(dir_ / "good.zz", FB_DTYPE_F64, data_, {{"level", "1"}});
        file_ = read_file(dir_ / "good.zz");
    }
    int read_status(const bytes& content, std::string* message = nullptr, const option_list& o = {},
                    std::size_t n = 0) {
        write_raw(dir_ / "bad.zz", content);
        bytes out;
        return status_of([&] { out = read_array(dir_ / "bad.zz", FB_DTYPE_F64, n ? n : n_, o, 4096); },
                         message);
    }

    temp_dir dir_;
    std::size_t n_ = 50000;
    bytes data_, file_;
};

TEST_F(ZlibErrors, Truncated) {
    for (std::size_t keep : {file_.size() - 1, file_.size() - 4, file_.size() / 2, std::size_t{1},
                             std::size_t{2}, std::size_t{3}}) {
        std::string message;
        bytes cut(file_.begin(), file_.begin() + static_cast<std::ptrdiff_t>(keep));
        EXPECT_EQ(read_status(cut, &message), FB_E_TRUNCATED) << "kept " << keep << ": " << message;
        EXPECT_NE(message.find("bad.zz"), std::string::npos) << message;
    }
}

TEST_F(ZlibErrors, TruncatedParallelAndShuffled) {
    option_list o = {{"threads", "2"}, {"shuffle", "true"}, {"block_size", "8k"}, {"container", "gzip"}};
    write_array(dir_ / "p.gz", FB_DTYPE_F64, data_, o, 333);
    bytes file = read_file(dir_ / "p.gz");
    for (std::size_t keep : {file.size() - 1, file.size() - 8, file.size() / 3}) {
        bytes cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(keep));
        EXPECT_EQ(read_status(cut, nullptr, o), FB_E_TRUNCATED) << "kept " << keep;
    }
}

TEST_F(ZlibErrors, FewerElementsThanRequested) {
    std::string message;
    EXPECT_EQ(read_status(file_, &message, {}, n_ + 1), FB_E_TRUNCATED);
    EXPECT_NE(message.find("50000 elements"), std::string::npos) << message;
    option_list o = {{"shuffle", "true"}};
    write_array(dir_ / "s.zz", FB_DTYPE_F64, data_, o);
    EXPECT_EQ(read_status(read_file(dir_ / "s.zz"), nullptr, o, n_ + 3), FB_E_TRUNCATED);
}

TEST_F(ZlibErrors, CorruptChecksum) {
    bytes bad = file_;
    bad[bad.size() - 2] ^= 0x40; // inside the adler32 trailer
    std::string message;
    EXPECT_EQ(read_status(bad, &message), FB_E_CORRUPT) << message;
    EXPECT_NE(message.find("bad.zz"), std::string::npos) << message;
}

TEST_F(ZlibErrors, CorruptBytesNeverCrashOrHang) {
    // Any damage must end in CORRUPT or TRUNCATED (a flip in a literal is
    // only caught by the checksum, which the reader verifies at the end).
    std::mt19937 rng(3);
    for (int trial = 0; trial < 60; ++trial) {
        bytes bad = file_;
        std::size_t at = 2 + rng() % (bad.size() - 2);
        bad[at] ^= static_cast<unsigned char>(1u << (rng() % 8));
        int st = read_status(bad);
        EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED) << "flip at " << at << ": status " << st;
    }
    bytes header = file_;
    header[0] = 0x12;
    EXPECT_EQ(read_status(header), FB_E_CORRUPT);
}

TEST_F(ZlibErrors, Garbage) {
    std::mt19937 rng(5);
    for (const char* container : {"zlib", "gzip", "deflate"}) {
        bytes garbage(100000);
        for (auto& b : garbage)
            b = static_cast<unsigned char>(rng());
        int st = read_status(garbage, nullptr, {{"container", container}});
        EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED) << container << ": status " << st;
        bytes text(5000, 'a');
        st = read_status(text, nullptr, {{"container", container}});
        EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED) << container << ": status " << st;
    }
}

TEST_F(ZlibErrors, Empty) {
    std::string message;
    for (const char* container : {"zlib", "gzip", "deflate"}) {
        EXPECT_EQ(read_status({}, &message, {{"container", container}}), FB_E_TRUNCATED) << container;
        EXPECT_NE(message.find("empty"), std::string::npos) << message;
    }
}

TEST_F(ZlibErrors, WrongContainer) {
    write_array(dir_ / "g.gz", FB_DTYPE_F64, data_, {{"container", "gzip"}});
    std::string message;
    EXPECT_EQ(read_status(read_file(dir_ / "g.gz"), &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("container=gzip"), std::string::npos) << message;
    EXPECT_EQ(read_status(file_, &message, {{"container", "gzip"}}), FB_E_CORRUPT);
    EXPECT_NE(message.find("container=zlib"), std::string::npos) << message;
    EXPECT_EQ(read_status(file_, &message, {{"container", "deflate"}}), FB_E_CORRUPT);
    EXPECT_NE(message.find("container=zlib"), std::string::npos) << message;
}

TEST_F(ZlibErrors, MissingFile) {
    std::string message;
    EXPECT_EQ(status_of([&] { read_array(dir_ / "nope.zz", FB_DTYPE_F64, 1, {}); }, &message), FB_E_IO);
    EXPECT_NE(message.find("nope.zz"), std::string::npos) << message;
}

TEST(ZlibWriteErrors, DiskFullIsReportedWithThePath) {
    ASSERT_TRUE(fs::exists("/dev/full")) << "needs /dev/full";
    bytes data = make_data(FB_DTYPE_F64, 1 << 19);
    for (const char* threads : {"1", "2"}) {
        std::string message;
        int st = status_of(
            [&] {
                auto w = zlib_plugin().open_write("/dev/full", FB_DTYPE_F64, 1 << 19,
                                                  {{"threads", threads}, {"level", "0"}});
                w->write(data.data(), 1 << 19);
                w->close();
            },
            &message);
        EXPECT_EQ(st, FB_E_IO) << message;
        EXPECT_NE(message.find("/dev/full"), std::string::npos) << message;
        EXPECT_NE(message.find(std::strerror(ENOSPC)), std::string::npos) << message;
    }
}

TEST(ZlibWriteErrors, AFailedWriteStaysFailed) {
    ASSERT_TRUE(fs::exists("/dev/full")) << "needs /dev/full";
    expect_sticky_write_failure("zlib", {{"level", "0"}});
}

TEST(ZlibWriteErrors, NothingLeftWhenOpenFails) {
    temp_dir dir;
    fs::path path = dir / "a.zz";
    int st = status_of([&] { zlib_plugin().open_write(path.string(), FB_DTYPE_F64, 10, {{"level", "12"}}); });
    EXPECT_EQ(st, FB_E_INVALID_OPTION);
    EXPECT_FALSE(fs::exists(path));
    std::string message;
    st = status_of(
        [&] { zlib_plugin().open_write((dir / "no/such/dir/a.zz").string(), FB_DTYPE_F64, 10, {}); },
        &message);
    EXPECT_EQ(st, FB_E_IO);
    EXPECT_NE(message.find("no/such/dir"), std::string::npos) << message;
}

} // namespace

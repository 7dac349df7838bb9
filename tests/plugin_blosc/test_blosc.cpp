// Tests of the blosc plugin, loaded through the core registry: round trips
// of every dtype with every codec and shuffle, in odd write and read sizes
// and with the count unknown at open; the container's header and each
// chunk's length and Blosc header read by hand from the bytes, per the
// plugin's README and Blosc's chunk format (not through the plugin's code);
// truncated, damaged, trailing and mislabelled files refused with their
// status; options refused with messages that name them; the count binding
// the writer; a failed write staying failed.
#include "plugin_test.hpp"

#include <sched.h>

namespace {

using namespace plugin_test;

const std::string id = "blosc";
const char* const codecs[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd"};
const char* const shuffles[] = {"none", "byte", "bit"};

std::uint32_t le32(const bytes& f, std::size_t at) {
    return std::uint32_t(f[at]) | std::uint32_t(f[at + 1]) << 8 | std::uint32_t(f[at + 2]) << 16 |
           std::uint32_t(f[at + 3]) << 24;
}

std::uint64_t le64(const bytes& f, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | f[at + static_cast<std::size_t>(i)];
    return v;
}

// The container as README.md lays it out, walked from the bytes.
struct layout {
    bool ok = false; // the walk ended exactly at the end of the file
    std::string magic;
    std::uint32_t version = 0;
    unsigned dtype = 0, element_size = 0;
    std::uint64_t count = 0, chunk_bytes = 0, chunk_count = 0;
    std::vector<std::size_t> starts;       // each chunk's length field
    std::vector<std::uint32_t> lengths;    // the length fields
    std::vector<std::uint32_t> nbytes;     // Blosc header: decoded bytes
    std::vector<std::uint32_t> cbytes;     // Blosc header: compressed bytes
    std::vector<unsigned> flags, typesize; // Blosc header bytes 2 and 3
};

layout walk(const bytes& f) {
    layout l;
    if (f.size() < 40) return l;
    l.magic.assign(f.begin(), f.begin() + 8);
    l.version = le32(f, 8);
    l.dtype = f[12];
    l.element_size = f[13];
    l.count = le64(f, 16);
    l.chunk_bytes = le64(f, 24);
    l.chunk_count = le64(f, 32);
    std::size_t at = 40;
    for (std::uint64_t i = 0; i < l.chunk_count; ++i) {
        if (at + 4 + 16 > f.size()) return l;
        l.starts.push_back(at);
        l.lengths.push_back(le32(f, at));
        l.flags.push_back(f[at + 4 + 2]);
        l.typesize.push_back(f[at + 4 + 3]);
        l.nbytes.push_back(le32(f, at + 4 + 4));
        l.cbytes.push_back(le32(f, at + 4 + 12));
        at += 4 + l.lengths.back();
    }
    l.ok = at == f.size();
    return l;
}

void check_round_trip(const std::string& path, fb_dtype d, std::size_t n, const option_list& o,
                      std::size_t write_chunk = 0, std::size_t read_chunk = 0, bool count_unknown = false) {
    SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << " n=" << n << " chunks " << write_chunk
                                    << "/" << read_chunk << (count_unknown ? " count unknown" : ""));
    const bytes data = make_data(d, n);
    write_array(id, path, d, data, o, write_chunk, count_unknown);
    const bytes got = read_array(id, path, d, n, o, read_chunk);
    EXPECT_EQ(first_difference(got, data, esize(d)), "");
}

int cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

// ---- Description and round trips ---------------------------------------------

TEST(BloscPlugin, Described) {
    const auto& p = plugin(id);
    EXPECT_TRUE(p.has(FB_CAP_LOSSLESS));
    EXPECT_TRUE(p.has(FB_CAP_SELF_DESCRIBING));
    EXPECT_EQ(p.dtypes(), unsigned(FB_DTYPES_ALL));
    std::vector<std::string> names;
    for (const auto& o : p.options()) {
        names.push_back(o.name);
        if (o.name == "codec") {
            EXPECT_EQ(o.choices, (std::vector<std::string>{"blosclz", "lz4", "lz4hc", "zlib", "zstd"}));
        }
        if (o.name == "shuffle") {
            EXPECT_EQ(o.choices, (std::vector<std::string>{"none", "byte", "bit"}));
        }
        if (o.name == "threads") {
            EXPECT_EQ(o.default_value, "1");
        }
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"codec", "level", "shuffle", "block_size", "threads", "chunk_size"}));
}

TEST(BloscPlugin, EveryDtypeCodecAndShuffleInOddSizes) {
    temp_dir dir;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* codec : codecs)
            for (const char* shuffle : shuffles) {
                SCOPED_TRACE(testing::Message() << "codec=" << codec << " shuffle=" << shuffle);
                // 4 KiB chunks: many of them, the last one short for every dtype.
                const option_list o{{"codec", codec}, {"shuffle", shuffle}, {"chunk_size", "4KiB"}};
                check_round_trip(dir / "a.blosc", d, 10007, o, 333, 1000);
                check_round_trip(dir / "a.blosc", d, 10007, o, 0, 0);
                check_round_trip(dir / "a.blosc", d, 10007, o, 1, 4097, true);
            }
}

TEST(BloscPlugin, LevelsBlockSizesThreadsAndChunkSizes) {
    temp_dir dir;
    const std::string threads = cpus() >= 2 ? "2" : "1";
    for (const option_list& o : std::vector<option_list>{{{"level", "0"}},
                                                         {{"level", "9"}, {"codec", "zstd"}},
                                                         {{"block_size", "128"}},
                                                         {{"block_size", "1"}},
                                                         {{"block_size", "64KiB"}, {"chunk_size", "1MiB"}},
                                                         {{"threads", threads}, {"chunk_size", "1MiB"}},
                                                         {{"threads", "0"}, {"codec", "lz4"}},
                                                         {{"chunk_size", "1KiB"}},
                                                         {{"chunk_size", "1001"}}}) {
        SCOPED_TRACE(testing::Message() << o.front().first << "=" << o.front().second);
        for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_U8}) {
            check_round_trip(dir / "a.blosc", d, 300001, o, 70001, 65536);
            check_round_trip(dir / "a.blosc", d, 300001, o, 0, 0, true);
        }
    }
}

TEST(BloscPlugin, EmptyAndTinyArrays) {
    temp_dir dir;
    for (std::size_t n : {0, 1, 2})
        for (bool unknown : {false, true}) {
            check_round_trip(dir / "a.blosc", FB_DTYPE_F64, n, {}, 0, 0, unknown);
            const layout l = walk(file_bytes(dir / "a.blosc"));
            EXPECT_TRUE(l.ok);
            EXPECT_EQ(l.count, n);
            EXPECT_EQ(l.chunk_count, n ? 1u : 0u);
        }
}

// ---- The bytes ---------------------------------------------------------------

TEST(BloscPlugin, HeaderAndChunksReadByHand) {
    temp_dir dir;
    // 1000 f32 values in chunks of 1000 bytes (250 values): 4 chunks.
    const bytes data = make_data(FB_DTYPE_F32, 1000);
    write_array(id, dir / "a.blosc", FB_DTYPE_F32, data, {{"chunk_size", "1000"}}, 77);
    const bytes f = file_bytes(dir / "a.blosc");
    const layout l = walk(f);
    ASSERT_TRUE(l.ok);
    EXPECT_EQ(l.magic, std::string("FBBLOSC\n"));
    EXPECT_EQ(l.version, 1u);
    EXPECT_EQ(l.dtype, 2u); // FB_DTYPE_F32
    EXPECT_EQ(l.element_size, 4u);
    EXPECT_EQ(f[14], 0);
    EXPECT_EQ(f[15], 0);
    EXPECT_EQ(l.count, 1000u);
    EXPECT_EQ(l.chunk_bytes, 1000u);
    ASSERT_EQ(l.chunk_count, 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(l.nbytes[i], 1000u) << i;
        EXPECT_EQ(l.cbytes[i], l.lengths[i]) << i; // the length field is the Blosc chunk's own cbytes
        EXPECT_EQ(l.typesize[i], 4u) << i;
        EXPECT_EQ(f[l.starts[i] + 4], 2) << i; // Blosc format version 2 (libblosc 1.x)
    }
    // chunk_size is rounded down to whole elements: 1001 bytes of f64 are
    // 125 values; 300 values then need 3 chunks, the last of 50 values.
    write_array(id, dir / "b.blosc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 300), {{"chunk_size", "1001"}});
    const layout b = walk(file_bytes(dir / "b.blosc"));
    ASSERT_TRUE(b.ok);
    EXPECT_EQ(b.chunk_bytes, 1000u);
    ASSERT_EQ(b.chunk_count, 3u);
    EXPECT_EQ(b.nbytes, (std::vector<std::uint32_t>{1000, 1000, 400}));
    // The count unknown at open: the header is completed at close.
    write_array(id, dir / "c.blosc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 300), {{"chunk_size", "1000"}}, 7,
                true);
    const layout c = walk(file_bytes(dir / "c.blosc"));
    ASSERT_TRUE(c.ok);
    EXPECT_EQ(c.count, 300u);
    EXPECT_EQ(c.chunk_count, 3u);
}

TEST(BloscPlugin, CompressedBytesAreTheFileSizeOnBothSides) {
    // The file's size on disk, from the file system: what the write and the
    // read of the whole array report as compressed_bytes (one byte more or
    // less would show a ratio that is not the file's, and an io MB/s off).
    temp_dir dir;
    const bytes data = make_data(FB_DTYPE_F32, 1000);
    const option_list o = {{"chunk_size", "1000"}};
    auto w = plugin(id).open_write(dir / "a.blosc", FB_DTYPE_F32, 1000, o);
    w->write(data.data(), 1000);
    w->close();
    const auto size = static_cast<double>(fs::file_size(dir / "a.blosc"));
    auto metric = [](const formatbench::metric_list& m) {
        for (const auto& [name, value] : m)
            if (name == "compressed_bytes") return value;
        return -1.0;
    };
    EXPECT_EQ(metric(w->metrics()), size);
    auto r = plugin(id).open_read(dir / "a.blosc", FB_DTYPE_F32, 1000, o);
    bytes got(data.size());
    r->read(got.data(), 1000);
    r->close();
    EXPECT_EQ(metric(r->metrics()), size);
    EXPECT_EQ(got, data);
}

TEST(BloscPlugin, ChunkFlagsFollowCodecAndShuffle) {
    // Blosc's chunk format: flags bit 0 byte shuffle, bit 2 bitshuffle (bit
    // 1 marks a chunk stored uncompressed, where the filter does not
    // apply); bits 5-7 the codec's format: 0 BloscLZ, 1 LZ4 (and LZ4HC),
    // 3 zlib, 4 Zstd.
    temp_dir dir;
    const bytes data = make_data(FB_DTYPE_I32, 20000);
    // A smooth ramp, so that every codec compresses and no chunk is stored.
    bytes ramp(data.size());
    for (std::size_t i = 0; i < 20000; ++i) {
        std::int32_t v = static_cast<std::int32_t>(i / 4);
        std::memcpy(ramp.data() + 4 * i, &v, 4);
    }
    const std::pair<const char*, unsigned> formats[] = {
        {"blosclz", 0}, {"lz4", 1}, {"lz4hc", 1}, {"zlib", 3}, {"zstd", 4}};
    for (auto [codec, format] : formats)
        for (const char* shuffle : shuffles) {
            SCOPED_TRACE(testing::Message() << codec << " " << shuffle);
            write_array(id, dir / "a.blosc", FB_DTYPE_I32, ramp, {{"codec", codec}, {"shuffle", shuffle}});
            const layout l = walk(file_bytes(dir / "a.blosc"));
            ASSERT_TRUE(l.ok);
            ASSERT_EQ(l.chunk_count, 1u);
            const unsigned flags = l.flags[0];
            EXPECT_EQ(flags & 2u, 0u) << "stored uncompressed";
            EXPECT_EQ(flags >> 5, format);
            EXPECT_EQ((flags & 1u) != 0, std::string(shuffle) == "byte");
            EXPECT_EQ((flags & 4u) != 0, std::string(shuffle) == "bit");
            EXPECT_LT(l.lengths[0], 80000u);
        }
}

// ---- Refused files -------------------------------------------------------------

// A file of 4 chunks of 250 f32 values.
bytes sample_file(const temp_dir& dir) {
    write_array(id, dir / "good.blosc", FB_DTYPE_F32, make_data(FB_DTYPE_F32, 1000),
                {{"chunk_size", "1000"}});
    return file_bytes(dir / "good.blosc");
}

int read_status(const temp_dir& dir, const bytes& file, std::string* message, fb_dtype d = FB_DTYPE_F32,
                std::size_t n = 1000, std::size_t chunk = 0) {
    put_file(dir / "bad.blosc", file);
    return status_of([&] { read_array(id, dir / "bad.blosc", d, n, {}, chunk); }, message);
}

TEST(BloscPlugin, TruncatedFilesAreTruncated) {
    temp_dir dir;
    const bytes good = sample_file(dir);
    for (std::size_t cut = 0; cut < good.size(); ++cut) {
        std::string message;
        const bytes bad(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
        EXPECT_EQ(read_status(dir, bad, &message, FB_DTYPE_F32, 1000, cut % 2 ? 300 : 0), FB_E_TRUNCATED)
            << "cut at " << cut << ": " << message;
        EXPECT_NE(message.find("bad.blosc"), std::string::npos) << message;
    }
}

TEST(BloscPlugin, BadHeadersAndChunksAreRefused) {
    temp_dir dir;
    const bytes good = sample_file(dir);
    const layout l = walk(good);
    ASSERT_TRUE(l.ok);
    auto expect = [&](bytes bad, int status, const std::string& text, fb_dtype d = FB_DTYPE_F32,
                      std::size_t n = 1000) {
        std::string message;
        EXPECT_EQ(read_status(dir, bad, &message, d, n), status) << text << ": " << message;
        EXPECT_NE(message.find(text), std::string::npos) << message;
        EXPECT_NE(message.find("blosc: "), std::string::npos) << message;
        EXPECT_NE(message.find("bad.blosc"), std::string::npos) << message;
    };
    bytes b = good;
    b[0] = 'X';
    expect(b, FB_E_CORRUPT, "magic");
    expect(bytes{'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'}, FB_E_CORRUPT, "magic");
    b = good;
    b[8] = 2;
    expect(b, FB_E_UNSUPPORTED, "container version 2");
    b = good;
    b[12] = 9;
    expect(b, FB_E_CORRUPT, "dtype code 9");
    b = good;
    b[13] = 8;
    expect(b, FB_E_CORRUPT, "element size 8");
    b = good;
    b[14] = 1;
    expect(b, FB_E_CORRUPT, "reserved");
    b = good;
    b[24] = 0xe9; // chunk size 1001: not whole f32 values
    expect(b, FB_E_CORRUPT, "chunk size of 1001");
    b = good;
    b[32] = 5;
    expect(b, FB_E_CORRUPT, "5 chunks");
    // Asked for another dtype or count.
    expect(good, FB_E_CORRUPT, "holds f32 values, i32 were asked for", FB_DTYPE_I32);
    expect(good, FB_E_TRUNCATED, "holds 1000 elements", FB_DTYPE_F32, 1001);
    expect(good, FB_E_CORRUPT, "holds 1000 elements", FB_DTYPE_F32, 999);
    // A chunk length Blosc's header contradicts, or one larger than a chunk can be.
    b = good;
    b[l.starts[1]] ^= 1;
    expect(b, FB_E_CORRUPT, "chunk 1 of 4");
    b = good;
    b[l.starts[2] + 3] = 0x7f;
    expect(b, FB_E_CORRUPT, "chunk 2 of 4 has a length");
    // A chunk that decodes to another size than its place needs.
    b = good;
    b[l.starts[0] + 4 + 4] ^= 8;
    expect(b, FB_E_CORRUPT, "chunk 0 of 4");
    // One byte after the last chunk.
    b = good;
    b.push_back(0);
    expect(b, FB_E_CORRUPT, "bytes follow its last chunk");
    // Reading past the count at open.
    std::string message;
    put_file(dir / "bad.blosc", good);
    EXPECT_EQ(status_of(
                  [&] {
                      auto r = plugin(id).open_read(dir / "bad.blosc", FB_DTYPE_F32, 1000, {});
                      bytes out(4004);
                      r->read(out.data(), 1001);
                  },
                  &message),
              FB_E_TRUNCATED)
        << message;
    EXPECT_NE(message.find("goes past"), std::string::npos) << message;
}

TEST(BloscPlugin, EveryFlippedStructuralBitIsRefused) {
    // Every bit of the header, of each chunk's length and of the size
    // fields of each Blosc header (nbytes, cbytes): refused, never read as
    // data. (Blosc 1 chunks carry no checksum, so a flip in compressed data
    // may decode to other values: README.md says so.)
    temp_dir dir;
    const bytes good = sample_file(dir);
    const layout l = walk(good);
    ASSERT_TRUE(l.ok);
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < 40; ++i)
        positions.push_back(i);
    for (std::size_t s : l.starts)
        for (std::size_t i : {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19})
            positions.push_back(s + i);
    for (std::size_t at : positions)
        for (unsigned bit = 0; bit < 8; ++bit) {
            bytes bad = good;
            bad[at] ^= static_cast<unsigned char>(1u << bit);
            std::string message;
            const int st = read_status(dir, bad, &message, FB_DTYPE_F32, 1000, bit % 2 ? 333 : 0);
            EXPECT_TRUE(st == FB_E_CORRUPT || st == FB_E_TRUNCATED ||
                        (st == FB_E_UNSUPPORTED && at >= 8 && at < 12))
                << "byte " << at << " bit " << bit << ": status " << st << " " << message;
        }
}

TEST(BloscPlugin, RandomFlipsNeverCrash) {
    // Anywhere else a flip fails cleanly or reads (other) values; with
    // AddressSanitizer this is a small fuzz run of its own.
    temp_dir dir;
    write_array(id, dir / "good.blosc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 5000),
                {{"chunk_size", "8KiB"}, {"codec", "lz4"}});
    const bytes good = file_bytes(dir / "good.blosc");
    std::mt19937 rng(7);
    for (int trial = 0; trial < 400; ++trial) {
        bytes bad = good;
        bad[rng() % bad.size()] ^= static_cast<unsigned char>(1u << (rng() % 8));
        std::string message;
        const int st = read_status(dir, bad, &message, FB_DTYPE_F64, 5000, trial % 2 ? 1000 : 0);
        EXPECT_TRUE(st == FB_OK || st == FB_E_CORRUPT || st == FB_E_TRUNCATED || st == FB_E_UNSUPPORTED)
            << st << " " << message;
    }
}

// ---- Options and writing ---------------------------------------------------------

TEST(BloscPlugin, InvalidOptionsNameOptionValueAndChoices) {
    temp_dir dir;
    auto refused = [&](const option_list& o, const std::vector<std::string>& texts) {
        std::string message;
        EXPECT_EQ(
            status_of([&] { write_array(id, dir / "a.blosc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 10), o); },
                      &message),
            FB_E_INVALID_OPTION)
            << message;
        for (const auto& t : texts)
            EXPECT_NE(message.find(t), std::string::npos) << t << " in: " << message;
        EXPECT_FALSE(fs::exists(dir / "a.blosc")) << "a refused open leaves no file";
    };
    refused({{"codec", "snappy"}}, {"codec", "snappy", "blosclz | lz4 | lz4hc | zlib | zstd"});
    refused({{"shuffle", "yes"}}, {"shuffle", "yes", "none | byte | bit"});
    refused({{"level", "10"}}, {"level", "10", "[0, 9]"});
    refused({{"chunk_size", "10"}}, {"chunk_size", "10", "[64, 1073741824]"});
    const int n = cpus();
    const std::string too_many = std::to_string(n + 1);
    refused({{"threads", too_many}}, {"threads", too_many, "[0, " + std::to_string(n) + "]"});
}

TEST(BloscPlugin, ThreadsBeyondTheCpusOfTheAffinitySetAtOpenAreRefused) {
    // The declared maximum is the CPUs when the plugin was loaded; a process
    // bound to fewer since (an MPI rank pinned to one core) is refused at
    // open by the plugin itself, with a message saying what to do.
    temp_dir dir;
    (void)plugin(id); // loaded with every CPU
    cpu_set_t all;
    CPU_ZERO(&all);
    ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
    if (CPU_COUNT(&all) < 2) GTEST_SKIP() << "needs 2 CPUs";
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &all)) {
            CPU_SET(c, &one);
            break;
        }
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    std::string message;
    const int st = status_of(
        [&] {
            write_array(id, dir / "a.blosc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 10), {{"threads", "2"}});
        },
        &message);
    bytes got;
    const int zero = status_of([&] {
        write_array(id, dir / "b.blosc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 10), {{"threads", "0"}});
        got = read_array(id, dir / "b.blosc", FB_DTYPE_F64, 10, {{"threads", "0"}});
    });
    ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
    EXPECT_EQ(st, FB_E_INVALID_OPTION) << message;
    for (const char* text : {"blosc: option 'threads': 2 is more than the 1 CPUs this process may run on",
                             "use threads <= 1", "taskset", "a.blosc"})
        EXPECT_NE(message.find(text), std::string::npos) << text << " in: " << message;
    EXPECT_FALSE(fs::exists(dir / "a.blosc"));
    EXPECT_EQ(zero, FB_OK) << "threads: 0 takes the one CPU left";
    EXPECT_EQ(got, make_data(FB_DTYPE_F64, 10));
}

TEST(BloscPlugin, TheCountAnnouncedBindsTheWriter) {
    temp_dir dir;
    const bytes data = make_data(FB_DTYPE_F64, 100);
    for (std::uint64_t announced : {99u, 101u}) {
        std::string message;
        const int st = status_of(
            [&] {
                auto w = plugin(id).open_write(dir / "a.blosc", FB_DTYPE_F64, announced, {});
                w->write(data.data(), 100);
                w->close();
            },
            &message);
        EXPECT_EQ(st, FB_E_STATE) << announced << ": " << message;
        EXPECT_NE(message.find("announced"), std::string::npos) << message;
        fs::remove(dir / "a.blosc");
    }
}

TEST(BloscPlugin, AFailedWriteStaysFailed) {
    temp_dir dir;
    const std::size_t chunk = std::size_t{1} << 19;
    const bytes data = make_data(FB_DTYPE_F64, chunk);
    auto w = plugin(id).open_write(full_device(dir), FB_DTYPE_F64, 16 * chunk, {{"chunk_size", "64KiB"}});
    std::string first;
    int status = FB_OK;
    for (int i = 0; i < 16 && status == FB_OK; ++i)
        status = status_of([&] { w->write(data.data(), chunk); }, &first);
    ASSERT_EQ(status, FB_E_IO) << first;
    EXPECT_NE(first.find("No space left"), std::string::npos) << first;
    std::string again;
    EXPECT_EQ(status_of([&] { w->write(data.data(), chunk); }, &again), FB_E_IO);
    EXPECT_EQ(again, first);
    std::string closing;
    EXPECT_EQ(status_of([&] { w->close(); }, &closing), FB_E_IO);
    EXPECT_NE(closing.find("(the file is incomplete)"), std::string::npos) << closing;
}

} // namespace

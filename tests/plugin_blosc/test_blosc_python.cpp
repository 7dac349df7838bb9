// Interop of the blosc plugin with python-blosc (Debian's /usr/bin/python3,
// python3-blosc and python3-numpy), both ways, through the container as
// README.md documents it: every file the plugin writes (each dtype, codec
// and shuffle, odd chunk sizes, the count unknown at open) is parsed by a
// script with struct, each chunk decoded with blosc.decompress() and the
// values compared bit-exact with numpy's reading of the values the test
// generated (written beside, not read back through the plugin); and files a
// script builds with blosc.compress() (other typesizes, blocksizes and
// codecs than the plugin's) are read by the plugin and compared with the
// values numpy wrote. Exits 77 (SKIP) without python3-blosc.
#include "plugin_test.hpp"

#include <sstream>

namespace {

using namespace plugin_test;

const std::string id = "blosc";

// Each manifest line: FILE VALUES_FILE NUMPY_CODE CODEC SHUFFLE CHUNK_BYTES.
// The script checks the header's fields (magic, version 1, the dtype code,
// the element size, the count, the chunk size, the chunk count), that each
// chunk's length is its Blosc header's cbytes, that blosc.get_clib names
// the codec's library, that the file ends after the last chunk, and that
// the decoded bytes are the values file's.
const char* read_script = R"py(
import sys, struct, numpy as np, blosc
codes = {'f8': 1, 'f4': 2, 'i8': 3, 'i4': 4, 'u1': 5}
clib = {'blosclz': 'BloscLZ', 'lz4': 'LZ4', 'lz4hc': 'LZ4', 'zlib': 'Zlib', 'zstd': 'Zstd'}
bad = 0
def fail(path, what):
    global bad
    print(f"{path}: {what}")
    bad += 1
for line in open(sys.argv[1]):
    path, values, code, codec, shuffle, chunk = line.split()
    want = np.fromfile(values, dtype='<' + code)
    f = open(path, 'rb').read()
    magic, version, dtype, esize, r0, r1, count, chunk_bytes, nchunks = struct.unpack_from('<8sIBBBBQQQ', f, 0)
    if magic != b'FBBLOSC\n' or version != 1 or (r0, r1) != (0, 0):
        fail(path, f"header {magic!r} {version} {r0} {r1}")
        continue
    es = np.dtype(code).itemsize
    if dtype != codes[code] or esize != es or count != want.size:
        fail(path, f"dtype {dtype}, element size {esize}, count {count}")
    if chunk_bytes != int(chunk) - int(chunk) % es or nchunks != -(-count * es // chunk_bytes):
        fail(path, f"chunk size {chunk_bytes}, {nchunks} chunks")
    at, parts = 40, []
    for i in range(nchunks):
        (n,) = struct.unpack_from('<I', f, at)
        c = f[at + 4:at + 4 + n]
        nbytes, cbytes, blocksize = blosc.get_cbuffer_sizes(c)
        if cbytes != n or nbytes != min(chunk_bytes, count * es - i * chunk_bytes):
            fail(path, f"chunk {i}: length {n}, Blosc sizes {nbytes} {cbytes}")
        flags = c[2]
        if not flags & 2 and blosc.get_clib(c) != clib[codec]:
            fail(path, f"chunk {i}: library {blosc.get_clib(c)}, {codec} written")
        parts.append(blosc.decompress(c))
        at += 4 + n
    if at != len(f):
        fail(path, f"{len(f) - at} bytes after the last chunk")
    got = np.frombuffer(b''.join(parts), dtype='<' + code)
    if got.tobytes() != want.tobytes():
        fail(path, f"values differ ({got.size} decoded, {want.size} written)")
sys.exit(1 if bad else 0)
)py";

TEST(BloscPython, PluginFilesDecodeWithPythonBlosc) {
    temp_dir dir;
    std::ostringstream manifest;
    int k = 0;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* codec : {"blosclz", "lz4", "lz4hc", "zlib", "zstd"})
            for (const char* shuffle : {"none", "byte", "bit"}) {
                const std::string chunk = std::to_string(4096 + 8 * k + 3); // odd: rounded to whole elements
                const std::string base = dir / std::string("f").append(std::to_string(k));
                const bytes data =
                    make_data(d, 3000 + static_cast<std::size_t>(k), static_cast<unsigned>(k + 1));
                put_file(base + ".values", data);
                write_array(id, base + ".blosc", d, data,
                            {{"codec", codec}, {"shuffle", shuffle}, {"chunk_size", chunk}, {"level", "7"}},
                            101, k % 2 == 1);
                manifest << base << ".blosc " << base << ".values " << numpy_code(d) << " " << codec << " "
                         << shuffle << " " << chunk << "\n";
                ++k;
            }
    put_file(dir / "manifest", manifest.str());
    EXPECT_EQ(run_python(dir, read_script, {dir / "manifest"}), 0);
}

// Writes containers built with blosc.compress() into argv[1], one line per
// file to argv[1]/list: NAME NUMPY_CODE COUNT; NAME.values holds the values
// (numpy's tofile). The chunks use other settings than the plugin's
// defaults: typesizes other than the element size, forced block sizes, every
// codec and shuffle.
const char* write_script = R"py(
import sys, os, struct, numpy as np, blosc
d = sys.argv[1]
rng = np.random.default_rng(11)
codes = {'f8': 1, 'f4': 2, 'i8': 3, 'i4': 4, 'u1': 5}
lines = []
k = 0
for code in codes:
    for cname in ['blosclz', 'lz4', 'lz4hc', 'zlib', 'zstd']:
        for shuffle in [blosc.NOSHUFFLE, blosc.SHUFFLE, blosc.BITSHUFFLE]:
            n = 2500 + 17 * k
            if code[0] == 'f':
                a = np.cumsum(rng.standard_normal(n)).astype(code)
            else:
                a = rng.integers(0, 200, n).astype(code)
            es = a.dtype.itemsize
            chunk_bytes = es * (333 + k)
            raw = a.tobytes()
            typesize = [es, 1, 4][k % 3]
            blosc.set_blocksize([0, 256, 1024][k % 3])
            chunks = [blosc.compress(raw[i:i + chunk_bytes], typesize=typesize, clevel=1 + k % 9,
                                     shuffle=shuffle, cname=cname)
                      for i in range(0, len(raw), chunk_bytes)]
            body = b''.join(struct.pack('<I', len(c)) + c for c in chunks)
            name = f"p{k}"
            header = struct.pack('<8sIBBBBQQQ', b'FBBLOSC\n', 1, codes[code], es, 0, 0, n, chunk_bytes, len(chunks))
            open(os.path.join(d, name + '.blosc'), 'wb').write(header + body)
            a.tofile(os.path.join(d, name + '.values'))
            lines.append(f"{name} {code} {n}")
            k += 1
blosc.set_blocksize(0)
open(os.path.join(d, 'list'), 'w').write('\n'.join(lines) + '\n')
)py";

TEST(BloscPython, PythonBloscFilesReadThroughThePlugin) {
    temp_dir dir;
    ASSERT_EQ(run_python(dir, write_script, {dir.path().string()}), 0);
    std::istringstream list(file_text(dir / "list"));
    std::string name, code;
    std::size_t n = 0, files = 0;
    while (list >> name >> code >> n) {
        SCOPED_TRACE(name);
        const fb_dtype d = dtype_of(code);
        const bytes want = file_bytes(dir / (name + ".values"));
        bytes got;
        std::string message;
        ASSERT_EQ(status_of([&] { got = read_array(id, dir / (name + ".blosc"), d, n, {}, 777); }, &message),
                  FB_OK)
            << message;
        EXPECT_EQ(first_difference(got, want, esize(d)), "");
        ++files;
    }
    EXPECT_EQ(files, 75u);
}

} // namespace

int main(int argc, char** argv) {
    return plugin_test::run_tests_requiring(
        argc, argv,
        {{std::string(plugin_test::python) + " -c 'import blosc, numpy'",
          "needs python-blosc and numpy for /usr/bin/python3 (python3-blosc, python3-numpy)"}});
}

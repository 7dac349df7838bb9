// Interop of the npy plugin with numpy (Debian's /usr/bin/python3 and
// python3-numpy), both ways: every file the plugin writes (each dtype,
// version and byte order, flat or with the data set's shape) is byte for
// byte the file numpy.lib.format.write_array makes of the same array and
// numpy.load reads it bit-exact with its shape;
// every file numpy writes (numpy.save, write_array with versions 1.0, 2.0,
// 3.0, either byte order, 2-D arrays, NaN payloads, a version 2.0 header over
// 64 KiB) reads bit-exact through the plugin, and what numpy writes that the
// plugin does not read (a Fortran-ordered 2-D array, a structured dtype) is
// refused with FB_E_UNSUPPORTED. Exits 77 (SKIP) without numpy.
#include "plugin_test.hpp"

#include <sstream>

namespace {

using namespace plugin_test;

const std::string id = "npy";

// Each manifest line: PLUGIN_FILE VALUES_FILE DTYPE_CODE ORDER VERSION SHAPE
// (VALUES_FILE holds the elements in this machine's order; SHAPE is "-" for
// a flat array, else the extents joined by 'x': 3x4x5). For each line numpy
// writes the same array, of that shape, with the same version and byte
// order; the files must be identical, and numpy.load must give the shape
// and the values bit-exact.
const char* compare_script = R"py(
import sys, numpy as np
bad = 0
for line in open(sys.argv[1]):
    path, values, code, order, version, shape = line.split()
    want = np.fromfile(values, dtype='=' + code)
    if shape != '-':
        want = want.reshape(tuple(int(x) for x in shape.split('x')))
    descr = ('|' if code == 'u1' else {'little': '<', 'big': '>'}[order]) + code
    arr = want.astype(descr)
    import io
    out = io.BytesIO()
    np.lib.format.write_array(out, arr, version=None if version == 'auto' else (int(version), 0))
    mine = open(path, 'rb').read()
    if mine != out.getvalue():
        n = next((i for i, (a, b) in enumerate(zip(mine, out.getvalue())) if a != b), min(len(mine), len(out.getvalue())))
        print(f"{path}: differs from numpy's file at byte {n} ({len(mine)} vs {len(out.getvalue())} bytes)")
        bad += 1
    got = np.load(path, allow_pickle=False)
    if got.dtype.str != descr or got.shape != want.shape or got.astype('=' + code).tobytes() != want.tobytes():
        print(f"{path}: numpy.load gives {got.dtype.str} {got.shape}, not the values written")
        bad += 1
sys.exit(1 if bad else 0)
)py";

TEST(NpyNumpy, PluginFilesAreNumpysBytesAndLoadBitExact) {
    temp_dir dir;
    std::ostringstream manifest;
    int k = 0;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* version : {"auto", "1", "2", "3"})
            for (const char* order : {"little", "big"})
                for (bool unknown : {false, true}) {
                    // (append: GCC 12 warns falsely, -Wrestrict, on "f" + std::to_string(k).)
                    std::string base = dir / std::string("f").append(std::to_string(k++));
                    bytes data = make_data(d, 1000 + static_cast<std::size_t>(k), static_cast<unsigned>(k));
                    put_file(base + ".values", data);
                    write_array(id, base + ".npy", d, data, {{"version", version}, {"byte_order", order}},
                                333, unknown);
                    manifest << base << ".npy " << base << ".values " << numpy_code(d) << " " << order << " "
                             << version << " -\n";
                }
    put_file(dir / "manifest", manifest.str());
    EXPECT_EQ(run_python(dir, compare_script, {dir / "manifest"}), 0);
}

// Files written with the data set's shape (ABI 1.2): numpy writes the same
// bytes for the array of that shape and loads it with the shape. The values
// are make_data's, so the element order shows too.
TEST(NpyNumpy, ShapedPluginFilesAreNumpysBytesAndLoadWithTheirShape) {
    temp_dir dir;
    std::ostringstream manifest;
    const std::vector<std::vector<std::uint64_t>> shapes = {
        {3, 4, 5}, {7, 1}, {1, 7}, {2, 3, 4, 5}, {1000}, {123456789012, 0}, {10, 10, 10, 10, 10}};
    int k = 0;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const char* version : {"auto", "2"})
            for (const char* order : {"little", "big"})
                for (const auto& shape : shapes) {
                    std::uint64_t n = 1;
                    std::string text;
                    for (std::uint64_t e : shape) {
                        n *= e;
                        text.append(text.empty() ? "" : "x").append(std::to_string(e));
                    }
                    std::string base = dir / std::string("s").append(std::to_string(k++));
                    bytes data = make_data(d, static_cast<std::size_t>(n), static_cast<unsigned>(k));
                    put_file(base + ".values", data);
                    auto w = plugin(id).open_write(
                        base + ".npy", d, n, {{"version", version}, {"byte_order", order}}, {shape, false});
                    if (n > 0) w->write(data.data(), n);
                    w->close();
                    manifest << base << ".npy " << base << ".values " << numpy_code(d) << " " << order << " "
                             << version << " " << text << "\n";
                }
    put_file(dir / "manifest", manifest.str());
    EXPECT_EQ(run_python(dir, compare_script, {dir / "manifest"}), 0);
}

// Writes numpy's files into argv[1] and a line per file to argv[1]/list:
// NAME DTYPE_CODE COUNT; NAME.values holds the elements in this machine's
// order (what the plugin must return).
const char* numpy_files_script = R"py(
import sys, os, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(5)
lines = []
def emit(name, arr, values, write):
    with open(os.path.join(d, name + '.npy'), 'wb') as f:
        write(f, arr)
    values.tofile(os.path.join(d, name + '.values'))
    lines.append(f"{name} {values.dtype.str[1:]} {values.size}")
def data(code, n):
    if code[0] == 'f':
        x = rng.standard_normal(n).astype(code)
        x[:4] = [0.0, -0.0, np.inf, -np.inf]
        nan = np.array([0x7ff4000000abcdef if code == 'f8' else 0x7fa12345], dtype='u8' if code == 'f8' else 'u4')
        x[4:5] = nan.view(code)
        return x
    info = np.iinfo(code)
    return rng.integers(info.min, info.max, n, endpoint=True, dtype=code)
for code in ('f8', 'f4', 'i8', 'i4', 'u1'):
    x = data(code, 10007)
    emit(f"save_{code}", x, x, np.save)
    for v in (1, 2, 3):
        for order in ('<', '>'):
            a = x.astype(order + code)
            emit(f"v{v}_{order == '>' and 'be' or 'le'}_{code}", a, x,
                 lambda f, a, v=v: np.lib.format.write_array(f, a, version=(v, 0)))
    m = x[:10000].reshape(100, 100)
    emit(f"c2d_{code}", m, m.ravel(), np.save)
    z = x[:1]
    emit(f"scalar_{code}", z.reshape(()), z, np.save)
    e = x[:0]
    emit(f"empty_{code}", e, e, np.save)
open(os.path.join(d, 'list'), 'w').write('\n'.join(lines) + '\n')
)py";

TEST(NpyNumpy, NumpyFilesReadBitExact) {
    temp_dir dir;
    ASSERT_EQ(run_python(dir, numpy_files_script, {dir.path().string()}), 0);
    std::istringstream list(file_text(dir / "list"));
    std::string name, code;
    std::size_t count = 0;
    int files = 0;
    while (list >> name >> code >> count) {
        SCOPED_TRACE(name);
        fb_dtype d = dtype_of(code);
        bytes want = file_bytes(dir / (name + ".values"));
        ASSERT_EQ(want.size(), count * esize(d));
        for (std::size_t chunk : {std::size_t{0}, std::size_t{999}}) {
            bytes got;
            std::string message;
            ASSERT_EQ(status_of([&] { got = read_array(id, dir / (name + ".npy"), d, count, {}, chunk); },
                                &message),
                      FB_OK)
                << message;
            ASSERT_EQ(first_difference(got, want, esize(d)), "");
        }
        ++files;
    }
    EXPECT_EQ(files, 5 * 10);
}

const char* large_header_script = R"py(
import sys, numpy as np
d = sys.argv[1]
# Version 2.0 with a header over 64 KiB: a 1-D float64 array and 70000 bytes
# of padding; numpy.load reads it when allowed a header that large.
x = np.arange(10, dtype='<f8')
text = "{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }"
pad = 64 - (12 + len(text) + 70000 + 1) % 64
header = (text + ' ' * (70000 + pad) + '\n').encode('latin1')
with open(f"{d}/big_header.npy", 'wb') as f:
    f.write(b'\x93NUMPY\x02\x00' + len(header).to_bytes(4, 'little') + header + x.tobytes())
y = np.load(f"{d}/big_header.npy", max_header_size=10**6)
assert y.tobytes() == x.tobytes()
x.tofile(f"{d}/big_header.values")
# numpy's own choice for a header that does not fit 16 bits: 2.0 (only a
# structured dtype has one that long).
s = np.zeros(3, dtype=[(f"field{i:05d}", '<f8') for i in range(3000)])
np.save(f"{d}/structured.npy", s)
assert open(f"{d}/structured.npy", 'rb').read(8) == b'\x93NUMPY\x02\x00'
# Fortran order, 2-D: another element order.
np.save(f"{d}/fortran.npy", np.asfortranarray(np.arange(6, dtype='<f8').reshape(2, 3)))
)py";

TEST(NpyNumpy, LargeHeadersAndWhatThePluginRefuses) {
    temp_dir dir;
    ASSERT_EQ(run_python(dir, large_header_script, {dir.path().string()}), 0);
    bytes got;
    std::string message;
    ASSERT_EQ(status_of([&] { got = read_array(id, dir / "big_header.npy", FB_DTYPE_F64, 10); }, &message),
              FB_OK)
        << message;
    EXPECT_EQ(got, file_bytes(dir / "big_header.values"));
    EXPECT_EQ(status_of([&] { read_array(id, dir / "structured.npy", FB_DTYPE_F64, 3); }, &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("structured dtype"), std::string::npos) << message;
    EXPECT_EQ(status_of([&] { read_array(id, dir / "fortran.npy", FB_DTYPE_F64, 6); }, &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("Fortran-ordered array of shape (2, 3)"), std::string::npos) << message;
}

} // namespace

int main(int argc, char** argv) {
    return plugin_test::run_tests_requiring(argc, argv,
                                            {{std::string(plugin_test::python) + " -c 'import numpy'",
                                              "needs numpy for /usr/bin/python3 (python3-numpy)"}});
}

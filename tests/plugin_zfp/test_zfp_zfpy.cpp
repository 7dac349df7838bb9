// Interop of the zfp plugin with zfpy (Debian's /usr/bin/python3 with
// python3-zfpy and python3-numpy), both ways: zfpy.decompress_numpy gives
// exactly the plugin's values for every file it writes (each dtype and
// mode), and in accuracy mode the max abs error python computes from
// zfpy's values against the original equals the one computed here from the
// plugin's; every file zfpy.compress_numpy writes (each mode, 1-D and a
// 3-D array read as its values in C order) reads through the plugin as
// zfpy decompresses it; a data set of 2, 3 or 4 axes written by the plugin
// comes back from zfpy with that shape. Exits 77 (SKIP) without zfpy.
#include "zfp_test_support.hpp"

#include <map>
#include <sstream>

namespace {

using namespace zfp_test;

const std::string id = "zfp";

// Each manifest line: FILE ORIGINAL PLUGIN_VALUES CODE. Prints one line per
// file: "FILE MAXERR" (zfpy's values against the original, %.17g); exits 1
// when zfpy's values differ from the plugin's in any bit.
const char* check_script = R"py(
import sys, numpy as np, zfpy
bad = 0
out = open(sys.argv[2], 'w')
for line in open(sys.argv[1]):
    path, orig, mine, code = line.split()
    z = zfpy.decompress_numpy(open(path, 'rb').read())
    want = np.fromfile(mine, dtype=code)
    if z.dtype != np.dtype(code) or z.shape != want.shape or z.tobytes() != want.tobytes():
        print(f"{path}: zfpy gives {z.dtype} {z.shape}, not the plugin's values")
        bad += 1
    x = np.fromfile(orig, dtype=code).astype('f8')
    out.write(f"{path} {np.abs(z.astype('f8') - x).max():.17g}\n")
sys.exit(1 if bad else 0)
)py";

TEST(ZfpZfpy, ZfpyReadsPluginFilesAsThePluginDoesAndFindsTheSameError) {
    temp_dir dir;
    std::ostringstream manifest;
    std::map<std::string, double> my_error;
    const option_list modes[] = {{},
                                 {{"mode", "rate"}, {"rate", "10"}},
                                 {{"mode", "precision"}, {"precision", "20"}},
                                 {{"mode", "accuracy"}, {"accuracy", "0.001"}}};
    int k = 0;
    for (fb_dtype d : zfp_dtypes)
        for (const option_list& o : modes) {
            if (!o.empty() && o.front().second == "accuracy" && (d == FB_DTYPE_I32 || d == FB_DTYPE_I64))
                continue;
            const std::string base = dir / ("f" + std::to_string(k++));
            const bytes data = smooth_data(d, 30001, static_cast<unsigned>(k));
            write_array(id, base + ".zfp", d, data, o, 4097);
            const bytes got = read_array(id, base + ".zfp", d, 30001);
            put_file(base + ".orig", data);
            put_file(base + ".mine", got);
            manifest << base << ".zfp " << base << ".orig " << base << ".mine " << numpy_code(d) << "\n";
            my_error[base + ".zfp"] = max_abs_error(got, data, d);
            if (o.size() > 1 && o[1].first == "accuracy") {
                EXPECT_LE(my_error[base + ".zfp"], 0.001);
            }
        }
    put_file(dir / "manifest", manifest.str());
    ASSERT_EQ(run_python(dir, check_script, {dir / "manifest", dir / "errors"}), 0);
    std::istringstream errors(file_text(dir / "errors"));
    std::string path;
    double err = 0;
    int lines = 0;
    while (errors >> path >> err) {
        SCOPED_TRACE(path);
        EXPECT_EQ(err, my_error.at(path)); // the same values, so the same max error, to the bit
        ++lines;
    }
    EXPECT_EQ(lines, k);
}

// Writes zfpy's files into argv[1] and a line per file to argv[1]/list:
// NAME CODE COUNT; NAME.values holds zfpy's own decompression.
const char* zfpy_files_script = R"py(
import sys, os, numpy as np, zfpy
d = sys.argv[1]
rng = np.random.default_rng(3)
lines = []
i = np.arange(40000)
for code in ('f8', 'f4', 'i8', 'i4'):
    x = (1000 * np.sin(0.01 * i) + rng.standard_normal(i.size))
    x = (x * 100).astype(code) if code[0] == 'i' else x.astype(code)
    kinds = [('rev', {}), ('rate', {'rate': 12}), ('prec', {'precision': 18})]
    if code[0] == 'f':
        kinds.append(('tol', {'tolerance': 0.01}))
    for kind, args in kinds:
        for shape in ((40000,), (40, 40, 25)):
            name = f"{code}_{kind}_{len(shape)}d"
            b = zfpy.compress_numpy(x.reshape(shape), **args)
            open(os.path.join(d, name + '.zfp'), 'wb').write(b)
            zfpy.decompress_numpy(b).ravel().tofile(os.path.join(d, name + '.values'))
            lines.append(f"{name} {code} {x.size}")
open(os.path.join(d, 'list'), 'w').write('\n'.join(lines) + '\n')
)py";

TEST(ZfpZfpy, PluginReadsZfpyFilesAsZfpyDoes) {
    temp_dir dir;
    ASSERT_EQ(run_python(dir, zfpy_files_script, {dir.path().string()}), 0);
    std::istringstream list(file_text(dir / "list"));
    std::string name, code;
    std::size_t count = 0;
    int files = 0;
    while (list >> name >> code >> count) {
        SCOPED_TRACE(name);
        const fb_dtype d = dtype_of(code);
        const bytes want = file_bytes(dir / (name + ".values"));
        for (std::size_t chunk : {std::size_t{0}, std::size_t{999}}) {
            bytes got;
            std::string message;
            ASSERT_EQ(status_of([&] { got = read_array(id, dir / (name + ".zfp"), d, count, {}, chunk); },
                                &message),
                      FB_OK)
                << message;
            EXPECT_EQ(first_difference(got, want, esize(d)), "");
        }
        ++files;
    }
    EXPECT_EQ(files, 2 * (4 + 4 + 3 + 3));
}

// Each manifest line: FILE ORIGINAL PLUGIN_VALUES CODE SHAPE (axes joined
// by 'x', row-major) TOLERANCE (0: bit-exact). Prints "FILE SHAPE MAXERR"
// per file (zfpy's shape, and its max abs error against the original);
// exits 1 when zfpy's values differ from the plugin's.
const char* shape_script = R"py(
import sys, numpy as np, zfpy
bad = 0
out = open(sys.argv[2], 'w')
for line in open(sys.argv[1]):
    path, orig, mine, code, shape, tol = line.split()
    z = zfpy.decompress_numpy(open(path, 'rb').read())
    want = np.fromfile(mine, dtype=code)
    if z.dtype != np.dtype(code) or z.ravel().tobytes() != want.tobytes():
        print(f"{path}: zfpy gives {z.dtype} {z.shape}, not the plugin's values")
        bad += 1
    x = np.fromfile(orig, dtype=code).astype('f8').reshape(z.shape)
    out.write(f"{path} {'x'.join(map(str, z.shape))} {np.abs(z.astype('f8') - x).max():.17g}\n")
sys.exit(1 if bad else 0)
)py";

TEST(ZfpZfpy, ZfpyReturnsThePluginsNDArraysWithTheirShape) {
    temp_dir dir;
    std::ostringstream manifest;
    struct expected {
        std::string shape;
        double tolerance;
    };
    std::map<std::string, expected> want;
    const std::vector<std::pair<std::vector<std::uint64_t>, std::string>> shapes = {
        {{10, 12, 14}, "10x12x14"}, {{9, 31}, "9x31"}, {{3, 4, 5, 6}, "3x4x5x6"}};
    int k = 0;
    for (fb_dtype d : {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I32})
        for (const auto& [shape, text] : shapes)
            for (const char* tolerance : {"0", "0.001"}) {
                const bool lossy = std::string(tolerance) != "0";
                if (lossy && d == FB_DTYPE_I32) continue;
                std::size_t n = 1;
                for (std::uint64_t e : shape)
                    n *= static_cast<std::size_t>(e);
                const std::string base = dir / ("s" + std::to_string(k++));
                const bytes data = smooth_data(d, n, static_cast<unsigned>(k));
                const option_list o =
                    lossy ? option_list{{"mode", "accuracy"}, {"accuracy", tolerance}} : option_list{};
                auto w = plugin(id).open_write(base + ".zfp", d, n, o, formatbench::open_layout{shape});
                w->write(data.data(), n);
                w->close();
                bytes got(data.size());
                auto r = plugin(id).open_read(base + ".zfp", d, n, {}, formatbench::open_layout{shape});
                r->read(got.data(), n);
                r->close();
                put_file(base + ".orig", data);
                put_file(base + ".mine", got);
                manifest << base << ".zfp " << base << ".orig " << base << ".mine " << numpy_code(d) << " "
                         << text << " " << tolerance << "\n";
                want[base + ".zfp"] = {text, std::stod(tolerance)};
            }
    put_file(dir / "manifest", manifest.str());
    ASSERT_EQ(run_python(dir, shape_script, {dir / "manifest", dir / "errors"}), 0);
    std::istringstream errors(file_text(dir / "errors"));
    std::string path, shape;
    double err = 0;
    int lines = 0;
    while (errors >> path >> shape >> err) {
        SCOPED_TRACE(path);
        EXPECT_EQ(shape, want.at(path).shape); // numpy's shape is the data set's, row-major
        EXPECT_LE(err, want.at(path).tolerance);
        ++lines;
    }
    EXPECT_EQ(lines, k);
}

} // namespace

int main(int argc, char** argv) {
    return plugin_test::run_tests_requiring(argc, argv,
                                            {{std::string(plugin_test::python) + " -c 'import numpy, zfpy'",
                                              "needs zfpy for /usr/bin/python3 (python3-zfpy)"}});
}

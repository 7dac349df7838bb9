// Interop of the hdf5 plugin with HDF5's own tools, both ways: h5dump -b LE
// dumps the plugin's datasets as exactly the bytes written (every dtype,
// contiguous, chunked with filters, extendible, nested paths, each libver),
// h5py reads them bit-exact with the dtype, shape, chunks, filters and
// maximum shape asked for; datasets h5py writes (every dtype, contiguous,
// chunked, gzip, shuffle, fletcher32, scaleoffset on integers, big-endian,
// extendible and resized, libver latest, NaN payloads) read bit-exact
// through the plugin, and what it cannot read (h5py's own lzf filter, a bool
// dataset) is refused with the reason. Exits 77 (SKIP) without h5dump or
// h5py for /usr/bin/python3.
#include "plugin_test.hpp"
#include "shaped_test.hpp"

#include <bit>
#include <sstream>

namespace {

using namespace plugin_test;

const std::string id = "hdf5";

struct written_case {
    option_list options;
    bool count_unknown;
    std::string dataset;
    // What h5py must see: chunks ("None" or "(n,)"), compression, shuffle,
    // fletcher32, maxshape.
    std::string chunks, compression, shuffle, fletcher32, maxshape;
};

const std::vector<written_case> written_cases = {
    {{}, false, "/data", "None", "None", "False", "False", "(N,)"},
    {{{"libver", "latest"}, {"dataset", "/a/b"}}, false, "/a/b", "None", "None", "False", "False", "(N,)"},
    {{{"deflate", "5"}, {"shuffle", "true"}, {"fletcher32", "true"}, {"chunk", "1000"}},
     false,
     "/data",
     "(1000,)",
     "gzip",
     "True",
     "True",
     "(N,)"},
    {{{"layout", "chunked"}, {"chunk", "4096"}},
     true,
     "/data",
     "(4096,)",
     "None",
     "False",
     "False",
     "(None,)"},
    {{{"deflate", "1"}, {"libver", "v18"}}, true, "/data", "(C,)", "gzip", "False", "False", "(None,)"},
};

// Each manifest line: FILE DATASET CODE VALUES CHUNKS COMPRESSION SHUFFLE
// FLETCHER32 MAXSHAPE. h5py must read the dataset with that dtype (little-
// endian), the values bit-exact, and those storage properties.
const char* h5py_check_script = R"py(
import sys, h5py, numpy as np
bad = 0
for line in open(sys.argv[1]):
    path, name, code, values, chunks, compression, shuffle, fletcher32, maxshape = line.split()
    want = np.fromfile(values, dtype='=' + code)
    with h5py.File(path, 'r') as f:
        d = f[name]
        got = (d.dtype.str, d.shape, str(d.chunks).replace(' ', ''), str(d.compression), str(d.shuffle),
               str(d.fletcher32), str(d.maxshape).replace(' ', ''))
        expect = (('|' if code == 'u1' else '<') + code, want.shape, chunks, compression, shuffle, fletcher32,
                  maxshape)
        if got != expect:
            print(f"{path}:{name}: h5py sees {got}, expected {expect}")
            bad += 1
        if d[()].astype('=' + code).tobytes() != want.tobytes():
            print(f"{path}:{name}: h5py reads other values")
            bad += 1
sys.exit(1 if bad else 0)
)py";

TEST(Hdf5Tools, H5dumpAndH5pyReadThePluginsFilesBitExact) {
    ASSERT_EQ(std::endian::native, std::endian::little) << "h5dump -b LE is compared with memory order";
    temp_dir dir;
    std::ostringstream manifest;
    int k = 0;
    for (fb_dtype d : formatbench::all_dtypes)
        for (const auto& c : written_cases) {
            std::string base = dir / std::string("f").append(std::to_string(k++));
            std::size_t n = 10007;
            bytes data = make_data(d, n, static_cast<unsigned>(k));
            put_file(base + ".values", data);
            write_array(id, base + ".h5", d, data, c.options, 3001, c.count_unknown);
            // h5dump: the dataset's bytes, little-endian, nothing else.
            std::string command = "h5dump -b LE -d " + quote(c.dataset) + " -o " + quote(base + ".dump") +
                                  " " + quote(base + ".h5") + " >/dev/null";
            ASSERT_EQ(run(command), 0) << command;
            EXPECT_EQ(first_difference(file_bytes(base + ".dump"), data, esize(d)), "")
                << "h5dump of " << base << ".h5 " << c.dataset;
            std::string chunks =
                c.chunks == "(C,)" ? "(" + std::to_string((1u << 20) / esize(d)) + ",)" : c.chunks;
            std::string maxshape = c.maxshape == "(N,)" ? "(" + std::to_string(n) + ",)" : c.maxshape;
            manifest << base << ".h5 " << c.dataset << " " << numpy_code(d) << " " << base << ".values "
                     << chunks << " " << c.compression << " " << c.shuffle << " " << c.fletcher32 << " "
                     << maxshape << "\n";
        }
    put_file(dir / "manifest", manifest.str());
    EXPECT_EQ(run_python(dir, h5py_check_script, {dir / "manifest"}), 0);
}

// Writes h5py's files into argv[1] and a line per dataset to argv[1]/list:
// FILE DATASET CODE COUNT; DATASET's values in this machine's order are in
// FILE.<DATASET with / as _>.values.
const char* h5py_files_script = R"py(
import sys, os, h5py, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(11)
lines = []
def data(code, n):
    if code[0] == 'f':
        x = rng.standard_normal(n).astype(code)
        x[:4] = [0.0, -0.0, np.inf, -np.inf]
        x[4:5] = np.array([0x7ff4000000abcdef if code == 'f8' else 0x7fa12345],
                          dtype='u8' if code == 'f8' else 'u4').view(code)
        return x
    info = np.iinfo(code)
    return rng.integers(info.min, info.max, n, endpoint=True, dtype=code)
def emit(path, name, x):
    x.astype('=' + x.dtype.str[1:]).tofile(f"{path}.{name.strip('/').replace('/', '_')}.values")
    lines.append(f"{path} {name} {x.dtype.str[1:]} {x.size}")
for code in ('f8', 'f4', 'i8', 'i4', 'u1'):
    x = data(code, 20011)
    path = os.path.join(d, f"h5py_{code}.h5")
    with h5py.File(path, 'w') as f:
        f.create_dataset('contiguous', data=x)
        f.create_dataset('chunked', data=x, chunks=(1000,))
        f.create_dataset('gzip', data=x, chunks=(4096,), compression='gzip', compression_opts=9)
        f.create_dataset('shuffle_fletcher', data=x, shuffle=True, fletcher32=True, compression='gzip')
        f.create_dataset('big_endian', data=x.astype('>' + code))
        g = f.create_group('deep/er')
        g.create_dataset('grown', data=x[:10], maxshape=(None,), chunks=(777,))
        g['grown'].resize((x.size,))
        g['grown'][10:] = x[10:]
        if code[0] in 'iu':
            f.create_dataset('scaleoffset', data=x, scaleoffset=0)
    for name in ('contiguous', 'chunked', 'gzip', 'shuffle_fletcher', 'big_endian', 'deep/er/grown') + \
                (('scaleoffset',) if code[0] in 'iu' else ()):
        emit(path, name, x)
    latest = os.path.join(d, f"latest_{code}.h5")
    with h5py.File(latest, 'w', libver='latest') as f:
        f.create_dataset('data', data=x, chunks=(5000,), compression='gzip', shuffle=True)
    emit(latest, 'data', x)
with h5py.File(os.path.join(d, 'refused.h5'), 'w') as f:
    f.create_dataset('lzf', data=np.arange(100.0), compression='lzf')
    f.create_dataset('flags', data=np.zeros(100, dtype=bool))
open(os.path.join(d, 'list'), 'w').write('\n'.join(lines) + '\n')
)py";

TEST(Hdf5Tools, H5pyFilesReadBitExact) {
    temp_dir dir;
    ASSERT_EQ(run_python(dir, h5py_files_script, {dir.path().string()}), 0);
    std::istringstream list(file_text(dir / "list"));
    std::string file, name, code;
    std::size_t count = 0;
    int datasets = 0;
    while (list >> file >> name >> code >> count) {
        SCOPED_TRACE(file + ":" + name);
        fb_dtype d = dtype_of(code);
        std::string flat = name;
        std::replace(flat.begin(), flat.end(), '/', '_');
        bytes want = file_bytes(file + "." + flat + ".values");
        ASSERT_EQ(want.size(), count * esize(d));
        bytes got;
        std::string message;
        ASSERT_EQ(status_of(
                      [&] {
                          got = read_array(id, file, d, count, {{"dataset", name}}, 4097);
                      },
                      &message),
                  FB_OK)
            << message;
        ASSERT_EQ(first_difference(got, want, esize(d)), "");
        ++datasets;
    }
    EXPECT_EQ(datasets, 2 * 7 + 3 * 8) << "7 datasets per float dtype, 8 per integer dtype (scaleoffset)";
    std::string message;
    EXPECT_EQ(status_of(
                  [&] {
                      read_array(id, dir / "refused.h5", FB_DTYPE_F64, 100, {{"dataset", "lzf"}});
                  },
                  &message),
              FB_E_UNSUPPORTED);
    EXPECT_NE(message.find("needs the HDF5 filter 'lzf'"), std::string::npos) << message;
    EXPECT_EQ(status_of(
                  [&] {
                      read_array(id, dir / "refused.h5", FB_DTYPE_U8, 100, {{"dataset", "flags"}});
                  },
                  &message),
              FB_E_CORRUPT);
    EXPECT_NE(message.find("holds an enum type (h5py stores bool so), not u8"), std::string::npos) << message;
}

// Shaped files (ABI 1.2), contiguous and chunked: h5py sees the shape
// (3, 4, 5), the chunks and the values numpy's arange gives.
const char* h5py_shape_script = R"py(
import sys, h5py, numpy as np
path, chunks = sys.argv[1], sys.argv[2]
with h5py.File(path, 'r') as f:
    d = f['data']
    got = (d.shape, str(d.chunks).replace(' ', ''), d.dtype.str)
    want = ((3, 4, 5), chunks, '<f8')
    if got != want:
        print(f"{path}: h5py sees {got}, expected {want}")
        sys.exit(1)
    if not np.array_equal(d[()], np.arange(60, dtype='f8').reshape(3, 4, 5)):
        print(f"{path}: h5py reads other values")
        sys.exit(1)
)py";

TEST(Hdf5Tools, H5pyReadsShapedFiles) {
    temp_dir dir;
    for (auto [options, chunks] : std::vector<std::pair<option_list, std::string>>{
             {{}, "None"},
             {{{"chunks", "2,3,4"}}, "(2,3,4)"},
             {{{"chunks", "1,4,5"}, {"deflate", "3"}}, "(1,4,5)"}}) {
        const std::string path = dir / "shaped.h5";
        std::filesystem::remove(path);
        shaped_test::write_shaped(id, path, options);
        EXPECT_EQ(run_python(dir, h5py_shape_script, {path, chunks}), 0) << chunks;
    }
}

} // namespace

int main(int argc, char** argv) {
    return plugin_test::run_tests_requiring(argc, argv,
                                            {{"command -v h5dump", "needs h5dump (hdf5-tools)"},
                                             {std::string(plugin_test::python) + " -c 'import h5py, numpy'",
                                              "needs h5py for /usr/bin/python3 (python3-h5py)"}});
}

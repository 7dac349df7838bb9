// Interop of the hdf5 plugin's filter plugins with h5py and hdf5plugin: the
// plugin writes every filter option set (lz4, bitshuffle, blosc with each
// codec, zfp reversible and lossy) of every dtype the filter takes, and
// h5py, with hdf5plugin imported as its users do, reads each file: the
// filter ids in the pipeline, and the values, bit-exact against the values
// the test wrote (.values files), or for zfp's lossy modes within their
// bound. Filters this machine's HDF5 cannot load are refused by the
// plugin's formatbench.check-options/1 and left out (the test names them).
// Exits 77 (SKIP) without h5py, hdf5plugin or numpy for /usr/bin/python3.
#include "plugin_test.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace {

using namespace plugin_test;

const std::string id = "hdf5";

struct filter_case {
    option_list options;
    unsigned filter_id;
    double bound; // largest |error| h5py may see; 0 = bit-exact
};

const std::vector<filter_case> cases = {
    {{{"filter", "lz4"}}, 32004, 0},
    {{{"filter", "lz4"}, {"shuffle", "true"}, {"lz4_block", "16KiB"}, {"fletcher32", "true"}}, 32004, 0},
    {{{"filter", "bitshuffle"}}, 32008, 0},
    {{{"filter", "bitshuffle"}, {"bitshuffle_lz4", "false"}}, 32008, 0},
    {{{"filter", "blosc"}}, 32001, 0},
    {{{"filter", "blosc"}, {"blosc_codec", "blosclz"}, {"blosc_shuffle", "bit"}}, 32001, 0},
    {{{"filter", "blosc"}, {"blosc_codec", "lz4hc"}, {"blosc_level", "9"}}, 32001, 0},
    {{{"filter", "blosc"}, {"blosc_codec", "zlib"}, {"blosc_shuffle", "none"}}, 32001, 0},
    {{{"filter", "blosc"}, {"blosc_codec", "zstd"}, {"chunk", "3000"}, {"libver", "latest"}}, 32001, 0},
    {{{"filter", "zfp"}}, 32013, 0},
    {{{"filter", "zfp"}, {"zfp_mode", "accuracy"}, {"zfp_accuracy", "1e-4"}}, 32013, 1e-4},
    {{{"filter", "zfp"}, {"zfp_mode", "rate"}, {"zfp_rate", "16"}}, 32013, 1e-2},
    {{{"filter", "zfp"}, {"zfp_mode", "precision"}, {"zfp_precision", "24"}}, 32013, 1e-2},
};

// Smooth finite floats for zfp's lossy modes, which keep no NaN or infinity.
bytes smooth(fb_dtype d, std::size_t n) {
    bytes out(n * esize(d));
    for (std::size_t i = 0; i < n; ++i) {
        const double x = std::sin(0.002 * double(i)) + 0.25 * std::cos(0.031 * double(i));
        if (d == FB_DTYPE_F64) {
            std::memcpy(out.data() + 8 * i, &x, 8);
        } else {
            const float y = static_cast<float>(x);
            std::memcpy(out.data() + 4 * i, &y, 4);
        }
    }
    return out;
}

// Each manifest line: FILE CODE VALUES FILTER_ID BOUND. h5py must see the
// filter in the dataset's pipeline and read the values within BOUND (0:
// bit-exact, NaN payloads included).
const char* check_script = R"py(
import sys, h5py, hdf5plugin, numpy as np
bad = 0
for line in open(sys.argv[1]):
    path, code, values, filter_id, bound = line.split()
    want = np.fromfile(values, dtype='=' + code)
    with h5py.File(path, 'r') as f:
        d = f['data']
        plist = d.id.get_create_plist()
        ids = [plist.get_filter(i)[0] for i in range(plist.get_nfilters())]
        if int(filter_id) not in ids:
            print(f"{path}: filters {ids}, no {filter_id}")
            bad += 1
        got = d[()]
    if got.shape != want.shape or got.dtype.str[1:] != code:
        print(f"{path}: h5py sees {got.dtype} {got.shape}, expected {code} {want.shape}")
        bad += 1
    elif float(bound) == 0:
        if got.astype('=' + code).tobytes() != want.tobytes():
            print(f"{path}: h5py reads other values")
            bad += 1
    else:
        err = float(np.max(np.abs(got.astype('f8') - want.astype('f8'))))
        if not err <= float(bound):
            print(f"{path}: h5py's values are {err} from the written ones, more than {bound}")
            bad += 1
sys.exit(1 if bad else 0)
)py";

TEST(Hdf5FiltersInterop, H5pyWithHdf5pluginReadsEveryFilteredFile) {
    temp_dir dir;
    std::ostringstream manifest;
    int k = 0, written = 0;
    std::string left_out;
    for (const auto& c : cases) {
        for (fb_dtype d : formatbench::all_dtypes) {
            const bool zfp = c.filter_id == 32013;
            if (zfp && d == FB_DTYPE_U8) continue;
            if (c.bound > 0 && d != FB_DTYPE_F64 && d != FB_DTYPE_F32) continue;
            std::string opts;
            for (const auto& [name, value] : c.options)
                opts += " " + name + "=" + value;
            try {
                plugin(id).check_option_set(c.options, d);
            } catch (const std::exception& e) {
                // Only a filter this HDF5 cannot load may be left out.
                ASSERT_NE(std::string(e.what()).find("is not available"), std::string::npos) << e.what();
                if (left_out.find(c.options[0].second) == std::string::npos)
                    left_out += " " + c.options[0].second;
                continue;
            }
            SCOPED_TRACE(std::string(formatbench::dtype_name(d)) + opts);
            std::string base = dir / std::string("f").append(std::to_string(k++));
            const std::size_t n = 30011;
            bytes data = c.bound > 0 ? smooth(d, n) : make_data(d, n, static_cast<unsigned>(k));
            put_file(base + ".values", data);
            write_array(id, base + ".h5", d, data, c.options, 5003);
            manifest << base << ".h5 " << numpy_code(d) << " " << base << ".values " << c.filter_id << " "
                     << c.bound << "\n";
            ++written;
        }
    }
    if (!left_out.empty()) std::printf("not loadable by this HDF5, left out:%s\n", left_out.c_str());
    ASSERT_GT(written, 0);
    put_file(dir / "manifest", manifest.str());
    EXPECT_EQ(run_python(dir, check_script, {dir / "manifest"}), 0);
}

} // namespace

int main(int argc, char** argv) {
    return plugin_test::run_tests_requiring(
        argc, argv,
        {{std::string(plugin_test::python) + " -c 'import h5py, hdf5plugin, numpy'",
          "needs h5py and hdf5plugin for /usr/bin/python3 (python3-h5py, python3-hdf5plugin)"}});
}

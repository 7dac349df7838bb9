// Interop of the netcdf plugin with netCDF's own tools, both ways: ncdump
// sees the plugin's files in the format asked for (-k), with the variable's
// type and dimension (-h) and every value (-p 9,17 prints floats that read
// back exactly; NaN payloads cannot survive text); netCDF4-python reads them
// bit-exact, with the dtype, dimension and data model asked for (u8 as
// uint8 also in the classic model, through _Unsigned); files netCDF4-python
// writes (each format and declared dtype, fixed and unlimited dimensions,
// zlib, shuffle, chunk sizes, contiguous, big-endian, fill values on, NaN
// payloads) read bit-exact through the plugin. Exits 77 (SKIP) without
// ncdump or netCDF4 for /usr/bin/python3.
#include "../plugin_hdf5/shaped_test.hpp"
#include "plugin_test.hpp"

#include <bit>
#include <sstream>

namespace {

using namespace plugin_test;

const std::string id = "netcdf";
const fb_dtype dtypes[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I32, FB_DTYPE_U8};

struct format_case {
    const char* option; // the plugin's format option
    const char* kind;   // what ncdump -k prints
    const char* python; // netCDF4-python's file_format
    bool classic_model;
};
const format_case formats[] = {
    {"netcdf4", "netCDF-4", "NETCDF4", false},
    {"netcdf4_classic", "netCDF-4 classic model", "NETCDF4_CLASSIC", true},
    {"classic", "classic", "NETCDF3_CLASSIC", true},
    {"64bit_offset", "64-bit offset", "NETCDF3_64BIT_OFFSET", true},
    {"64bit_data", "cdf5", "NETCDF3_64BIT_DATA", false},
};

std::string cdl_type(fb_dtype d, bool classic_model) {
    switch (d) {
    case FB_DTYPE_F64: return "double";
    case FB_DTYPE_F32: return "float";
    case FB_DTYPE_I32: return "int";
    case FB_DTYPE_U8: return classic_model ? "byte" : "ubyte";
    default: return "?";
    }
}

std::string output_of(const std::string& command) {
    std::string text;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return text;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        text.append(buf, n);
    ::pclose(p);
    return text;
}

// The values of "data = v, v, ... ;" in ncdump's data section.
std::vector<std::string> ncdump_values(const std::string& text) {
    std::vector<std::string> out;
    std::size_t at = text.find("data:");
    if (at == std::string::npos) return out;
    at = text.find('=', at);
    std::size_t end = text.find(';', at);
    std::string token;
    for (std::size_t i = at + 1; i < end; ++i) {
        char c = text[i];
        if (c == ',' || c == ' ' || c == '\n' || c == '\t') {
            if (!token.empty()) out.push_back(token);
            token.clear();
        } else {
            token += c;
        }
    }
    if (!token.empty()) out.push_back(token);
    return out;
}

// Whether ncdump's text for element i is exactly the value in data.
bool same_value(const std::string& text, const unsigned char* element, fb_dtype d) {
    switch (d) {
    case FB_DTYPE_F64:
    case FB_DTYPE_F32: {
        double want = 0;
        if (d == FB_DTYPE_F64) {
            std::memcpy(&want, element, 8);
        } else {
            float f;
            std::memcpy(&f, element, 4);
            want = f;
        }
        if (std::isnan(want)) return text == "NaN" || text == "NaNf";
        std::string t = text;
        if (!t.empty() && t.back() == 'f') t.pop_back(); // ncdump marks floats: 1.5f
        if (t == "Infinity") return want == std::numeric_limits<double>::infinity();
        if (t == "-Infinity") return want == -std::numeric_limits<double>::infinity();
        double got = std::strtod(t.c_str(), nullptr);
        if (d == FB_DTYPE_F32) got = static_cast<float>(got);
        return std::memcmp(&got, &want, 8) == 0; // also tells -0 from 0
    }
    case FB_DTYPE_I32: {
        std::int32_t want;
        std::memcpy(&want, element, 4);
        return std::strtoll(text.c_str(), nullptr, 10) == want;
    }
    case FB_DTYPE_U8: // ncdump shows a classic byte signed, _Unsigned or not
        return (std::strtol(text.c_str(), nullptr, 10) & 0xff) == *element;
    default: return false;
    }
}

TEST(NetcdfTools, NcdumpSeesFormatTypeDimensionAndValues) {
    temp_dir dir;
    for (const auto& f : formats)
        for (fb_dtype d : dtypes)
            for (bool unlimited : {false, true}) {
                SCOPED_TRACE(std::string(f.option) + " " + formatbench::dtype_name(d) +
                             (unlimited ? " unlimited" : ""));
                std::string path = dir / "a.nc";
                std::size_t n = 2003;
                bytes data = make_data(d, n);
                write_array(id, path, d, data,
                            {{"format", f.option}, {"unlimited", unlimited ? "true" : "false"}}, 500);
                EXPECT_EQ(output_of("ncdump -k " + quote(path)), std::string(f.kind) + "\n");
                std::string header = output_of("ncdump -h " + quote(path));
                std::string dimension =
                    unlimited ? "index = UNLIMITED ; // (2003 currently)" : "index = 2003 ;";
                EXPECT_NE(header.find(dimension), std::string::npos) << header;
                EXPECT_NE(header.find(cdl_type(d, f.classic_model) + " data(index) ;"), std::string::npos)
                    << header;
                if (d == FB_DTYPE_U8 && f.classic_model) {
                    EXPECT_NE(header.find("data :_Unsigned = \"true\" ;"), std::string::npos) << header;
                }
                std::vector<std::string> values =
                    ncdump_values(output_of("ncdump -v data -p 9,17 " + quote(path)));
                ASSERT_EQ(values.size(), n);
                for (std::size_t i = 0; i < n; ++i)
                    ASSERT_TRUE(same_value(values[i], data.data() + i * esize(d), d))
                        << "element " << i << ": ncdump prints " << values[i];
            }
}

// Each manifest line: FILE CODE VALUES FORMAT UNLIMITED. netCDF4-python
// must see that file format, a variable 'data' over an 'index' dimension
// (unlimited or not) of dtype CODE, and the values bit-exact.
const char* python_check_script = R"py(
import sys, netCDF4, numpy as np
bad = 0
for line in open(sys.argv[1]):
    path, code, values, fmt, unlimited = line.split()
    want = np.fromfile(values, dtype='=' + code)
    with netCDF4.Dataset(path) as f:
        v = f['data']
        v.set_auto_mask(False)  # keep values equal to a fill value
        got = v[:]
        seen = (f.file_format, v.dimensions, f.dimensions['index'].isunlimited(), got.dtype.str[1:], got.shape)
        expect = (fmt, ('index',), unlimited == 'true', code, want.shape)
        if seen != expect:
            print(f"{path}: netCDF4 sees {seen}, expected {expect}")
            bad += 1
        if got.astype('=' + code).tobytes() != want.tobytes():
            print(f"{path}: netCDF4 reads other values")
            bad += 1
sys.exit(1 if bad else 0)
)py";

TEST(NetcdfTools, NetCDF4PythonReadsThePluginsFilesBitExact) {
    ASSERT_EQ(std::endian::native, std::endian::little);
    temp_dir dir;
    std::ostringstream manifest;
    int k = 0;
    for (const auto& f : formats)
        for (fb_dtype d : dtypes)
            for (bool unlimited : {false, true}) {
                std::string base = dir / std::string("f").append(std::to_string(k++));
                bytes data = make_data(d, 10007, static_cast<unsigned>(k));
                put_file(base + ".values", data);
                option_list o = {{"format", f.option}, {"unlimited", unlimited ? "true" : "false"}};
                if (std::string(f.option) == "netcdf4") o.push_back({"deflate", "3"});
                write_array(id, base + ".nc", d, data, o, 3001);
                manifest << base << ".nc " << numpy_code(d) << " " << base << ".values " << f.python << " "
                         << (unlimited ? "true" : "false") << "\n";
            }
    put_file(dir / "manifest", manifest.str());
    EXPECT_EQ(run_python(dir, python_check_script, {dir / "manifest"}), 0);
}

// Writes netCDF4-python's files into argv[1] and a line per file to
// argv[1]/list: FILE VARIABLE CODE COUNT; FILE.VARIABLE.values holds the
// elements in this machine's order.
const char* python_files_script = R"py(
import sys, os, netCDF4, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(17)
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
n = 20011
for fmt in ('NETCDF4', 'NETCDF4_CLASSIC', 'NETCDF3_CLASSIC', 'NETCDF3_64BIT_OFFSET', 'NETCDF3_64BIT_DATA'):
    classic_model = fmt not in ('NETCDF4', 'NETCDF3_64BIT_DATA')
    for code in ('f8', 'f4', 'i4', 'u1'):
        x = data(code, n)
        path = os.path.join(d, f"{fmt}_{code}.nc")
        with netCDF4.Dataset(path, 'w', format=fmt) as f:
            f.createDimension('fixed', n)
            f.createDimension('time', None)
            stored = 'i1' if (code == 'u1' and classic_model) else code
            variants = {'plain': {}, 'grown': {}}
            if fmt.startswith('NETCDF4'):
                variants.update({'zlib': dict(zlib=True, complevel=6, shuffle=True, chunksizes=(4000,)),
                                 'contiguous': dict(contiguous=True)})
                if fmt == 'NETCDF4':
                    variants['big'] = dict(endian='big', zlib=True)
            for name, kw in variants.items():
                v = f.createVariable(name, stored, ('time' if name == 'grown' else 'fixed',), **kw)
                if stored != code:
                    v.setncattr('_Unsigned', 'true')
                    v.set_auto_scale(False)
                v[:] = x.view(stored)
                x.tofile(f"{path}.{name}.values")
                lines.append(f"{path} {name} {code} {n}")
open(os.path.join(d, 'list'), 'w').write('\n'.join(lines) + '\n')
with netCDF4.Dataset(os.path.join(d, 'refused.nc'), 'w', format='NETCDF4') as f:
    f.createDimension('a', 3)
    f.createDimension('b', 4)
    f.createVariable('grid', 'f8', ('a', 'b'))[:] = 0
    f.createVariable('data', 'f8', ('a',))[:] = 0
)py";

TEST(NetcdfTools, NetCDF4PythonFilesReadBitExact) {
    temp_dir dir;
    ASSERT_EQ(run_python(dir, python_files_script, {dir.path().string()}), 0);
    std::istringstream list(file_text(dir / "list"));
    std::string file, name, code;
    std::size_t count = 0;
    int variables = 0;
    while (list >> file >> name >> code >> count) {
        SCOPED_TRACE(file + ":" + name);
        fb_dtype d = dtype_of(code);
        bytes want = file_bytes(file + "." + name + ".values");
        ASSERT_EQ(want.size(), count * esize(d));
        bytes got;
        std::string message;
        ASSERT_EQ(status_of(
                      [&] {
                          got = read_array(id, file, d, count, {{"variable", name}}, 4097);
                      },
                      &message),
                  FB_OK)
            << message;
        ASSERT_EQ(first_difference(got, want, esize(d)), "");
        ++variables;
    }
    EXPECT_EQ(variables, 4 * (5 + 4 + 2 + 2 + 2))
        << "per dtype: 5 netCDF-4, 4 netCDF-4 classic, 2 per CDF format";
    // netCDF4-python's 3 x 4 grid of zeros: read as the 12 flat values, and
    // as the shape 3 x 4 by boxes; 13 elements are refused naming its shape.
    std::string message;
    EXPECT_EQ(read_array(id, dir / "refused.nc", FB_DTYPE_F64, 12, {{"variable", "grid"}}), bytes(96, 0));
    {
        auto r = plugin(id).open_read(dir / "refused.nc", FB_DTYPE_F64, 12, {{"variable", "grid"}},
                                      {{3, 4}, false});
        double row[4] = {1, 1, 1, 1};
        r->read_box({2, 0}, {1, 4}, row);
        EXPECT_EQ(std::vector<double>(row, row + 4), std::vector<double>(4, 0.0));
        r->close();
    }
    EXPECT_EQ(status_of(
                  [&] {
                      read_array(id, dir / "refused.nc", FB_DTYPE_F64, 13, {{"variable", "grid"}});
                  },
                  &message),
              FB_E_TRUNCATED);
    EXPECT_NE(message.find("holds 12 elements (3 x 4)"), std::string::npos) << message;
    EXPECT_EQ(status_of([&] { read_array(id, dir / "refused.nc", FB_DTYPE_F32, 3); }, &message),
              FB_E_CORRUPT);
    EXPECT_NE(message.find("holds double (64-bit), not f32"), std::string::npos) << message;
}

// Shaped files (ABI 1.2), contiguous and chunked: netCDF4-python sees the
// shape (3, 4, 5), the dimensions dim0..dim2, chunking() and the values
// numpy's arange gives.
const char* python_shape_script = R"py(
import sys, netCDF4, numpy as np
path, chunking = sys.argv[1], sys.argv[2]
with netCDF4.Dataset(path) as f:
    v = f['data']
    got = (v.shape, v.dimensions, str(v.chunking()).replace(' ', ''))
    want = ((3, 4, 5), ('dim0', 'dim1', 'dim2'), chunking)
    if got != want:
        print(f"{path}: netCDF4 sees {got}, expected {want}")
        sys.exit(1)
    if not np.array_equal(np.asarray(v[:]), np.arange(60, dtype='f8').reshape(3, 4, 5)):
        print(f"{path}: netCDF4 reads other values")
        sys.exit(1)
)py";

TEST(NetcdfTools, NetCDF4PythonReadsShapedFiles) {
    temp_dir dir;
    for (auto [options, chunking] : std::vector<std::pair<option_list, std::string>>{
             {{}, "contiguous"},
             {{{"chunks", "2,3,4"}}, "[2,3,4]"},
             {{{"chunks", "1,4,5"}, {"deflate", "3"}}, "[1,4,5]"}}) {
        const std::string path = dir / "shaped.nc";
        std::filesystem::remove(path);
        shaped_test::write_shaped(id, path, options);
        EXPECT_EQ(run_python(dir, python_shape_script, {path, chunking}), 0) << chunking;
    }
}

} // namespace

int main(int argc, char** argv) {
    return plugin_test::run_tests_requiring(
        argc, argv,
        {{"command -v ncdump", "needs ncdump (netcdf-bin)"},
         {std::string(plugin_test::python) + " -c 'import netCDF4, numpy'",
          "needs netCDF4 for /usr/bin/python3 (python3-netcdf4)"}});
}

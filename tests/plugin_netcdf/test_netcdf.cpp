// Tests of the netcdf plugin through the core registry, with the netCDF C
// API as the independent inspector of what it wrote: round trips of every
// declared dtype in every format, dimension mode, storage option and
// chunking; the file's structure (format, variable type, _Unsigned for u8 in
// the classic model, dimension 'index' fixed or unlimited, chunking,
// deflate, fill off); refused option combinations and non-regular output
// paths; variables made here with the C API that the reader accepts or
// refuses (status, file and variable named); truncated files, which netCDF
// itself would read as zeros in the classic formats; flipped bytes (each
// read in a child: no crash and no hang in the classic formats; netCDF-4 has
// a known crash inside HDF5, counted); concurrent streams from two threads
// (netCDF-C is not thread-safe; the plugin serialises); nothing on stderr.
// Shapes (ABI 1.2): dimensions dim0..dim2 of the data set's shape,
// contiguous and chunked by the option chunks, read_at and read_box
// (shaped_test.hpp), and the chunks option's refusals at plan and open.
#include "../plugin_hdf5/shaped_test.hpp"
#include "plugin_test.hpp"

#include <hdf5.h>
#include <netcdf.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <atomic>
#include <thread>

namespace {

using namespace plugin_test;

const std::string id = "netcdf";
const fb_dtype dtypes[] = {FB_DTYPE_F64, FB_DTYPE_F32, FB_DTYPE_I32, FB_DTYPE_U8};
const char* const formats[] = {"netcdf4", "netcdf4_classic", "classic", "64bit_offset", "64bit_data"};

std::string options_text(const option_list& o) {
    std::string s;
    for (const auto& [k, v] : o)
        s += " " + k + "=" + v;
    return s;
}

// ---- Round trips -----------------------------------------------------------------

TEST(Netcdf, RoundTripEveryDtypeFormatAndDimension) {
    temp_dir dir;
    for (fb_dtype d : dtypes)
        for (const char* format : formats)
            for (int mode = 0; mode < 3; ++mode) // fixed, unlimited option, unknown count
                for (auto [wc, rc] : {std::pair<std::size_t, std::size_t>{0, 0}, {999, 4097}, {4097, 1}}) {
                    option_list o = {{"format", format}};
                    if (mode == 1) o.push_back({"unlimited", "true"});
                    std::size_t n = rc == 1 ? 3001 : 20011;
                    SCOPED_TRACE(testing::Message() << formatbench::dtype_name(d) << options_text(o)
                                                    << " mode " << mode << " chunks " << wc << "/" << rc);
                    bytes data = make_data(d, n);
                    write_array(id, dir / "a.nc", d, data, o, wc, mode == 2);
                    bytes back = read_array(id, dir / "a.nc", d, n, {}, rc);
                    ASSERT_EQ(first_difference(back, data, esize(d)), "");
                }
}

TEST(Netcdf, RoundTripNetcdf4StorageOptions) {
    const std::vector<option_list> sets = {
        {{"deflate", "1"}},
        {{"deflate", "9"}, {"shuffle", "true"}},
        {{"shuffle", "true"}},
        {{"chunking", "chunked"}},
        {{"chunking", "chunked"}, {"chunk", "1000"}, {"deflate", "4"}},
        {{"chunk", "777"}},
        {{"chunking", "contiguous"}},
        {{"format", "netcdf4_classic"}, {"deflate", "5"}, {"shuffle", "true"}, {"chunk", "4096"}},
        {{"unlimited", "true"}, {"chunk", "5000"}, {"deflate", "1"}},
    };
    temp_dir dir;
    for (fb_dtype d : dtypes)
        for (const auto& o : sets) {
            SCOPED_TRACE(formatbench::dtype_name(d) + options_text(o));
            bytes data = make_data(d, 20011);
            write_array(id, dir / "a.nc", d, data, o, 3001);
            ASSERT_EQ(first_difference(read_array(id, dir / "a.nc", d, 20011, {}, 4097), data, esize(d)), "");
        }
}

TEST(Netcdf, EmptyVariable) {
    temp_dir dir;
    for (const char* format : formats) {
        write_array(id, dir / "a.nc", FB_DTYPE_F64, {}, {{"format", format}});
        auto r = plugin(id).open_read(dir / "a.nc", FB_DTYPE_F64, 0, {});
        r->read(nullptr, 0);
        r->close();
    }
}

// ---- What the file holds ------------------------------------------------------------

struct variable_facts {
    int format = -1;
    nc_type type = NC_NAT;
    std::string unsigned_attribute;
    std::string dimension;
    std::size_t length = 0;
    bool unlimited = false;
    int storage = -1;
    std::size_t chunk = 0;
    int shuffle = 0, deflate = 0, level = 0;
    int no_fill = 0;
};

variable_facts inspect(const std::string& path, const std::string& variable = "data") {
    variable_facts f;
    int nc = -1, var = -1, dim = -1, unlimited = -1;
    if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return f;
    nc_inq_format(nc, &f.format);
    if (nc_inq_varid(nc, variable.c_str(), &var) == NC_NOERR) {
        nc_inq_vartype(nc, var, &f.type);
        char text[32] = "";
        std::size_t len = 0;
        if (nc_inq_attlen(nc, var, "_Unsigned", &len) == NC_NOERR && len < sizeof text &&
            nc_get_att_text(nc, var, "_Unsigned", text) == NC_NOERR)
            f.unsigned_attribute.assign(text, len);
        nc_inq_vardimid(nc, var, &dim);
        char name[NC_MAX_NAME + 1] = "";
        nc_inq_dim(nc, dim, name, &f.length);
        f.dimension = name;
        nc_inq_unlimdim(nc, &unlimited);
        f.unlimited = unlimited == dim;
        if (f.format == NC_FORMAT_NETCDF4 || f.format == NC_FORMAT_NETCDF4_CLASSIC) {
            nc_inq_var_chunking(nc, var, &f.storage, &f.chunk);
            nc_inq_var_deflate(nc, var, &f.shuffle, &f.deflate, &f.level);
            double fill[1];
            nc_inq_var_fill(nc, var, &f.no_fill, fill);
        }
    }
    nc_close(nc);
    return f;
}

TEST(Netcdf, FormatTypeAndDimension) {
    temp_dir dir;
    const std::pair<const char*, int> want_format[] = {{"netcdf4", NC_FORMAT_NETCDF4},
                                                       {"netcdf4_classic", NC_FORMAT_NETCDF4_CLASSIC},
                                                       {"classic", NC_FORMAT_CLASSIC},
                                                       {"64bit_offset", NC_FORMAT_64BIT_OFFSET},
                                                       {"64bit_data", NC_FORMAT_64BIT_DATA}};
    for (auto [format, code] : want_format) {
        const bool classic_model = std::string(format) != "netcdf4" && std::string(format) != "64bit_data";
        const std::pair<fb_dtype, nc_type> want_type[] = {{FB_DTYPE_F64, NC_DOUBLE},
                                                          {FB_DTYPE_F32, NC_FLOAT},
                                                          {FB_DTYPE_I32, NC_INT},
                                                          {FB_DTYPE_U8, classic_model ? NC_BYTE : NC_UBYTE}};
        for (auto [d, type] : want_type) {
            SCOPED_TRACE(std::string(format) + " " + formatbench::dtype_name(d));
            write_array(id, dir / "a.nc", d, make_data(d, 100),
                        {{"format", format}, {"variable", "temperature"}});
            variable_facts f = inspect(dir / "a.nc", "temperature");
            EXPECT_EQ(f.format, code);
            EXPECT_EQ(f.type, type);
            EXPECT_EQ(f.unsigned_attribute, type == NC_BYTE ? "true" : "");
            EXPECT_EQ(f.dimension, "index");
            EXPECT_EQ(f.length, 100u);
            EXPECT_FALSE(f.unlimited);
        }
    }
}

TEST(Netcdf, UnlimitedWhenAskedOrUnknown) {
    temp_dir dir;
    write_array(id, dir / "a.nc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 1000), {{"unlimited", "true"}});
    variable_facts f = inspect(dir / "a.nc");
    EXPECT_TRUE(f.unlimited);
    EXPECT_EQ(f.length, 1000u);
    write_array(id, dir / "b.nc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 1000), {{"format", "classic"}}, 300,
                true);
    f = inspect(dir / "b.nc");
    EXPECT_TRUE(f.unlimited) << "an unknown count makes the dimension unlimited";
    EXPECT_EQ(f.length, 1000u);
}

TEST(Netcdf, Netcdf4StorageAsAsked) {
    temp_dir dir;
    write_array(id, dir / "a.nc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 10000));
    variable_facts f = inspect(dir / "a.nc");
    EXPECT_EQ(f.storage, NC_CONTIGUOUS) << "netCDF's default for a fixed variable without filters";
    EXPECT_EQ(f.no_fill, 1) << "fill values are off";
    write_array(id, dir / "b.nc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 10000),
                {{"deflate", "7"}, {"shuffle", "true"}, {"chunk", "2500"}});
    f = inspect(dir / "b.nc");
    EXPECT_EQ(f.storage, NC_CHUNKED);
    EXPECT_EQ(f.chunk, 2500u);
    EXPECT_EQ(f.deflate, 1);
    EXPECT_EQ(f.level, 7);
    EXPECT_EQ(f.shuffle, 1);
    write_array(id, dir / "c.nc", FB_DTYPE_F32, make_data(FB_DTYPE_F32, 100),
                {{"chunking", "chunked"}, {"chunk", "4096"}});
    EXPECT_EQ(inspect(dir / "c.nc").chunk, 100u) << "a chunk is no larger than a fixed dimension";
}

// ---- Options and paths that cannot be written ------------------------------------------

TEST(Netcdf, ImpossibleCombinationsAreRefusedBeforeAnyFile) {
    temp_dir dir;
    const std::vector<std::pair<option_list, std::string>> cases = {
        {{{"format", "classic"}, {"deflate", "1"}}, "format classic has none"},
        {{{"format", "64bit_data"}, {"shuffle", "true"}}, "format 64bit_data has none"},
        {{{"format", "64bit_offset"}, {"chunking", "chunked"}}, "netCDF-4 storage settings"},
        {{{"format", "classic"}, {"chunk", "10"}}, "netCDF-4 storage settings"},
        {{{"chunking", "contiguous"}, {"deflate", "1"}}, "need chunking chunked"},
        {{{"chunking", "contiguous"}, {"unlimited", "true"}}, "cannot grow"},
        {{{"chunking", "contiguous"}, {"chunk", "10"}}, "chunk is the chunk size of chunking chunked"},
        {{{"variable", ""}}, "is not a netCDF variable name"},
        {{{"variable", "a/b"}}, "is not a netCDF variable name"},
    };
    for (const auto& c : cases) {
        // Named, not a structured binding: clang 14 cannot capture one in a lambda.
        const option_list& o = c.first;
        const std::string& text = c.second;
        std::string message;
        EXPECT_EQ(status_of([&] { plugin(id).open_write(dir / "a.nc", FB_DTYPE_F64, 10, o); }, &message),
                  FB_E_INVALID_OPTION)
            << options_text(o) << ": " << message;
        EXPECT_NE(message.find(text), std::string::npos) << message;
        EXPECT_FALSE(fs::exists(dir / "a.nc"));
    }
}

TEST(Netcdf, OnlyRegularFilesAreWritten) {
    // netCDF removes the file it was creating when nc_create fails: given a
    // device or a FIFO it would remove that. A FIFO stands for both here
    // (anyone may make one).
    temp_dir dir;
    std::string fifo = dir / "fifo.nc";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const char* format : formats) {
        std::string message;
        EXPECT_EQ(
            status_of(
                [&] {
                    write_array(id, fifo, FB_DTYPE_F64, make_data(FB_DTYPE_F64, 10), {{"format", format}});
                },
                &message),
            FB_E_IO);
        EXPECT_NE(message.find("'" + fifo + "' is not a regular file"), std::string::npos) << message;
        struct stat st {};
        EXPECT_TRUE(::stat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)) << "the FIFO is still there";
    }
    std::string path = dir / "no/such/folder/a.nc";
    std::string message;
    EXPECT_EQ(status_of([&] { write_array(id, path, FB_DTYPE_F64, {}); }, &message), FB_E_IO);
    EXPECT_NE(message.find("cannot create '" + path + "': " + std::strerror(ENOENT)), std::string::npos)
        << message;
}

TEST(Netcdf, WritesBeyondTheCountOrShortOfItAreErrors) {
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_I32, 11);
    auto w = plugin(id).open_write(dir / "a.nc", FB_DTYPE_I32, 10, {{"format", "classic"}});
    std::string message;
    EXPECT_EQ(status_of([&] { w->write(data.data(), 11); }, &message), FB_E_STATE);
    EXPECT_NE(message.find("goes past the 10"), std::string::npos) << message;
    w->write(data.data(), 5);
    EXPECT_EQ(status_of([&] { w->close(); }, &message), FB_E_STATE);
    EXPECT_NE(message.find("closed after 5 of the 10"), std::string::npos) << message;
}

// ---- Variables made with the C API -----------------------------------------------------

// A file with one variable: format flags, type, dimension lengths (0 for an
// unlimited one), _Unsigned text ("" for none), data in the variable's type.
void make_variable(const std::string& path, int mode, const char* name, nc_type type,
                   std::vector<std::size_t> dims, const std::string& unsigned_text, const void* data) {
    int nc = -1, var = -1;
    ASSERT_EQ(nc_create(path.c_str(), NC_CLOBBER | mode, &nc), NC_NOERR);
    std::vector<int> ids;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        int dim = -1;
        ASSERT_EQ(nc_def_dim(nc, ("d" + std::to_string(i)).c_str(), dims[i], &dim), NC_NOERR);
        ids.push_back(dim);
    }
    ASSERT_EQ(nc_def_var(nc, name, type, static_cast<int>(ids.size()), ids.data(), &var), NC_NOERR);
    if (!unsigned_text.empty())
        nc_put_att_text(nc, var, "_Unsigned", unsigned_text.size(), unsigned_text.c_str());
    ASSERT_EQ(nc_enddef(nc), NC_NOERR);
    if (data && !dims.empty()) {
        std::vector<std::size_t> start(dims.size(), 0), count = dims;
        ASSERT_EQ(nc_put_vara(nc, var, start.data(), count.data(), data), NC_NOERR);
    }
    ASSERT_EQ(nc_close(nc), NC_NOERR);
}

TEST(Netcdf, ReadsOtherWritersVariables) {
    temp_dir dir;
    const unsigned char b[4] = {0, 127, 129, 255};
    for (const char* text : {"true", "TRUE", "True"}) {
        make_variable(dir / "u8.nc", 0, "data", NC_BYTE, {4}, text, b);
        EXPECT_EQ(read_array(id, dir / "u8.nc", FB_DTYPE_U8, 4), bytes(b, b + 4)) << text;
    }
    make_variable(dir / "ubyte.nc", NC_NETCDF4, "data", NC_UBYTE, {4}, "", b);
    EXPECT_EQ(read_array(id, dir / "ubyte.nc", FB_DTYPE_U8, 4), bytes(b, b + 4));
    const double v[3] = {1.5, -0.0, 1e300};
    make_variable(dir / "rec.nc", NC_64BIT_OFFSET, "x", NC_DOUBLE, {0}, "", nullptr);
    int nc = -1, var = 0;
    std::size_t start = 0, count = 3;
    ASSERT_EQ(nc_open((dir / "rec.nc").c_str(), NC_WRITE, &nc), NC_NOERR);
    ASSERT_EQ(nc_put_vara(nc, var, &start, &count, v), NC_NOERR);
    ASSERT_EQ(nc_close(nc), NC_NOERR);
    bytes back = read_array(id, dir / "rec.nc", FB_DTYPE_F64, 3, {{"variable", "x"}}, 2);
    EXPECT_EQ(std::memcmp(back.data(), v, 24), 0);
}

TEST(Netcdf, RefusesVariablesThatAreNotWhatWasAsked) {
    temp_dir dir;
    const std::int32_t i[6] = {1, 2, 3, 4, 5, 6};
    make_variable(dir / "int.nc", 0, "data", NC_INT, {6}, "", i);
    make_variable(dir / "byte.nc", 0, "data", NC_BYTE, {6}, "", i);
    make_variable(dir / "false.nc", 0, "data", NC_BYTE, {6}, "false", i);
    make_variable(dir / "2d.nc", NC_NETCDF4, "data", NC_DOUBLE, {2, 3}, "", nullptr);
    make_variable(dir / "scalar.nc", 0, "data", NC_DOUBLE, {}, "", nullptr);
    make_variable(dir / "other.nc", 0, "temperature", NC_DOUBLE, {6}, "", nullptr);
    expect_refused(
        id, dir,
        {
            {"int.nc", FB_DTYPE_F64, 6, FB_E_CORRUPT,
             "variable 'data' of '" + (dir / "int.nc") + "' holds int (32-bit), not f64"},
            {"int.nc", FB_DTYPE_F32, 6, FB_E_CORRUPT,
             "holds int (32-bit), not f32; read it with the dtype it holds"},
            {"byte.nc", FB_DTYPE_U8, 6, FB_E_CORRUPT,
             "u8 reads ubyte, or byte with the attribute _Unsigned = \"true\""},
            {"false.nc", FB_DTYPE_U8, 6, FB_E_CORRUPT, "holds byte (signed 8-bit), not u8"},
            {"2d.nc", FB_DTYPE_F64, 7, FB_E_TRUNCATED, "holds 6 elements (2 x 3), 7 were asked for"},
            {"scalar.nc", FB_DTYPE_F64, 1, FB_E_UNSUPPORTED, "has no dimension (a scalar)"},
            {"other.nc", FB_DTYPE_F64, 6, FB_E_CORRUPT,
             "has no variable 'data'; it holds temperature; choose one with the option variable"},
            {"int.nc", FB_DTYPE_I32, 7, FB_E_TRUNCATED, "holds 6 elements, 7 were asked for"},
            {"int.nc", FB_DTYPE_I32, 5, FB_E_CORRUPT, "set the count to 6"},
        });
    expect_read_past_the_end_refused(id, dir / "int.nc", FB_DTYPE_I32, 6);
}

TEST(Netcdf, NotANetcdfFile) {
    temp_dir dir;
    put_file(dir / "empty.nc", "");
    put_file(dir / "text.nc", std::string(5000, 'x'));
    std::string message;
    EXPECT_EQ(status_of([&] { read_array(id, dir / "empty.nc", FB_DTYPE_F64, 1); }, &message),
              FB_E_TRUNCATED);
    EXPECT_NE(message.find("'" + (dir / "empty.nc") + "' is empty"), std::string::npos) << message;
    EXPECT_EQ(status_of([&] { read_array(id, dir / "text.nc", FB_DTYPE_F64, 1); }, &message), FB_E_CORRUPT);
    EXPECT_NE(message.find("cannot open '" + (dir / "text.nc") +
                           "': NetCDF: Unknown file format; it is not a netCDF file"),
              std::string::npos)
        << message;
    EXPECT_EQ(status_of([&] { read_array(id, dir / "missing.nc", FB_DTYPE_F64, 1); }, &message), FB_E_IO);
    EXPECT_NE(message.find("cannot open '" + (dir / "missing.nc") + "': " + std::strerror(ENOENT)),
              std::string::npos)
        << message;
    EXPECT_EQ(status_of([&] { read_array(id, dir.path().string(), FB_DTYPE_F64, 1); }, &message), FB_E_IO);
    EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
}

// ---- Damaged files -----------------------------------------------------------------

TEST(Netcdf, TruncatedFilesAreTruncatedNotZeros) {
    temp_dir dir;
    for (const char* format : formats)
        for (bool unlimited : {false, true}) {
            SCOPED_TRACE(std::string(format) + (unlimited ? " unlimited" : ""));
            bytes data = make_data(FB_DTYPE_F64, 5000);
            write_array(id, dir / "a.nc", FB_DTYPE_F64, data,
                        {{"format", format}, {"unlimited", unlimited ? "true" : "false"}});
            bytes whole = file_bytes(dir / "a.nc");
            const bool classic = std::string(format).find("netcdf4") == std::string::npos;
            // A classic header ends where the data starts (one variable).
            const std::size_t header = classic ? whole.size() - data.size() : 64;
            for (std::size_t keep = 0; keep < whole.size(); keep += keep < 600 ? 1 : 397) {
                put_file(dir / "cut.nc", whole.data(), keep);
                std::string message;
                int st = status_of([&] { read_array(id, dir / "cut.nc", FB_DTYPE_F64, 5000); }, &message);
                if (keep >= header)
                    ASSERT_EQ(st, FB_E_TRUNCATED)
                        << "kept " << keep << " of " << whole.size() << ": " << message;
                else
                    ASSERT_TRUE(st == FB_E_TRUNCATED || st == FB_E_CORRUPT)
                        << "kept " << keep << " of " << whole.size() << ": " << message;
            }
        }
}

TEST(Netcdf, FlippedHeaderBytesInClassicFilesNeverCrashOrHang) {
    // Every header byte of each classic format, turned into its complement
    // and with its lowest and its highest bit flipped.
    // The classic formats have no checksum: a flip in a variable's offset
    // may read other bytes as data (counted and shown); never a crash, a
    // hang or a bug status.
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F64, 1000);
    for (const char* format : {"classic", "64bit_offset", "64bit_data"})
        for (bool unlimited : {false, true}) {
            option_list o = {{"format", format}, {"unlimited", unlimited ? "true" : "false"}};
            SCOPED_TRACE(options_text(o));
            write_array(id, dir / "a.nc", FB_DTYPE_F64, data, o);
            bytes whole = file_bytes(dir / "a.nc");
            std::size_t header = whole.size() - data.size(), refused = 0, other = 0;
            child_reader reader(id, data, dir / "bad.nc", whole);
            for (std::size_t k = 0; k < 3 * header; ++k) {
                const std::size_t i = k / 3;
                const unsigned char masks[3] = {0xff, 0x01, 0x80};
                std::string outcome = reader.read_flipped(i, masks[k % 3]);
                if (outcome == "ok") continue;
                if (outcome == "other values") {
                    ++other;
                    continue;
                }
                ++refused;
                ASSERT_TRUE(outcome == "error 4" || outcome == "error 5" || outcome == "error 2")
                    << "byte " << i << " of the " << header << "-byte header ^ " << int(masks[k % 3]) << ": "
                    << outcome;
            }
            EXPECT_GT(refused, 0u);
            std::printf("flips%s: 3 x %zu header bytes, %zu refused, %zu gave other values undetected\n",
                        options_text(o).c_str(), header, refused, other);
        }
}

TEST(Netcdf, FlippedBytesInNetcdf4FilesNeverHang) {
    // Every third byte of a netCDF-4 file outside its data. No hang and no
    // bug status. netCDF 4.9.0 on HDF5 1.10.8 crashes (SIGSEGV in HDF5's
    // H5HG_read, reached from nc_open through H5DSget_num_scales) on some
    // damaged dimension-scale attributes: a crash in the libraries that the
    // plugin cannot catch; counted and shown here, documented in the
    // plugin's README, and the forked executor turns it into a failed case.
    temp_dir dir;
    bytes data = make_data(FB_DTYPE_F64, 1000);
    write_array(id, dir / "a.nc", FB_DTYPE_F64, data, {{"format", "netcdf4"}});
    bytes whole = file_bytes(dir / "a.nc");
    auto at = std::search(whole.begin(), whole.end(), data.begin(), data.end());
    ASSERT_NE(at, whole.end()) << "contiguous data expected";
    std::size_t data_start = static_cast<std::size_t>(at - whole.begin());
    std::size_t flipped = 0, refused = 0, crashed = 0;
    child_reader reader(id, data, dir / "bad.nc", whole);
    for (std::size_t i = 0; i < whole.size(); i += 3) {
        if (i >= data_start && i < data_start + data.size()) continue;
        ++flipped;
        std::string outcome = reader.read_flipped(i, 0xff);
        if (outcome == "ok") continue;
        if (outcome.rfind("crash", 0) == 0) {
            ++crashed;
            std::printf("byte %zu flipped: %s (inside netCDF/HDF5)\n", i, outcome.c_str());
            continue;
        }
        ++refused;
        ASSERT_TRUE(outcome == "error 4" || outcome == "error 5" || outcome == "error 2" ||
                    outcome == "other values")
            << "byte " << i << " of " << whole.size() << ": " << outcome;
    }
    EXPECT_GT(refused, 0u);
    std::printf("netcdf4 flips: %zu bytes, %zu refused, %zu crashed inside netCDF/HDF5\n", flipped, refused,
                crashed);
}

// ---- Threads and stderr -------------------------------------------------------------

TEST(Netcdf, StreamsOnTwoThreadsAtOnce) {
    // netCDF-C is not thread-safe; the plugin serialises its calls, so two
    // threads each with its own stream work (without the lock this crashes
    // or corrupts netCDF's list of open files).
    temp_dir dir;
    std::atomic<int> failures{0};
    auto worker = [&](int k) {
        for (int round = 0; round < 20; ++round) {
            std::string path = dir / ("t" + std::to_string(k) + ".nc");
            bytes data = make_data(FB_DTYPE_F64, 5000, static_cast<unsigned>(k * 100 + round));
            try {
                write_array(id, path, FB_DTYPE_F64, data, {{"format", k ? "classic" : "netcdf4"}}, 100);
                if (read_array(id, path, FB_DTYPE_F64, 5000, {}, 100) != data) ++failures;
            } catch (const std::exception& e) {
                std::printf("thread %d: %s\n", k, e.what());
                ++failures;
            }
        }
    };
    std::thread a(worker, 0), b(worker, 1);
    a.join();
    b.join();
    EXPECT_EQ(failures, 0);
}

TEST(Netcdf, NothingOnStderrFromAnyThread) {
    temp_dir dir;
    write_array(id, dir / "good.nc", FB_DTYPE_F64, make_data(FB_DTYPE_F64, 1000));
    bytes damaged = file_bytes(dir / "good.nc");
    damaged.resize(damaged.size() / 2);
    put_file(dir / "half.nc", damaged);
    std::string hdf5_header(8, '\0');
    std::memcpy(hdf5_header.data(), "\x89HDF\r\n\x1a\n", 8);
    put_file(dir / "fake.nc", hdf5_header + std::string(3000, 'x'));
    auto failing_calls = [&] {
        status_of([&] { read_array(id, dir / "half.nc", FB_DTYPE_F64, 1000); });
        status_of([&] { read_array(id, dir / "fake.nc", FB_DTYPE_F64, 1000); });
        status_of([&] { read_array(id, dir / "good.nc", FB_DTYPE_F32, 1000); });
        status_of([&] { read_array(id, dir / "good.nc", FB_DTYPE_F64, 1000, {{"variable", "nope"}}); });
    };
    // HDF5's default on this thread: print errors to stderr.
    H5Eset_auto2(H5E_DEFAULT, reinterpret_cast<H5E_auto2_t>(H5Eprint2), stderr);
    fflush(stderr);
    int saved = ::dup(2);
    int sink = ::open((dir / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(sink, 2);
    failing_calls();
    std::thread(failing_calls).join();
    fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    ::close(sink);
    EXPECT_EQ(file_text(dir / "stderr"), "");
}

// ---- Shapes and random access (ABI 1.2) ------------------------------------------

struct shaped_storage {
    option_list options;
    int storage;                    // NC_CONTIGUOUS or NC_CHUNKED (netCDF-4), -1 for classic formats
    std::vector<std::size_t> chunk; // when chunked
};

TEST(Netcdf, ShapedVariablesReadAtRandom) {
    temp_dir dir;
    const std::vector<shaped_storage> cases = {
        {{}, NC_CONTIGUOUS, {}},
        {{{"chunks", "contiguous"}}, NC_CONTIGUOUS, {}},
        {{{"chunks", "2,3,4"}}, NC_CHUNKED, {2, 3, 4}},
        {{{"chunks", "1,4,2"}, {"deflate", "1"}, {"format", "netcdf4_classic"}}, NC_CHUNKED, {1, 4, 2}},
        {{{"chunks", "64,64,64"}}, NC_CHUNKED, {3, 4, 5}},
        {{{"chunk", "7"}}, NC_CHUNKED, {1, 1, 5}},
        {{{"format", "classic"}}, -1, {}},
        {{{"format", "64bit_data"}}, -1, {}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(options_text(c.options));
        const std::string path = dir / "shaped.nc";
        std::filesystem::remove(path);
        shaped_test::write_shaped(id, path, c.options);
        // The file, with the C API: dimensions dim0..dim2 of 3, 4, 5, the
        // storage, the values of the index formula.
        int nc = -1, var = -1, ndims = 0, dims[3] = {};
        ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &nc), NC_NOERR);
        ASSERT_EQ(nc_inq_varid(nc, "data", &var), NC_NOERR);
        nc_inq_varndims(nc, var, &ndims);
        ASSERT_EQ(ndims, 3);
        nc_inq_vardimid(nc, var, dims);
        for (int k = 0; k < 3; ++k) {
            char name[NC_MAX_NAME + 1] = "";
            std::size_t length = 0;
            nc_inq_dim(nc, dims[k], name, &length);
            EXPECT_EQ(std::string(name), "dim" + std::to_string(k));
            EXPECT_EQ(length, shaped_test::shape[k]);
        }
        if (c.storage >= 0) {
            int storage = -1;
            std::size_t chunk[3] = {};
            nc_inq_var_chunking(nc, var, &storage, chunk);
            EXPECT_EQ(storage, c.storage);
            if (storage == NC_CHUNKED) {
                EXPECT_EQ(std::vector<std::size_t>(chunk, chunk + 3), c.chunk);
            }
        }
        double all[60];
        EXPECT_EQ(nc_get_var_double(nc, var, all), NC_NOERR);
        EXPECT_EQ(std::vector<double>(all, all + 60), shaped_test::range_values(0, 60));
        nc_close(nc);

        shaped_test::expect_random_access(id, path, c.options);
        shaped_test::expect_flat_and_other_shape(id, path);
    }
}

TEST(Netcdf, FlatVariablesReadAt) {
    temp_dir dir;
    for (const char* format : {"netcdf4", "classic"}) {
        const bytes data = make_data(FB_DTYPE_I32, 100, 3);
        write_array(id, dir / "flat.nc", FB_DTYPE_I32, data, {{"format", format}});
        auto r = plugin(id).open_read(dir / "flat.nc", FB_DTYPE_I32, 100, {});
        for (auto [offset, count] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {0, 1}, {99, 1}, {13, 40}, {13, 40}, {0, 100}}) {
            bytes got(count * 4);
            r->read_at(offset, got.data(), count);
            EXPECT_EQ(got, bytes(data.begin() + offset * 4, data.begin() + (offset + count) * 4));
        }
        std::string message;
        unsigned char sink[8];
        EXPECT_EQ(status_of([&] { r->read_at(99, sink, 2); }, &message), FB_E_TRUNCATED) << message;
        r->close();
    }
}

TEST(Netcdf, ChunksOptionRefusals) {
    using shaped_test::plan_refusal;
    temp_dir dir;
    struct refusal {
        option_list options;
        std::string text;
    };
    for (const refusal& c : std::vector<refusal>{
             {{{"chunks", "0,4,5"}}, "option chunks '0,4,5': 0 is not a chunk extent"},
             {{{"chunks", "big"}}, "chunks is auto, contiguous, or chunk extents"},
             {{{"chunks", "2,3,4"}, {"format", "classic"}},
              "option chunks '2,3,4': format classic (a classic format) stores every variable in one piece "
              "and "
              "cannot chunk; use format netcdf4 or netcdf4_classic"},
             {{{"chunks", "contiguous"}, {"format", "64bit_offset"}}, "cannot chunk"},
             {{{"chunks", "2,3,4"}, {"chunking", "contiguous"}}, "contradict"},
             {{{"chunks", "contiguous"}, {"chunking", "chunked"}}, "contradict"},
             {{{"chunks", "2,3,4"}, {"chunk", "100"}}, "two chunk sizes"},
             {{{"chunks", "contiguous"}, {"deflate", "1"}},
              "chunks contiguous stores the variable in one piece"},
         }) {
        SCOPED_TRACE(options_text(c.options));
        const std::string plan = plan_refusal(id, c.options);
        EXPECT_NE(plan.find(c.text), std::string::npos) << plan;
        std::string message;
        const std::string path = dir / "refused.nc";
        EXPECT_EQ(status_of([&] { shaped_test::write_shaped(id, path, c.options); }, &message),
                  FB_E_INVALID_OPTION);
        EXPECT_NE(message.find(c.text), std::string::npos) << message;
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_FALSE(std::filesystem::exists(path));
    }
    EXPECT_EQ(plan_refusal(id, {{"chunks", "2,3"}}), "");
    std::string message;
    const std::string path = dir / "refused.nc";
    EXPECT_EQ(status_of(
                  [&] {
                      shaped_test::write_shaped(id, path, {{"chunks", "2,3"}});
                  },
                  &message),
              FB_E_INVALID_OPTION);
    EXPECT_NE(message.find("option chunks: 2 extents for the shape 3 x 4 x 5 (3 axes)"), std::string::npos)
        << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_FALSE(std::filesystem::exists(path));
}

} // namespace

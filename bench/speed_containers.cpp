// Measures the container plugins (hdf5, netcdf, npy) beside their
// references, in one process run, and prints one JSON object of per-round
// samples (seconds) for bench/plugin-speed.py --containers, which prints the
// ratios. Not a test.
//
//   speed_containers PLUGIN_DIR WORK_DIR N [RUNS [GROUP,...]]
//
// Groups (a figure and its references run back to back, order rotating
// each round, as bench/rounds.hpp does), each unit a write then its read:
//   hdf5            the hdf5 plugin (layout contiguous), the bare HDF5 calls
//                   (H5Fcreate, H5Screate_simple, H5Dcreate2, H5Dwrite,
//                   H5Dclose, H5Fclose; H5Fopen, H5Dopen2, H5Dread, ...), raw
//   hdf5_deflate    the hdf5 plugin with deflate 6 + shuffle (chunks of its
//                   default 131072 f64, 1 MiB), and the bare calls with the
//                   same: H5Pset_chunk 131072, H5Pset_shuffle, H5Pset_deflate 6
//   netcdf4         the netcdf plugin (format netcdf4), the bare netCDF calls
//                   (nc_create, nc_set_fill NOFILL, nc_def_dim, nc_def_var,
//                   nc_enddef, nc_put_var, nc_close; nc_open, nc_inq_varid,
//                   nc_get_var, nc_close)
//   netcdf_classic  the same with format classic (CDF-1)
//   npy             the npy plugin, raw
// The bare references use the same buffers and are timed the same way,
// open to close. Every read is checked against the data, untimed. GROUPS
// (comma-separated) runs only those groups; all by default.
#include "host/registry.hpp"
#include "rounds.hpp"
#include "run/buffer.hpp"
#include "run/data.hpp"

#include <hdf5.h>
#include <netcdf.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

using namespace formatbench;
using namespace formatbench::bench;

namespace {

void must(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("bare reference failed: ") + what);
}

void bare_hdf5_write(const std::string& path, const void* data, std::size_t n) {
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, nullptr);
    hid_t set = H5Dcreate2(file, "data", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    must(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0, "H5Dwrite");
    H5Dclose(set);
    H5Sclose(space);
    must(H5Fclose(file) >= 0, "H5Fclose");
}

// The bare program with filters: chunks of `chunk` elements, shuffle, then
// deflate at `level`, default property lists otherwise.
void bare_hdf5_deflate_write(const std::string& path, const void* data, std::size_t n, hsize_t chunk,
                             unsigned level) {
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    must(H5Pset_chunk(dcpl, 1, &chunk) >= 0 && H5Pset_shuffle(dcpl) >= 0 && H5Pset_deflate(dcpl, level) >= 0,
         "H5Pset_chunk, H5Pset_shuffle, H5Pset_deflate");
    hid_t set = H5Dcreate2(file, "data", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    must(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0, "H5Dwrite");
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
    must(H5Fclose(file) >= 0, "H5Fclose");
}

void bare_hdf5_read(const std::string& path, void* out) {
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t set = H5Dopen2(file, "data", H5P_DEFAULT);
    must(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0, "H5Dread");
    H5Dclose(set);
    H5Fclose(file);
}

void bare_netcdf_write(const std::string& path, int mode, const void* data, std::size_t n) {
    int nc = -1, dim = -1, var = -1, old = 0;
    must(nc_create(path.c_str(), NC_CLOBBER | mode, &nc) == NC_NOERR, "nc_create");
    nc_set_fill(nc, NC_NOFILL, &old);
    nc_def_dim(nc, "index", n, &dim);
    nc_def_var(nc, "data", NC_DOUBLE, 1, &dim, &var);
    must(nc_enddef(nc) == NC_NOERR, "nc_enddef");
    must(nc_put_var(nc, var, data) == NC_NOERR, "nc_put_var");
    must(nc_close(nc) == NC_NOERR, "nc_close");
}

void bare_netcdf_read(const std::string& path, void* out) {
    int nc = -1, var = -1;
    must(nc_open(path.c_str(), NC_NOWRITE, &nc) == NC_NOERR, "nc_open");
    nc_inq_varid(nc, "data", &var);
    must(nc_get_var(nc, var, out) == NC_NOERR, "nc_get_var");
    nc_close(nc);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: speed_containers PLUGIN_DIR WORK_DIR N [RUNS [GROUP,...]]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const std::string dir = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    const int runs = argc > 4 ? std::stoi(argv[4]) : 7;
    const std::string groups = argc > 5 ? "," + std::string(argv[5]) + "," : "";
    auto wanted = [&](const std::string& group) {
        return groups.empty() || groups.find("," + group + ",") != std::string::npos;
    };
    const std::size_t bytes = n * sizeof(double);
    // The bare HDF5 calls print nothing either (they should not fail).
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);

    dataset_spec spec;
    spec.count = n;
    spec.dist = distribution::uniform;
    aligned_buffer data(bytes), back(bytes);
    generator(spec).fill(0, n, data.data());

    std::vector<step> steps;
    auto clear = [&] { std::memset(back.data(), 0, bytes); };
    auto check = [&](const std::string& what) {
        return [&, what] {
            if (std::memcmp(back.data(), data.data(), bytes) != 0)
                std::fprintf(stderr, "%s: read differs from the data\n", what.c_str());
        };
    };
    // One unit: a write (from no file) and its read.
    auto unit = [&](const std::string& group, const std::string& name,
                    std::function<void(const std::string&)> write,
                    std::function<void(const std::string&)> read) {
        if (!wanted(group)) return;
        const std::string path = dir + "/" + name;
        steps.emplace_back(
            name + ".write", group, name, 0, [path] { ::unlink(path.c_str()); },
            [write, path] { write(path); });
        steps.emplace_back(
            name + ".read", group, name, 1, clear, [read, path] { read(path); }, check(name));
    };
    auto plugin_unit = [&](const std::string& group, const std::string& name, const char* id,
                           const option_list& options) {
        if (!wanted(group)) return;
        const plugin* p = reg.find(id);
        if (!p) {
            std::fprintf(stderr, "speed_containers: no plugin '%s' in %s\n", id, argv[1]);
            std::exit(1);
        }
        unit(
            group, name,
            [&, p, options](const std::string& path) {
                auto s = p->open_write(path, FB_DTYPE_F64, n, options);
                s->write(data.data(), n);
                s->close();
            },
            [&, p, options](const std::string& path) {
                auto s = p->open_read(path, FB_DTYPE_F64, n, options);
                s->read(back.data(), n);
                s->close();
            });
    };

    plugin_unit("hdf5", "hdf5", "hdf5", {{"layout", "contiguous"}});
    unit(
        "hdf5", "hdf5_bare", [&](const std::string& path) { bare_hdf5_write(path, data.data(), n); },
        [&](const std::string& path) { bare_hdf5_read(path, back.data()); });
    plugin_unit("hdf5", "raw_hdf5_group", "raw", {});
    plugin_unit("hdf5_deflate", "hdf5_deflate", "hdf5", {{"deflate", "6"}, {"shuffle", "true"}});
    unit(
        "hdf5_deflate", "hdf5_deflate_bare",
        [&](const std::string& path) { bare_hdf5_deflate_write(path, data.data(), n, 131072, 6); },
        [&](const std::string& path) { bare_hdf5_read(path, back.data()); });
    plugin_unit("netcdf4", "netcdf4", "netcdf", {{"format", "netcdf4"}});
    unit(
        "netcdf4", "netcdf4_bare",
        [&](const std::string& path) { bare_netcdf_write(path, NC_NETCDF4, data.data(), n); },
        [&](const std::string& path) { bare_netcdf_read(path, back.data()); });
    plugin_unit("netcdf_classic", "netcdf_classic", "netcdf", {{"format", "classic"}});
    unit(
        "netcdf_classic", "netcdf_classic_bare",
        [&](const std::string& path) { bare_netcdf_write(path, 0, data.data(), n); },
        [&](const std::string& path) { bare_netcdf_read(path, back.data()); });
    plugin_unit("npy", "npy", "npy", {});
    plugin_unit("npy", "raw_npy_group", "raw", {});

    run_rounds(runs, steps);

    nlohmann::json out{{"n", n}, {"runs", runs}, {"samples", nlohmann::json::object()}};
    for (const auto& s : steps) {
        out["samples"][s.key] = s.seconds;
        ::unlink((dir + "/" + s.unit).c_str());
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

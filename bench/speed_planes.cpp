// Measures plane reads of a 3-D f64 array through the hdf5 and netcdf
// plugins' formatbench.read-box/1 beside a bare program making the same
// library calls, in one process run:
//   plugin: the stream opened (untimed), P planes orthogonal to one axis read
//           with read_box, one call per plane (timed), closed (untimed);
//   bare:   H5Fopen + H5Dopen2 (untimed), per plane H5Sselect_hyperslab on
//           the dataset's dataspace and H5Dread into a memory dataspace of
//           the plane's extents made once (timed), closed (untimed); or
//           nc_open + nc_inq_varid (untimed), nc_get_vara per plane (timed).
// The files are written once through the plugins with the shape N x N x N,
// contiguous and with chunks 32,64,64 (1 MiB of f64, HDF5's default chunk
// cache, so plugin and bare both use that cache); P = min(N, 8) planes at
// indices 0, N/P, 2N/P, ... (chunks of 32 planes or fewer are not shared
// between two planes read). A plugin and its bare program form one group
// (bench/rounds.hpp): back to back, order rotating every round. Prints
// medians and bare/plugin (the plugin's speed as a fraction of the bare
// program's: 1 is equal, the target is >= 0.9). Figures only, not a
// test. After each timed step the last plane read is compared (untimed)
// with the array written; a difference is printed to stderr.
//
//   speed_planes PLUGIN_DIR WORK_DIR [N [RUNS]]      (N = 256: 128 MiB)
#include "host/registry.hpp"
#include "rounds.hpp"

#include <hdf5.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace formatbench;
using namespace formatbench::bench;

namespace {

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(what);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The box of plane `index` orthogonal to `axis` of an n^3 array.
void plane(std::uint64_t n, int axis, std::uint64_t index, std::vector<std::uint64_t>& start,
           std::vector<std::uint64_t>& count) {
    start = {0, 0, 0};
    count = {n, n, n};
    start[axis] = index;
    count[axis] = 1;
}

struct bare_hdf5 {
    hid_t file = -1, dataset = -1, space = -1, memory = -1;
    void open(const std::string& path, const std::vector<hsize_t>& plane_count) {
        file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        dataset = H5Dopen2(file, "data", H5P_DEFAULT);
        space = H5Dget_space(dataset);
        memory = H5Screate_simple(3, plane_count.data(), nullptr);
        check(file >= 0 && dataset >= 0 && space >= 0 && memory >= 0, "bare HDF5 open");
    }
    void read(const std::vector<hsize_t>& start, const std::vector<hsize_t>& count, double* out) {
        check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) >= 0,
              "H5Sselect_hyperslab");
        check(H5Dread(dataset, H5T_NATIVE_DOUBLE, memory, space, H5P_DEFAULT, out) >= 0, "H5Dread");
    }
    void close() {
        H5Sclose(memory);
        H5Sclose(space);
        H5Dclose(dataset);
        H5Fclose(file);
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: speed_planes PLUGIN_DIR WORK_DIR [N [RUNS]]\n");
        return 2;
    }
    registry reg;
    reg.load_directories({argv[1]});
    const std::string dir = argv[2];
    const std::uint64_t n = argc > 3 ? std::stoull(argv[3]) : 256;
    const int runs = argc > 4 ? std::stoi(argv[4]) : 7;
    const std::uint64_t total = n * n * n, planes = std::min<std::uint64_t>(n, 8);
    const std::vector<std::uint64_t> shape = {n, n, n};
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);

    std::vector<double> data(total), out(n * n);
    for (std::uint64_t i = 0; i < total; ++i)
        data[i] = double(i) * 0.5;

    struct file_case {
        std::string plugin, label, chunks;
    };
    const std::vector<file_case> files = {{"hdf5", "hdf5_contiguous", "contiguous"},
                                          {"hdf5", "hdf5_chunked", "32,64,64"},
                                          {"netcdf", "netcdf_contiguous", "contiguous"},
                                          {"netcdf", "netcdf_chunked", "32,64,64"}};
    std::vector<step> steps;
    std::vector<std::unique_ptr<read_stream>> streams(files.size());
    std::vector<bare_hdf5> h5(files.size());
    std::vector<int> nc(files.size(), -1), var(files.size(), -1);
    for (std::size_t f = 0; f < files.size(); ++f) {
        const file_case& c = files[f];
        const plugin* p = reg.find(c.plugin);
        if (!p) {
            std::fprintf(stderr, "speed_planes: no %s plugin in %s\n", c.plugin.c_str(), argv[1]);
            return 2;
        }
        const std::string path = dir + "/" + c.label + (c.plugin == "hdf5" ? ".h5" : ".nc");
        ::unlink(path.c_str());
        const option_list options{{"chunks", c.chunks}};
        {
            auto w = p->open_write(path, FB_DTYPE_F64, total, options, {shape, false});
            w->write(data.data(), total);
            w->close();
        }
        for (int axis = 0; axis < 3; ++axis) {
            const std::string group = c.label + "_axis" + std::to_string(axis);
            std::vector<std::uint64_t> pc = {n, n, n};
            pc[axis] = 1;
            // The last plane read holds data[] of its elements (untimed).
            auto verify = [&, axis, group](const char* unit) {
                const std::uint64_t index = (planes - 1) * (n / planes);
                std::uint64_t j = 0, bad = 0;
                for (std::uint64_t a = 0; a < n; ++a)
                    for (std::uint64_t b = 0; b < n; ++b, ++j) {
                        const std::uint64_t at = axis == 0   ? index * n * n + a * n + b
                                                 : axis == 1 ? a * n * n + index * n + b
                                                             : a * n * n + b * n + index;
                        bad += out[j] != data[at];
                    }
                if (bad)
                    std::fprintf(stderr, "%s %s: %llu values differ\n", group.c_str(), unit,
                                 (unsigned long long)bad);
                std::fill(out.begin(), out.end(), -1.0);
            };
            auto read_planes = [&, axis](auto&& read_one) {
                std::vector<std::uint64_t> start, count;
                for (std::uint64_t k = 0; k < planes; ++k) {
                    plane(n, axis, k * (n / planes), start, count);
                    read_one(start, count);
                }
            };
            steps.emplace_back(
                group + ".plugin", group, "plugin", 0,
                [&, f, p, path, options] {
                    streams[f] = p->open_read(path, FB_DTYPE_F64, total, options, {shape, false});
                },
                [&, f, read_planes] {
                    read_planes(
                        [&](const std::vector<std::uint64_t>& s, const std::vector<std::uint64_t>& k) {
                            streams[f]->read_box(s, k, out.data());
                        });
                },
                [&, f, verify] {
                    verify("plugin");
                    streams[f]->close();
                    streams[f].reset();
                });
            if (c.plugin == "hdf5") {
                const std::vector<hsize_t> plane_count(pc.begin(), pc.end());
                steps.emplace_back(
                    group + ".bare", group, "bare", 0,
                    [&, f, path, plane_count] { h5[f].open(path, plane_count); },
                    [&, f, read_planes] {
                        read_planes(
                            [&](const std::vector<std::uint64_t>& s, const std::vector<std::uint64_t>& k) {
                                h5[f].read(std::vector<hsize_t>(s.begin(), s.end()),
                                           std::vector<hsize_t>(k.begin(), k.end()), out.data());
                            });
                    },
                    [&, f, verify] {
                        verify("bare");
                        h5[f].close();
                    });
            } else {
                steps.emplace_back(
                    group + ".bare", group, "bare", 0,
                    [&, f, path] {
                        check(nc_open(path.c_str(), NC_NOWRITE, &nc[f]) == NC_NOERR, "nc_open");
                        check(nc_inq_varid(nc[f], "data", &var[f]) == NC_NOERR, "nc_inq_varid");
                    },
                    [&, f, read_planes] {
                        read_planes(
                            [&](const std::vector<std::uint64_t>& s, const std::vector<std::uint64_t>& k) {
                                const std::vector<std::size_t> start(s.begin(), s.end()),
                                    count(k.begin(), k.end());
                                check(nc_get_vara(nc[f], var[f], start.data(), count.data(), out.data()) ==
                                          NC_NOERR,
                                      "nc_get_vara");
                            });
                    },
                    [&, f, verify] {
                        verify("bare");
                        nc_close(nc[f]);
                    });
            }
        }
    }
    run_rounds(runs, steps);
    std::printf(
        "speed_planes: %llu^3 f64 (%.0f MiB), %llu planes per axis, %d rounds; medians per %llu planes\n",
        static_cast<unsigned long long>(n), double(total) * 8 / (1 << 20),
        static_cast<unsigned long long>(planes), runs, static_cast<unsigned long long>(planes));
    std::printf("%-26s %12s %12s %10s\n", "file, planes orthogonal to", "plugin ms", "bare ms",
                "bare/plugin");
    for (std::size_t i = 0; i + 1 < steps.size(); i += 2) {
        const double plugin_s = median(steps[i].seconds), bare_s = median(steps[i + 1].seconds);
        std::printf("%-26s %12.2f %12.2f %10.2f\n", steps[i].group.c_str(), plugin_s * 1e3, bare_s * 1e3,
                    plugin_s > 0 ? bare_s / plugin_s : 0.0);
    }
    for (const auto& c : files)
        ::unlink((dir + "/" + c.label + (c.plugin == "hdf5" ? ".h5" : ".nc")).c_str());
    return 0;
}

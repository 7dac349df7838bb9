// The netcdf plugin's reader: one variable of a netCDF file of any
// format (classic, 64bit_offset, 64bit_data, netcdf4, netcdf4_classic),
// whoever wrote it (this plugin, netCDF4-python, xarray, nccopy, Fortran).
//
// At open it checks, before reading any data: the variable exists, it has
// one or more dimensions, their lengths are the shape asked for (ABI 1.2;
// without one any shape will do) and hold the count asked for, and its
// type is the
// dtype's (double, float, int; for u8 ubyte, or byte with _Unsigned =
// "true"); in a netCDF-4 file every filter it needs is available; a
// classic file's header is walked first (classic_header.hpp) and its data
// must end within the file. Each read is nc_get_vara of the variable's own
// type at the running offset (one per box for N dimensions).
#pragma once

#include "nc_support.hpp"

#include "../hdf5/array_shape.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::netcdf {

class netcdf_reader {
public:
    explicit netcdf_reader(const sdk::open_request& r);
    netcdf_reader(netcdf_reader&& o) noexcept;
    netcdf_reader& operator=(netcdf_reader&&) = delete;
    ~netcdf_reader();

    void read(void* data, std::uint64_t count);
    // formatbench.read-at/1 and read-box/1 on the variable opened in the
    // constructor: nc_get_vara per box (a flat range of N axes is at most
    // 2 * N - 1 of them, array_shape::flat_range_boxes).
    void read_at(std::uint64_t offset, void* data, std::uint64_t count);
    void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data);
    void close();

private:
    void open_file();
    void check_variable(std::uint64_t asked, const array_shape::extents& asked_shape);
    // The flat range [offset, offset + count), count > 0.
    void read_range(std::uint64_t offset, void* data, std::uint64_t count);
    // A classic file (CDF-1, -2, -5): its header walked with every length
    // checked against the file's size, before netCDF parses it. netCDF 4.9
    // allocates what a damaged count says (and has crashed on such CDF-5
    // headers), and reads the missing part of a truncated file as zeros;
    // this refuses both (FB_E_CORRUPT, FB_E_TRUNCATED).
    void check_classic_header(int fd, std::uint64_t file_size);
    void check_filters();

    std::string path_;
    fb_dtype dtype_;
    std::string variable_;
    int ncid_ = -1;
    int varid_ = -1;
    std::uint64_t length_ = 0;   // the variable's elements
    array_shape::extents shape_; // and its dimensions' lengths
    std::uint64_t done_ = 0;
    std::vector<std::size_t> start_, count_; // scratch of one nc_get_vara
};

} // namespace formatbench::netcdf

// The netcdf plugin's writer: one variable in a new netCDF file, over one
// dimension ("index") for a flat array or a 1-D shape, or over one per axis
// of the data set's shape (ABI 1.2), "dim0", "dim1", ... (dim0 the slowest).
//
// The dimension "index" (or dim0) has its extent as its fixed length, or is
// unlimited with the option unlimited, an unknown count or a count of 0
// (netCDF's length 0 means unlimited). Each write is nc_put_vara of the
// chunk at its offset (for N axes one per box of the flat range,
// array_shape::flat_range_boxes), in the variable's own type (no
// conversion). Fill
// values are off (nc_set_fill NC_NOFILL): every element is written, and a
// classic file would otherwise be written twice. A u8 variable in the
// classic data model is NC_BYTE with the attribute _Unsigned = "true" (the
// netCDF convention; netCDF4-python and xarray honour it).
//
// Only regular files are written: netCDF 4.9 removes the file it was
// creating when nc_create fails, which for a device such as /dev/full would
// remove the device node.
#pragma once

#include "nc_support.hpp"
#include "settings.hpp"

#include <cstdint>
#include <string>

namespace formatbench::netcdf {

class netcdf_writer {
public:
    explicit netcdf_writer(const sdk::open_request& r);
    netcdf_writer(netcdf_writer&& o) noexcept;
    netcdf_writer& operator=(netcdf_writer&&) = delete;
    ~netcdf_writer();

    void write(const void* data, std::uint64_t count);
    void close();

private:
    void define(const sdk::open_request& r);

    std::string path_;
    fb_dtype dtype_;
    netcdf_settings settings_;
    int ncid_ = -1;
    int varid_ = -1;
    bool unlimited_ = false;
    std::uint64_t capacity_ = 0; // a fixed dimension's length
    std::uint64_t written_ = 0;
    array_shape::extents shape_; // the variable's extents (index's length alone when flat)
    bool exists_ = false;        // the path existed before open
    bool created_ = false;       // this writer made the file at path_
};

} // namespace formatbench::netcdf

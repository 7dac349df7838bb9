// The netcdf plugin's options, checked and turned into netCDF's terms once
// per stream. The declarations (names, defaults, help) are in netcdf.cpp.
#pragma once

#include <formatbench/plugin.hpp>

#include <cstdint>
#include <string>

namespace formatbench::netcdf {

namespace sdk = formatbench::sdk;

enum class file_format { netcdf4, netcdf4_classic, classic, offset64, data64 };
enum class chunking_kind { automatic, contiguous, chunked };

struct netcdf_settings {
    file_format format = file_format::netcdf4;
    int deflate = 0;
    bool shuffle = false;
    chunking_kind chunking = chunking_kind::automatic;
    std::uint64_t chunk = 0; // elements per chunk; 0 = netCDF's default
    bool unlimited = false;
    std::string variable = "data";

    // Stored through HDF5 (deflate, shuffle and chunking exist only there).
    bool hdf5_based() const noexcept {
        return format == file_format::netcdf4 || format == file_format::netcdf4_classic;
    }
    // The classic data model: no unsigned or 64-bit integer types.
    bool classic_model() const noexcept {
        return format != file_format::netcdf4 && format != file_format::data64;
    }
};

// Parses and checks the options of r for writing. Combinations netCDF
// cannot write (deflate, shuffle or chunking with a classic format,
// contiguous storage with a filter or an unlimited dimension, a chunk size
// without chunked storage, an empty variable name) throw
// sdk::error(FB_E_INVALID_OPTION) naming the options; nothing is touched.
netcdf_settings parse_settings(const sdk::open_request& r);

// nc_create's format bits (NC_NETCDF4, NC_64BIT_DATA, ...).
int create_mode(file_format f);
const char* format_name(file_format f);

} // namespace formatbench::netcdf

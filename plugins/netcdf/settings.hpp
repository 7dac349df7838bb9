// The netcdf plugin's options, checked and turned into netCDF's terms once
// per stream. The declarations (names, defaults, help) are in netcdf.cpp.
#pragma once

#include "../hdf5/array_shape.hpp"

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
    // The option chunks: contiguous and a list set chunking too (contiguous,
    // chunked).
    array_shape::chunks_spec chunks;
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

// Parses and checks options. Combinations netCDF cannot write (deflate,
// shuffle, chunking, chunk or chunks with a classic format, contiguous
// storage with a filter, a chunk size without chunked storage, chunks that
// contradict chunking or chunk, a malformed chunks value, an empty variable
// name) throw sdk::error(FB_E_INVALID_OPTION) naming the options, with
// `context` (" (for '/tmp/x.nc')", or "") at the end of the message;
// nothing is touched. formatbench.check-options/1 and every open call it.
netcdf_settings parse_options(const sdk::options& o, const std::string& context);
// parse_options for writing r, and what needs its count and shape:
// contiguous storage cannot grow (an unlimited dimension), a chunks list
// has one extent per axis, a shape needs the count and holds it.
netcdf_settings parse_settings(const sdk::open_request& r);

// The chunk extents of a chunked variable of `shape` (empty: flat, `count`
// elements), or empty for netCDF's default: the chunks list fitted to the
// shape (array_shape::fit_chunks), else chunk elements as whole trailing
// axes (array_shape::trailing_chunk). `unlimited` says axis 0 grows (its
// extent is not cut). A list of another length throws.
array_shape::extents chunk_extents(const netcdf_settings& s, const array_shape::extents& shape,
                                   std::uint64_t count, bool unlimited, const std::string& path);

// nc_create's format bits (NC_NETCDF4, NC_64BIT_DATA, ...).
int create_mode(file_format f);
const char* format_name(file_format f);

} // namespace formatbench::netcdf

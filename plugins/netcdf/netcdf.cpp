// netcdf: the array as one variable of a netCDF file, over one dimension
// (index) or over one per axis of the data set's shape (dim0..dimN-1, ABI
// 1.2), through the netCDF C library, in any of its formats: netcdf4 (HDF5
// storage), netcdf4_classic, classic (CDF-1), 64bit_offset (CDF-2) and
// 64bit_data (CDF-5). ncdump, netCDF4-python, xarray and any netCDF program
// read it. Readers offer formatbench.read-at/1 and read-box/1 (nc_get_vara
// per box). See nc_writer.hpp and nc_reader.hpp.
//
// Dtypes: f64, f32, i32 and u8, the ones every format holds (u8 as byte
// with _Unsigned = "true" in the classic data model). i64 is not declared:
// the classic data model (classic, 64bit_offset, netcdf4_classic) has no
// 64-bit integer, and the plugin ABI declares dtypes for a plugin, not per
// option set, so one format's gap removes it from all.
#include "nc_reader.hpp"
#include "nc_writer.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench::netcdf {

struct netcdf_format {
    static constexpr const char* formats[] = {"netcdf4",      "netcdf4_classic", "classic",
                                              "64bit_offset", "64bit_data",      nullptr};
    static constexpr const char* chunkings[] = {"auto", "contiguous", "chunked", nullptr};

    static constexpr fb_option_decl options[] = {
        sdk::option_choice(
            "format", "netcdf4", formats,
            "file format: netcdf4 (HDF5), netcdf4_classic, classic (CDF-1), 64bit_offset (CDF-2), "
            "64bit_data (CDF-5)"),
        sdk::option_int("deflate", "0", 0, 9, "deflate level, 0 = off (netCDF-4 formats only)"),
        sdk::option_bool("shuffle", "false", "HDF5's byte shuffle before deflate (netCDF-4 formats only)"),
        sdk::option_choice(
            "chunking", "auto", chunkings,
            "netCDF-4 storage: auto (netCDF's default, or chunked when chunk is set), contiguous, "
            "chunked"),
        sdk::option_int(
            "chunk", "0", 0, 268435456.0,
            "elements per chunk for chunked storage (with a shape: of whole trailing axes); 0 = netCDF's "
            "default (netCDF-4 formats only)"),
        sdk::option_string(
            "chunks", "auto",
            "netCDF-4 storage by axis: auto (chunking and chunk decide), contiguous (as chunking "
            "contiguous), "
            "or chunk extents per axis of the shape, comma-separated, e.g. \"32,64,64\" (chunked; one extent "
            "for a flat array; an extent beyond its axis is cut to it); classic formats cannot chunk"),
        sdk::option_bool(
            "unlimited", "false",
            "an unlimited dimension that grows with each write (always so for an unknown count)"),
        sdk::option_string(
            "variable", "data",
            "the variable's name (its dimension is 'index'; with a shape of N axes dim0..dimN-1)"),
    };

    static sdk::plugin_info info() {
        return {"netcdf",
                "1.0.0",
                "one variable in a netCDF file (netCDF C library), 1-D or N-D: netcdf4, netcdf4_classic, "
                "classic, "
                "64bit_offset, "
                "64bit_data",
                "MIT",
                "nc",
                FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) | FB_DTYPE_BIT(FB_DTYPE_I32) |
                    FB_DTYPE_BIT(FB_DTYPE_U8),
                FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    // formatbench.check-options/1: what parse_options refuses (storage
    // settings a format lacks, contradicting chunks, chunking and chunk, a
    // malformed chunks value), at plan. Needs no file and no netCDF call.
    static void check(const sdk::options& o, fb_dtype) { parse_options(o, ""); }
    // formatbench.check-case/1: a chunks list of another number of axes
    // than the data set's shape, refused at plan as open would refuse it.
    static void check_case(const sdk::options& o, const sdk::case_info& c) {
        const netcdf_settings s = parse_options(o, "");
        if (s.hdf5_based() && s.chunking == chunking_kind::chunked)
            chunk_extents(s, c.shape, c.count, false, "");
    }

    using writer = netcdf_writer;
    using reader = netcdf_reader;
};

} // namespace formatbench::netcdf

FORMATBENCH_PLUGIN(formatbench::netcdf::netcdf_format)

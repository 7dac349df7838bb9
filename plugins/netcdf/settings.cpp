// The netcdf plugin's options in netCDF's terms (see settings.hpp).
#include "settings.hpp"

#include <netcdf.h>

namespace formatbench::netcdf {
namespace {

[[noreturn]] void invalid(const std::string& message, const std::string& path) {
    throw sdk::error(FB_E_INVALID_OPTION, "netcdf: " + message + " (for '" + path + "')");
}

} // namespace

netcdf_settings parse_settings(const sdk::open_request& r) {
    const sdk::options& o = r.options;
    netcdf_settings s;
    const std::string& format = o.get_string("format");
    s.format = format == "netcdf4_classic" ? file_format::netcdf4_classic
               : format == "classic"       ? file_format::classic
               : format == "64bit_offset"  ? file_format::offset64
               : format == "64bit_data"    ? file_format::data64
                                           : file_format::netcdf4;
    s.deflate = static_cast<int>(o.get_int("deflate"));
    s.shuffle = o.get_bool("shuffle");
    const std::string& chunking = o.get_string("chunking");
    s.chunking = chunking == "contiguous" ? chunking_kind::contiguous
                 : chunking == "chunked"  ? chunking_kind::chunked
                                          : chunking_kind::automatic;
    s.chunk = static_cast<std::uint64_t>(o.get_int("chunk"));
    s.unlimited = o.get_bool("unlimited");
    s.variable = o.get_string("variable");

    // (A count of 0 also makes the dimension unlimited, as netCDF's length
    // 0 means; with no element to store the storage settings do not matter.)
    const bool grows = s.unlimited || r.count == FB_COUNT_UNKNOWN;
    if (!s.hdf5_based() &&
        (s.deflate > 0 || s.shuffle || s.chunking != chunking_kind::automatic || s.chunk > 0))
        invalid("deflate, shuffle, chunking and chunk are netCDF-4 storage settings; format " + format +
                    " has none (use format netcdf4 or netcdf4_classic)",
                r.path);
    if (s.chunking == chunking_kind::contiguous && (s.deflate > 0 || s.shuffle))
        invalid("deflate and shuffle are HDF5 filters, which work on chunks: they need chunking chunked (or "
                "auto)",
                r.path);
    if (s.chunking == chunking_kind::contiguous && grows)
        invalid(
            "chunking contiguous cannot grow: an unlimited dimension (option unlimited, an unknown or zero "
            "count) needs chunking chunked (or auto)",
            r.path);
    if (s.chunk > 0 && s.chunking == chunking_kind::contiguous)
        invalid("chunk is the chunk size of chunking chunked, not contiguous", r.path);
    if (s.variable.empty() || s.variable.find('/') != std::string::npos)
        invalid("variable '" + s.variable + "' is not a netCDF variable name (no '/', not empty)", r.path);
    return s;
}

int create_mode(file_format f) {
    switch (f) {
    case file_format::netcdf4: return NC_NETCDF4;
    case file_format::netcdf4_classic: return NC_NETCDF4 | NC_CLASSIC_MODEL;
    case file_format::classic: return 0;
    case file_format::offset64: return NC_64BIT_OFFSET;
    case file_format::data64: return NC_64BIT_DATA;
    }
    return 0;
}

const char* format_name(file_format f) {
    switch (f) {
    case file_format::netcdf4: return "netcdf4";
    case file_format::netcdf4_classic: return "netcdf4_classic";
    case file_format::classic: return "classic";
    case file_format::offset64: return "64bit_offset";
    case file_format::data64: return "64bit_data";
    }
    return "?";
}

} // namespace formatbench::netcdf

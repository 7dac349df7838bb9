// The netcdf plugin's options in netCDF's terms (see settings.hpp).
#include "settings.hpp"

#include <netcdf.h>

namespace formatbench::netcdf {
namespace {

[[noreturn]] void invalid(const std::string& message, const std::string& context) {
    throw sdk::error(FB_E_INVALID_OPTION, "netcdf: " + message + context);
}

} // namespace

netcdf_settings parse_options(const sdk::options& o, const std::string& context) {
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
    const std::string& chunks = o.get_string("chunks");
    std::string why;
    if (!array_shape::parse_chunks(chunks, s.chunks, why))
        invalid("option chunks '" + chunks + "': " + why + "; chunks is " + array_shape::chunks_grammar,
                context);
    s.unlimited = o.get_bool("unlimited");
    s.variable = o.get_string("variable");

    if (!s.hdf5_based() && s.chunks.kind != array_shape::chunks_kind::automatic)
        invalid("option chunks '" + chunks + "': format " + format +
                    " (a classic format) stores every variable in one piece and cannot chunk; use format "
                    "netcdf4 or netcdf4_classic, or leave chunks auto",
                context);
    if (!s.hdf5_based() &&
        (s.deflate > 0 || s.shuffle || s.chunking != chunking_kind::automatic || s.chunk > 0))
        invalid("deflate, shuffle, chunking and chunk are netCDF-4 storage settings; format " + format +
                    " has none (use format netcdf4 or netcdf4_classic)",
                context);
    // chunks contiguous or a list says what chunking says; both given must agree.
    if (s.chunks.kind == array_shape::chunks_kind::contiguous) {
        if (s.chunking == chunking_kind::chunked)
            invalid("chunks contiguous and chunking chunked contradict each other; choose one", context);
        if (s.chunk > 0 || s.deflate > 0 || s.shuffle)
            invalid("chunks contiguous stores the variable in one piece, and chunk, deflate and shuffle need "
                    "chunks; set chunks auto or chunk extents (e.g. \"32,64,64\")",
                    context);
        s.chunking = chunking_kind::contiguous;
    } else if (s.chunks.kind == array_shape::chunks_kind::list) {
        if (s.chunking == chunking_kind::contiguous)
            invalid("chunks '" + chunks +
                        "' (chunk extents) and chunking contiguous contradict each other; "
                        "choose one",
                    context);
        if (s.chunk > 0)
            invalid("chunk " + std::to_string(s.chunk) + " and chunks '" + chunks +
                        "' are two chunk sizes; set chunk 0 or chunks auto",
                    context);
        s.chunking = chunking_kind::chunked;
    }
    if (s.chunking == chunking_kind::contiguous && (s.deflate > 0 || s.shuffle))
        invalid("deflate and shuffle are HDF5 filters, which work on chunks: they need chunking chunked (or "
                "auto)",
                context);
    if (s.chunk > 0 && s.chunking == chunking_kind::contiguous)
        invalid("chunk is the chunk size of chunking chunked, not contiguous", context);
    if (s.variable.empty() || s.variable.find('/') != std::string::npos)
        invalid("variable '" + s.variable + "' is not a netCDF variable name (no '/', not empty)", context);
    return s;
}

netcdf_settings parse_settings(const sdk::open_request& r) {
    const std::string context = " (for '" + r.path + "')";
    netcdf_settings s = parse_options(r.options, context);
    // (A count of 0 also makes the dimension unlimited, as netCDF's length
    // 0 means; with no element to store the storage settings do not matter.)
    const bool grows = s.unlimited || r.count == FB_COUNT_UNKNOWN;
    if (s.chunking == chunking_kind::contiguous && grows)
        invalid(
            "chunking contiguous cannot grow: an unlimited dimension (option unlimited, an unknown or zero "
            "count) needs chunking chunked (or auto)",
            context);
    if (!r.shape.empty()) {
        std::uint64_t product = 0;
        if (r.count == FB_COUNT_UNKNOWN)
            invalid("a shape (" + array_shape::shape_text(r.shape) +
                        ") needs the count; give it, or no shape",
                    context);
        if (!array_shape::element_count(r.shape, product) || product != r.count)
            invalid("the shape " + array_shape::shape_text(r.shape) + " does not hold the " +
                        std::to_string(r.count) +
                        " elements asked for; give a shape whose product is the count",
                    context);
    }
    if (s.hdf5_based() && s.chunking == chunking_kind::chunked)
        chunk_extents(s, r.shape, r.count, grows, r.path);
    return s;
}

array_shape::extents chunk_extents(const netcdf_settings& s, const array_shape::extents& shape,
                                   std::uint64_t count, bool unlimited, const std::string& path) {
    array_shape::extents axes = shape.empty() ? array_shape::extents{count} : shape;
    if (unlimited) axes[0] = 0; // not cut
    if (s.chunks.kind == array_shape::chunks_kind::list) {
        array_shape::extents out;
        std::string why;
        if (!array_shape::fit_chunks(s.chunks.sizes, shape.empty() ? array_shape::extents{} : axes, axes[0],
                                     out, why))
            invalid("option chunks: " + why + "; give one extent per axis, or chunks auto",
                    path.empty() ? std::string() : " (for '" + path + "')");
        return out;
    }
    if (s.chunk == 0) return {};
    if (shape.empty()) return {unlimited ? s.chunk : std::min(s.chunk, std::max<std::uint64_t>(count, 1))};
    return array_shape::trailing_chunk(axes, s.chunk);
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

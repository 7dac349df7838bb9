// The hdf5 plugin's options in HDF5's terms (see settings.hpp).
#include "settings.hpp"

#include <algorithm>

namespace formatbench::hdf5 {
namespace {

[[noreturn]] void invalid(const std::string& message) {
    throw sdk::error(FB_E_INVALID_OPTION, "hdf5: " + message);
}

// Blosc 1 compresses at most 2^31 - 1 - 16 bytes at once
// (BLOSC_MAX_BUFFERSIZE), and the blosc filter hands it a whole chunk.
constexpr std::uint64_t blosc_max_chunk_bytes = 2147483647u - 16u;

} // namespace

hdf5_settings parse_options(const sdk::options& o, fb_dtype d, const std::string& context) {
    hdf5_settings s;
    const std::string& layout = o.get_string("layout");
    s.layout = layout == "contiguous" ? layout_kind::contiguous
               : layout == "chunked"  ? layout_kind::chunked
                                      : layout_kind::automatic;
    s.chunk = static_cast<std::uint64_t>(o.get_int("chunk"));
    const std::string& chunks = o.get_string("chunks");
    std::string why;
    if (!array_shape::parse_chunks(chunks, s.chunks, why))
        invalid("option chunks '" + chunks + "': " + why + "; chunks is " + array_shape::chunks_grammar +
                context);
    s.deflate = static_cast<int>(o.get_int("deflate"));
    s.shuffle = o.get_bool("shuffle");
    s.fletcher32 = o.get_bool("fletcher32");
    s.dataset = o.get_string("dataset");
    const std::string& libver = o.get_string("libver");
    s.libver_low = libver == "v18"      ? H5F_LIBVER_V18
                   : libver == "v110"   ? H5F_LIBVER_V110
                   : libver == "latest" ? H5F_LIBVER_LATEST
                                        : H5F_LIBVER_EARLIEST;
    const std::string& filter = o.get_string("filter");
    s.filter = filter == "lz4"          ? external_filter::lz4
               : filter == "bitshuffle" ? external_filter::bitshuffle
               : filter == "blosc"      ? external_filter::blosc
               : filter == "zfp"        ? external_filter::zfp
                                        : external_filter::none;
    s.lz4_block = o.get_size("lz4_block");
    s.bitshuffle_lz4 = o.get_bool("bitshuffle_lz4");
    const std::string& codec = o.get_string("blosc_codec");
    s.blosc_codec = codec == "blosclz" ? 0
                    : codec == "lz4hc" ? 2
                    : codec == "zlib"  ? 4
                    : codec == "zstd"  ? 5
                                       : 1;
    s.blosc_level = static_cast<unsigned>(o.get_int("blosc_level"));
    const std::string& blosc_shuffle = o.get_string("blosc_shuffle");
    s.blosc_shuffle = blosc_shuffle == "none" ? 0 : blosc_shuffle == "bit" ? 2 : 1;
    const std::string& mode = o.get_string("zfp_mode");
    s.zfp = mode == "rate"        ? zfp_mode::rate
            : mode == "precision" ? zfp_mode::precision
            : mode == "accuracy"  ? zfp_mode::accuracy
                                  : zfp_mode::reversible;
    s.zfp_rate = o.get_float("zfp_rate");
    s.zfp_precision = static_cast<unsigned>(o.get_int("zfp_precision"));
    s.zfp_accuracy = o.get_float("zfp_accuracy");

    // chunks contiguous or a list says what layout says; both given must agree.
    if (s.chunks.kind == array_shape::chunks_kind::contiguous) {
        if (s.layout == layout_kind::chunked)
            invalid("chunks contiguous and layout chunked contradict each other; choose one" + context);
        if (s.chunk > 0)
            invalid("chunk " + std::to_string(s.chunk) +
                    " is the chunk size of a chunked layout, and chunks is contiguous; set chunk 0" +
                    context);
        if (s.has_filters())
            invalid(
                "deflate, shuffle, fletcher32 and filter are HDF5 filters, which work on chunks: they need "
                "chunks auto or chunk extents (e.g. \"32,64,64\"), not contiguous" +
                context);
        s.layout = layout_kind::contiguous;
    } else if (s.chunks.kind == array_shape::chunks_kind::list) {
        if (s.layout == layout_kind::contiguous)
            invalid("chunks '" + chunks +
                    "' (chunk extents) and layout contiguous contradict each other; "
                    "choose one" +
                    context);
        if (s.chunk > 0)
            invalid("chunk " + std::to_string(s.chunk) + " and chunks '" + chunks +
                    "' are two chunk sizes; set chunk 0 or chunks auto" + context);
        s.layout = layout_kind::chunked;
    }
    if (s.layout == layout_kind::contiguous && s.has_filters())
        invalid("deflate, shuffle, fletcher32 and filter are HDF5 filters, which work on chunks: they need "
                "layout chunked (or auto), not contiguous" +
                context);
    if (s.deflate > 0 && s.filter != external_filter::none)
        invalid("deflate " + std::to_string(s.deflate) + " and filter " + filter +
                " are two compressors, one after the other; choose one (deflate 0 or filter none)" + context);
    if (s.filter == external_filter::zfp && s.shuffle)
        invalid("filter zfp compresses the values themselves, and shuffle before it scrambles them; set "
                "shuffle false" +
                context);
    if (s.filter == external_filter::zfp && d == FB_DTYPE_U8)
        invalid("filter zfp compresses f64, f32, i64 and i32 values, not u8; use another filter for u8" +
                context);
    if (s.filter == external_filter::zfp && s.zfp == zfp_mode::rate && !(s.zfp_rate > 0))
        invalid("zfp_rate must be more than 0 bits per value for zfp_mode rate" + context);
    if (s.filter == external_filter::zfp && s.zfp == zfp_mode::accuracy && !(s.zfp_accuracy > 0))
        invalid("zfp_accuracy must be more than 0 for zfp_mode accuracy" + context);
    // The elements of a chunk as given (a list's extents may still be cut
    // to a smaller shape at open).
    std::uint64_t chunk_count = s.chunk;
    if (s.chunks.kind == array_shape::chunks_kind::list &&
        !array_shape::element_count(s.chunks.sizes, chunk_count))
        chunk_count = UINT64_MAX;
    if (s.filter == external_filter::blosc && chunk_count > blosc_max_chunk_bytes / sdk::dtype_size(d))
        invalid((s.chunk > 0 ? "chunk " + std::to_string(s.chunk) : "chunks '" + chunks + "'") + " is " +
                (chunk_count == UINT64_MAX ? std::string("more")
                                           : std::to_string(chunk_count * sdk::dtype_size(d))) +
                " bytes of " + sdk::dtype_name(d) +
                ", more than blosc compresses at once (2^31 - 17 bytes); "
                "use a smaller chunk" +
                context);
    // A path inside the file: groups on the way are created by the writer.
    std::string name = s.dataset;
    name.erase(0, name.find_first_not_of('/'));
    if (name.empty() || s.dataset.back() == '/')
        invalid("dataset '" + s.dataset + "' is not a dataset name (e.g. data or /group/data)" + context);
    return s;
}

hdf5_settings parse_settings(const sdk::open_request& r) {
    return parse_options(r.options, r.dtype, " (for '" + r.path + "')");
}

bool chunked_layout(const hdf5_settings& s, std::uint64_t count, const std::string& path) {
    if (s.layout == layout_kind::contiguous && count == FB_COUNT_UNKNOWN)
        invalid(
            "layout contiguous needs the element count when the file is opened (a contiguous dataset cannot "
            "grow), and it is not known for '" +
            path + "'; use layout auto or chunked");
    if (s.layout == layout_kind::automatic) return s.has_filters() || count == FB_COUNT_UNKNOWN;
    return s.layout == layout_kind::chunked;
}

std::vector<hsize_t> chunk_dims(const hdf5_settings& s, std::size_t size, const array_shape::extents& shape,
                                std::uint64_t count, const std::string& path) {
    array_shape::extents dims;
    if (s.chunks.kind == array_shape::chunks_kind::list) {
        std::string why;
        if (!array_shape::fit_chunks(s.chunks.sizes, shape, count == FB_COUNT_UNKNOWN ? 0 : count, dims, why))
            invalid("option chunks: " + why + (path.empty() ? std::string() : " of '" + path + "'") +
                    "; give one extent per axis, or chunks auto");
    } else if (shape.empty()) {
        dims = {chunk_elements(s, size, count)};
    } else {
        std::uint64_t total = 0;
        array_shape::element_count(shape, total);
        dims = array_shape::trailing_chunk(shape, chunk_elements(s, size, total));
    }
    return std::vector<hsize_t>(dims.begin(), dims.end());
}

std::uint64_t chunk_elements(const hdf5_settings& s, std::size_t size, std::uint64_t count) {
    std::uint64_t c = s.chunk ? s.chunk : std::max<std::uint64_t>(default_chunk_bytes / size, 1);
    if (count != FB_COUNT_UNKNOWN && count > 0) c = std::min(c, count);
    return std::max<std::uint64_t>(c, 1);
}

} // namespace formatbench::hdf5

// The hdf5 plugin's options in HDF5's terms (see settings.hpp).
#include "settings.hpp"

#include <algorithm>

namespace formatbench::hdf5 {
namespace {

[[noreturn]] void invalid(const std::string& message) {
    throw sdk::error(FB_E_INVALID_OPTION, "hdf5: " + message);
}

} // namespace

hdf5_settings parse_settings(const sdk::open_request& r) {
    const sdk::options& o = r.options;
    hdf5_settings s;
    const std::string& layout = o.get_string("layout");
    s.layout = layout == "contiguous" ? layout_kind::contiguous
               : layout == "chunked"  ? layout_kind::chunked
                                      : layout_kind::automatic;
    s.chunk = static_cast<std::uint64_t>(o.get_int("chunk"));
    s.deflate = static_cast<int>(o.get_int("deflate"));
    s.shuffle = o.get_bool("shuffle");
    s.fletcher32 = o.get_bool("fletcher32");
    s.dataset = o.get_string("dataset");
    const std::string& libver = o.get_string("libver");
    s.libver_low = libver == "v18"      ? H5F_LIBVER_V18
                   : libver == "v110"   ? H5F_LIBVER_V110
                   : libver == "latest" ? H5F_LIBVER_LATEST
                                        : H5F_LIBVER_EARLIEST;

    if (s.layout == layout_kind::contiguous && s.has_filters())
        invalid("deflate, shuffle and fletcher32 are HDF5 filters, which work on chunks: they need layout "
                "chunked (or auto), not contiguous (for '" +
                r.path + "')");
    // A path inside the file: groups on the way are created by the writer.
    std::string name = s.dataset;
    name.erase(0, name.find_first_not_of('/'));
    if (name.empty() || s.dataset.back() == '/')
        invalid("dataset '" + s.dataset + "' is not a dataset name (e.g. data or /group/data) (for '" +
                r.path + "')");
    return s;
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

std::uint64_t chunk_elements(const hdf5_settings& s, std::size_t size, std::uint64_t count) {
    std::uint64_t c = s.chunk ? s.chunk : std::max<std::uint64_t>(default_chunk_bytes / size, 1);
    if (count != FB_COUNT_UNKNOWN && count > 0) c = std::min(c, count);
    return std::max<std::uint64_t>(c, 1);
}

} // namespace formatbench::hdf5

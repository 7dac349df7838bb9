// hdf5: the array as one dataset of an HDF5 file, through the HDF5 C
// library: 1-D, or of the data set's shape (ABI 1.2). The file holds the
// dataset (default /data) of the dtype's
// little-endian IEEE or standard integer type; h5dump, h5py, netCDF-4 and
// any HDF5 program read it. Layout, chunking, filters and the file format's
// version bounds are options, and so are the filter plugins lz4,
// bitshuffle, blosc and zfp (filters.hpp), which formatbench.check-options/1
// refuses at plan when this HDF5 cannot load them; the reader reads any
// dataset whose type holds the dtype exactly and whose shape is the one asked
// for (or, without one, of the count asked for), also at random through
// formatbench.read-at/1 and read-box/1 (hyperslab selections). See
// h5_writer.hpp and h5_reader.hpp.
#include "filters.hpp"
#include "h5_reader.hpp"
#include "h5_writer.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench::hdf5 {

// HDF5 closes itself at exit (its atexit handler), which dlclose()s the
// filter plugins it loaded (H5Zfilter_avail, filtered datasets). What those
// libraries allocated is then owned by unmapped code, and LeakSanitizer
// reports it at exit as leaks of an unknown module, in every process that
// used a filter plugin. Left open, the library and its plugins stay mapped
// until the process ends; the plugin closes every file of its own streams
// itself. Set when this library is loaded, before its first HDF5 call (it
// has no effect once HDF5 is initialised, e.g. by the netcdf plugin).
namespace {
[[maybe_unused]] const herr_t no_close_at_exit = H5dont_atexit();
} // namespace

struct hdf5_format {
    static constexpr const char* layouts[] = {"auto", "contiguous", "chunked", nullptr};
    static constexpr const char* libvers[] = {"earliest", "v18", "v110", "latest", nullptr};
    static constexpr const char* filters[] = {"none", "lz4", "bitshuffle", "blosc", "zfp", nullptr};
    static constexpr const char* blosc_codecs[] = {"blosclz", "lz4", "lz4hc", "zlib", "zstd", nullptr};
    static constexpr const char* blosc_shuffles[] = {"none", "byte", "bit", nullptr};
    static constexpr const char* zfp_modes[] = {"reversible", "rate", "precision", "accuracy", nullptr};

    static constexpr fb_option_decl options[] = {
        sdk::option_choice(
            "layout", "auto", layouts,
            "dataset layout: contiguous (one block; needs the count at open), chunked, or auto: "
            "contiguous unless a filter is set or the count is unknown"),
        sdk::option_int("chunk", "0", 0, 268435456.0,
                        "elements per chunk for a chunked layout (with a shape: of whole trailing axes); 0 = "
                        "about 1 MiB (HDF5's chunk cache size)"),
        sdk::option_string(
            "chunks", "auto",
            "the dataset's chunks: auto (layout and chunk decide; chunk extents of whole trailing axes), "
            "contiguous (as layout contiguous), or extents per axis of the shape, comma-separated, e.g. "
            "\"32,64,64\" (chunked; one extent for a flat array; an extent beyond its axis is cut to it)"),
        sdk::option_int("deflate", "0", 0, 9,
                        "deflate (gzip) level of HDF5's filter, 0 = off; makes it chunked"),
        sdk::option_bool("shuffle", "false", "HDF5's byte shuffle filter before deflate; makes it chunked"),
        sdk::option_bool("fletcher32", "false", "Fletcher-32 checksum of each chunk; makes it chunked"),
        sdk::option_string("dataset", "data",
                           "the dataset's path in the file (groups on the way are created)"),
        sdk::option_choice(
            "libver", "earliest", libvers,
            "oldest HDF5 whose file format the writer may use (H5Pset_libver_bounds low bound; "
            "v18 and later add metadata checksums); latest = v110 with this HDF5"),
        sdk::option_choice("filter", "none", filters,
                           "an HDF5 filter plugin (lz4 32004, bitshuffle 32008, blosc 32001, zfp 32013), "
                           "after shuffle; makes it chunked; refused at plan when HDF5 cannot load it"),
        sdk::option_size(
            "lz4_block", "0", 0, 2113929216.0,
            "filter lz4: bytes per lz4 block; 0 = the filter's default (1 GiB: the whole chunk)"),
        sdk::option_bool("bitshuffle_lz4", "true", "filter bitshuffle: lz4-compress the bit-shuffled blocks"),
        sdk::option_choice("blosc_codec", "lz4", blosc_codecs, "filter blosc: blosc's compressor"),
        sdk::option_int("blosc_level", "5", 0, 9, "filter blosc: compression level, 0 = none"),
        sdk::option_choice("blosc_shuffle", "byte", blosc_shuffles, "filter blosc: blosc's own shuffle"),
        sdk::option_choice("zfp_mode", "reversible", zfp_modes,
                           "filter zfp: reversible (lossless), or lossy rate, precision or accuracy"),
        sdk::option_float("zfp_rate", "16", 0, 64, "filter zfp, zfp_mode rate: bits per value (lossy)"),
        sdk::option_int("zfp_precision", "32", 1, 64,
                        "filter zfp, zfp_mode precision: bit planes kept (lossy)"),
        sdk::option_float("zfp_accuracy", "1e-6", 0, 1e300,
                          "filter zfp, zfp_mode accuracy: absolute error bound (lossy)"),
    };

    static sdk::plugin_info info() {
        return {"hdf5",
                "1.0.0",
                "one dataset in an HDF5 file (HDF5 C library), 1-D or N-D: contiguous or chunked, "
                "deflate/shuffle/fletcher32 and the filter plugins lz4/bitshuffle/blosc/zfp",
                "MIT",
                "h5",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    // Lossless but for zfp's lossy modes.
    static bool is_lossless(const sdk::options& o, fb_dtype d) { return parse_options(o, d, "").lossless(); }
    static bool is_lossless(const sdk::options& o) { return is_lossless(o, FB_DTYPE_F64); }

    // formatbench.check-options/1: the combinations parse_options refuses,
    // and filters this HDF5 cannot load, refused at plan with what to
    // install. Loads filter plugins into the process (H5Zfilter_avail);
    // touches no file.
    static void check(const sdk::options& o, fb_dtype d) {
        hdf5_settings s = parse_options(o, d, "");
        library_call call;
        check_filters_available(s);
    }

    // formatbench.check-case/1: a chunks list of another number of axes
    // than the data set's shape, refused at plan as open would refuse it.
    static void check_case(const sdk::options& o, const sdk::case_info& c) {
        const hdf5_settings s = parse_options(o, c.dtype, "");
        if (chunked_layout(s, c.count, "")) chunk_dims(s, fb_dtype_size(c.dtype), c.shape, c.count, "");
    }

    using writer = hdf5_writer;
    using reader = hdf5_reader;
};

} // namespace formatbench::hdf5

FORMATBENCH_PLUGIN(formatbench::hdf5::hdf5_format)

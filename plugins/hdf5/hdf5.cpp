// hdf5: the array as one 1-D dataset of an HDF5 file, through the HDF5 C
// library. The file holds the dataset (default /data) of the dtype's
// little-endian IEEE or standard integer type; h5dump, h5py, netCDF-4 and
// any HDF5 program read it. Layout, chunking, filters and the file format's
// version bounds are options; the reader reads any 1-D dataset whose type
// holds the dtype exactly. See h5_writer.hpp and h5_reader.hpp.
#include "h5_reader.hpp"
#include "h5_writer.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench::hdf5 {

struct hdf5_format {
    static constexpr const char* layouts[] = {"auto", "contiguous", "chunked", nullptr};
    static constexpr const char* libvers[] = {"earliest", "v18", "v110", "latest", nullptr};

    static constexpr fb_option_decl options[] = {
        sdk::option_choice(
            "layout", "auto", layouts,
            "dataset layout: contiguous (one block; needs the count at open), chunked, or auto: "
            "contiguous unless a filter is set or the count is unknown"),
        sdk::option_int("chunk", "0", 0, 268435456.0,
                        "elements per chunk for a chunked layout; 0 = about 1 MiB (HDF5's chunk cache size)"),
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
    };

    static sdk::plugin_info info() {
        return {"hdf5",
                "1.0.0",
                "one 1-D dataset in an HDF5 file (HDF5 C library): contiguous or chunked, "
                "deflate/shuffle/fletcher32",
                "MIT",
                "h5",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_SELF_DESCRIBING};
    }

    using writer = hdf5_writer;
    using reader = hdf5_reader;
};

} // namespace formatbench::hdf5

FORMATBENCH_PLUGIN(formatbench::hdf5::hdf5_format)

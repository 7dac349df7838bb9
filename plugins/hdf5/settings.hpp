// The hdf5 plugin's options, checked and turned into HDF5's terms once per
// stream. The declarations (names, defaults, help) are in hdf5.cpp.
#pragma once

#include "array_shape.hpp"

#include <formatbench/plugin.hpp>

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::hdf5 {

namespace sdk = formatbench::sdk;

enum class layout_kind { automatic, contiguous, chunked };
// Filter plugins (filters.hpp); none = HDF5's own filters only.
enum class external_filter { none, lz4, bitshuffle, blosc, zfp };
enum class zfp_mode { reversible, rate, precision, accuracy };

struct hdf5_settings {
    layout_kind layout = layout_kind::automatic;
    std::uint64_t chunk = 0; // elements per chunk; 0 = about 1 MiB (chunk_elements)
    // The option chunks: contiguous and a list set layout too (contiguous,
    // chunked), so chunked_layout decides alike for both options.
    array_shape::chunks_spec chunks;
    int deflate = 0;
    bool shuffle = false;
    bool fletcher32 = false;
    std::string dataset = "data";
    H5F_libver_t libver_low = H5F_LIBVER_EARLIEST;
    external_filter filter = external_filter::none;
    std::uint64_t lz4_block = 0; // bytes per lz4 block; 0 = the filter's default (1 GiB)
    bool bitshuffle_lz4 = true;
    unsigned blosc_codec = 1; // blosc's compressor code: blosclz 0, lz4 1, lz4hc 2, zlib 4, zstd 5
    unsigned blosc_level = 5;
    unsigned blosc_shuffle = 1; // 0 none, 1 byte, 2 bit
    zfp_mode zfp = zfp_mode::reversible;
    double zfp_rate = 16;        // bits per value
    unsigned zfp_precision = 32; // bit planes kept
    double zfp_accuracy = 1e-6;  // absolute error bound

    bool has_filters() const noexcept {
        return deflate > 0 || shuffle || fletcher32 || filter != external_filter::none;
    }
    // zfp in rate, precision or accuracy mode changes values; every other
    // filter (and zfp's reversible mode) gives them back bit-exact.
    bool lossless() const noexcept { return filter != external_filter::zfp || zfp == zfp_mode::reversible; }
};

// Chunk bytes when the chunk option is 0: HDF5's default chunk cache is
// 1 MiB, and chunks of up to that size are what its guide recommends.
inline constexpr std::uint64_t default_chunk_bytes = 1u << 20;

// Parses and checks options for dtype d. A combination that cannot be
// written throws sdk::error(FB_E_INVALID_OPTION) naming the option, with
// `context` (" (for '/tmp/x.h5')", or "") at the end of the message: a
// filter with layout contiguous (filters work on chunks), chunks that
// contradict layout or chunk, a malformed chunks value, deflate with a
// filter plugin (two compressors), zfp with shuffle or on u8, a chunk
// larger than the filter takes, an unusable dataset name. Nothing is
// touched and HDF5 is not called: formatbench.check-options/1 and every
// open call it alike, so a study meets these refusals at plan, not at write.
hdf5_settings parse_options(const sdk::options& o, fb_dtype d, const std::string& context);
// parse_options for an open call, naming its path.
hdf5_settings parse_settings(const sdk::open_request& r);

// Whether a writer of this count makes a chunked dataset: layout chunked,
// or automatic with a filter or an unknown count (a dataset that grows must
// be chunked). A contiguous layout with an unknown count throws
// FB_E_INVALID_OPTION.
bool chunked_layout(const hdf5_settings& s, std::uint64_t count, const std::string& path);

// The chunk extents of a chunked dataset of `shape` (empty: flat, 1-D of
// `count` elements, FB_COUNT_UNKNOWN when it grows): the option chunks'
// list fitted to the shape (array_shape::fit_chunks), else chunk_elements
// as whole trailing axes (array_shape::trailing_chunk). A list of another
// length than the shape's axes throws FB_E_INVALID_OPTION naming the option,
// both and the path.
std::vector<hsize_t> chunk_dims(const hdf5_settings& s, std::size_t size, const array_shape::extents& shape,
                                std::uint64_t count, const std::string& path);

// Elements per chunk for an element of size bytes and a dataset of count
// elements (FB_COUNT_UNKNOWN: it grows): the option, or about 1 MiB; never
// more than a fixed count (HDF5 refuses chunks larger than a fixed
// dimension) and at least 1.
std::uint64_t chunk_elements(const hdf5_settings& s, std::size_t size, std::uint64_t count);

} // namespace formatbench::hdf5

// The hdf5 plugin's options, checked and turned into HDF5's terms once per
// stream. The declarations (names, defaults, help) are in hdf5.cpp.
#pragma once

#include <formatbench/plugin.hpp>

#include <hdf5.h>

#include <cstdint>
#include <string>

namespace formatbench::hdf5 {

namespace sdk = formatbench::sdk;

enum class layout_kind { automatic, contiguous, chunked };

struct hdf5_settings {
    layout_kind layout = layout_kind::automatic;
    std::uint64_t chunk = 0; // elements per chunk; 0 = about 1 MiB (chunk_elements)
    int deflate = 0;
    bool shuffle = false;
    bool fletcher32 = false;
    std::string dataset = "data";
    H5F_libver_t libver_low = H5F_LIBVER_EARLIEST;

    bool has_filters() const noexcept { return deflate > 0 || shuffle || fletcher32; }
};

// Chunk bytes when the chunk option is 0: HDF5's default chunk cache is
// 1 MiB, and chunks of up to that size are what its guide recommends.
inline constexpr std::uint64_t default_chunk_bytes = 1u << 20;

// Parses and checks the options of r. A combination that cannot be written
// (a filter with layout contiguous, an unusable dataset name) throws
// sdk::error(FB_E_INVALID_OPTION) naming the option; nothing is touched.
hdf5_settings parse_settings(const sdk::open_request& r);

// Whether a writer of this count makes a chunked dataset: layout chunked,
// or automatic with a filter or an unknown count (a dataset that grows must
// be chunked). A contiguous layout with an unknown count throws
// FB_E_INVALID_OPTION.
bool chunked_layout(const hdf5_settings& s, std::uint64_t count, const std::string& path);

// Elements per chunk for an element of size bytes and a dataset of count
// elements (FB_COUNT_UNKNOWN: it grows): the option, or about 1 MiB; never
// more than a fixed count (HDF5 refuses chunks larger than a fixed
// dimension) and at least 1.
std::uint64_t chunk_elements(const hdf5_settings& s, std::size_t size, std::uint64_t count);

} // namespace formatbench::hdf5

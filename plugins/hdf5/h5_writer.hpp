// The hdf5 plugin's writer: one dataset in a new HDF5 file, of the data
// set's shape (ABI 1.2: a dataspace of its rank and extents), or 1-D of the
// count without one.
//
// With a known count the dataset has that fixed size and each write is a
// selection of the elements at its flat offset (a hyperslab, or for an N-D
// dataset a union of at most 2 * rank - 1). With FB_COUNT_UNKNOWN it is chunked and
// extendible (maximum size H5S_UNLIMITED) and each write first grows it
// with H5Dset_extent; a shape then is refused (its product is the count).
// Chunked datasets get a chunk cache of at least two chunks (for an N-D
// dataset a slab of them, see open_file), in which a fully written chunk is
// the first to leave (w0 = 1), so that writes which split a chunk never
// make HDF5 read it back or filter it twice.
#pragma once

#include "h5_support.hpp"
#include "settings.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::hdf5 {

class hdf5_writer {
public:
    explicit hdf5_writer(const sdk::open_request& r);
    hdf5_writer(hdf5_writer&&) noexcept = default;
    hdf5_writer& operator=(hdf5_writer&&) = delete;
    ~hdf5_writer();

    void write(const void* data, std::uint64_t count);
    void close();

private:
    void open_file(const sdk::open_request& r);
    // A shape needs the count, and its product must be it (FB_E_INVALID_OPTION).
    void check_shape(const sdk::open_request& r) const;

    std::string path_;
    fb_dtype dtype_;
    hdf5_settings settings_;
    bool extendible_ = false;
    std::uint64_t capacity_ = 0; // a fixed dataset's size
    std::uint64_t written_ = 0;
    std::vector<hsize_t> dims_; // the dataspace's extents (the shape, or the count)
    bool created_ = false;      // this writer made the file at path_
    bool ok_ = false;           // the file is complete enough to keep
    // Declared in the order of opening: destroyed (closed) in reverse.
    h5_id file_, dataset_, file_space_;
    block_spaces spaces_;
};

} // namespace formatbench::hdf5

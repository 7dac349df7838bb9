// The hdf5 plugin's reader: one dataset of an HDF5 file, of any rank,
// whoever wrote it (this plugin, h5py, netCDF-4, a Fortran program).
//
// At open it checks, before reading any data: the file is HDF5 (not
// truncated: HDF5 compares its stored end of file with the real one), the
// dataset exists, its type holds the dtype's values exactly (class, size,
// sign; either byte order, converted by HDF5), its shape is the one asked
// for (ABI 1.2; without one any shape will do), it holds the count asked
// for, and every filter it needs is in this HDF5 library. Each read is a
// selection at the running flat offset (block_spaces); read_at one at the
// offset asked for, read_box one hyperslab. A chunked dataset is read
// through a chunk cache that holds a whole chunk, so reads that split a
// chunk decompress it once.
#pragma once

#include "h5_support.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::hdf5 {

class hdf5_reader {
public:
    explicit hdf5_reader(const sdk::open_request& r);
    hdf5_reader(hdf5_reader&&) noexcept = default;
    hdf5_reader& operator=(hdf5_reader&&) = delete;
    ~hdf5_reader();

    void read(void* data, std::uint64_t count);
    // formatbench.read-at/1 and read-box/1: one H5Dread of a selection of
    // the dataset, opened once in the constructor (see block_spaces).
    void read_at(std::uint64_t offset, void* data, std::uint64_t count);
    void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data);
    void close();

private:
    void open_dataset(const std::string& name);
    void check_dataset(const std::string& name, std::uint64_t asked, const array_shape::extents& asked_shape);
    // One H5Dread of the flat range [offset, offset + count), count > 0.
    void read_range(std::uint64_t offset, void* data, std::uint64_t count);
    void check_filter_values(const std::string& where, H5Z_filter_t id, const unsigned* values,
                             std::size_t count) const;

    std::string path_;
    fb_dtype dtype_;
    std::string dataset_name_;
    std::uint64_t extent_ = 0;  // the dataset's elements
    std::vector<hsize_t> dims_; // and its extents, one per axis
    std::uint64_t done_ = 0;
    // Declared in the order of opening: destroyed (closed) in reverse.
    h5_id file_, dataset_, file_space_;
    block_spaces spaces_;
};

} // namespace formatbench::hdf5

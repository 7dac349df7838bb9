// The hdf5 plugin's reader: one 1-D dataset of an HDF5 file, whoever wrote
// it (this plugin, h5py, netCDF-4, a Fortran program).
//
// At open it checks, before reading any data: the file is HDF5 (not
// truncated: HDF5 compares its stored end of file with the real one), the
// dataset exists, its type holds the dtype's values exactly (class, size,
// sign; either byte order, converted by HDF5), it is 1-D, its size is the
// count asked for, and every filter it needs is in this HDF5 library. Each
// read is a hyperslab at the running offset. A chunked dataset is read
// through a chunk cache that holds a whole chunk, so reads that split a
// chunk decompress it once.
#pragma once

#include "h5_support.hpp"

#include <cstdint>
#include <string>

namespace formatbench::hdf5 {

class hdf5_reader {
public:
    explicit hdf5_reader(const sdk::open_request& r);
    hdf5_reader(hdf5_reader&&) noexcept = default;
    hdf5_reader& operator=(hdf5_reader&&) = delete;
    ~hdf5_reader();

    void read(void* data, std::uint64_t count);
    void close();

private:
    void open_dataset(const std::string& name);
    void check_dataset(const std::string& name, std::uint64_t asked);
    void check_filter_values(const std::string& where, H5Z_filter_t id, const unsigned* values,
                             std::size_t count) const;

    std::string path_;
    fb_dtype dtype_;
    std::string dataset_name_;
    std::uint64_t extent_ = 0;
    std::uint64_t done_ = 0;
    // Declared in the order of opening: destroyed (closed) in reverse.
    h5_id file_, dataset_, file_space_;
    block_spaces spaces_;
};

} // namespace formatbench::hdf5

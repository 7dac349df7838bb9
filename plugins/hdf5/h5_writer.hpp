// The hdf5 plugin's writer: one 1-D dataset in a new HDF5 file.
//
// With a known count the dataset has that fixed size and each write is a
// hyperslab at its offset. With FB_COUNT_UNKNOWN it is chunked and
// extendible (maximum size H5S_UNLIMITED) and each write first grows it
// with H5Dset_extent. Chunked datasets get a chunk cache of at least two
// chunks, in which a fully written chunk is the first to leave (w0 = 1), so
// that writes which split a chunk never make HDF5 read it back or filter it
// twice.
#pragma once

#include "h5_support.hpp"
#include "settings.hpp"

#include <cstdint>
#include <string>

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

    std::string path_;
    fb_dtype dtype_;
    hdf5_settings settings_;
    bool extendible_ = false;
    std::uint64_t capacity_ = 0; // a fixed dataset's size
    std::uint64_t written_ = 0;
    bool created_ = false; // this writer made the file at path_
    bool ok_ = false;      // the file is complete enough to keep
    // Declared in the order of opening: destroyed (closed) in reverse.
    h5_id file_, dataset_, file_space_;
    block_spaces spaces_;
};

} // namespace formatbench::hdf5

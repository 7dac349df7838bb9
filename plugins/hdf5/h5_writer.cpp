// The hdf5 plugin's writer (see h5_writer.hpp).
#include "h5_writer.hpp"

#include "filters.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace formatbench::hdf5 {
namespace {

// The most a writer's chunk cache holds beyond two chunks (see open_file).
constexpr std::uint64_t max_cache_bytes = std::uint64_t{256} << 20;

// "32 x 64 x 64", for messages.
std::string chunk_text(const std::vector<hsize_t>& c) {
    return array_shape::shape_text(array_shape::extents(c.begin(), c.end()));
}

} // namespace

hdf5_writer::hdf5_writer(const sdk::open_request& r)
    : path_(r.path), dtype_(r.dtype), settings_(parse_settings(r)) {
    check_shape(r);
    library_call call;
    // As at plan (formatbench.check-options/1): a filter this HDF5 cannot
    // load is refused before the path is touched.
    try {
        check_filters_available(settings_);
    } catch (const sdk::error& e) {
        throw sdk::error(e.status(), std::string(e.what()) + " (for '" + path_ + "')");
    }
    try {
        open_file(r);
    } catch (...) {
        // Nothing is left at the path: the ids are closed, then the file
        // goes if this writer created it (a device is never removed).
        spaces_.reset();
        file_space_.reset();
        dataset_.reset();
        file_.reset();
        if (created_) ::unlink(path_.c_str());
        throw;
    }
}

void hdf5_writer::open_file(const sdk::open_request& r) {
    const bool chunked = chunked_layout(settings_, r.count, path_);
    if (chunked)
        chunk_dims(settings_, fb_dtype_size(dtype_), r.shape, r.count, path_); // refused before the file
    // A new path is created exclusively (H5F_ACC_EXCL), so that created_
    // says whether the file is ours to remove, and HDF5 writes a new file
    // instead of truncating one (slower: the runner writes each repetition
    // from no file for that reason). A path that exists (a file kept by the
    // host, a device) is truncated (H5F_ACC_TRUNC) and never removed.
    struct stat st {};
    const bool exists = ::lstat(path_.c_str(), &st) == 0;
    // Property lists only where they differ from HDF5's defaults: each one
    // is created, copied into the object and closed, which HDF5 does
    // through skip lists and string hashes at a cost a bare program with
    // H5P_DEFAULT does not pay.
    h5_id fapl;
    if (settings_.libver_low != H5F_LIBVER_EARLIEST) {
        fapl = own(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
        if (H5Pset_libver_bounds(fapl.get(), settings_.libver_low, H5F_LIBVER_LATEST) < 0)
            fail(FB_E_INVALID_OPTION, "cannot set the libver bounds for", path_);
    }
    hid_t file =
        H5Fcreate(path_.c_str(), exists ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, or_default(fapl));
    // With H5F_ACC_EXCL a file now at the path is the one HDF5 made, also
    // when it then failed (a full disk): it is removed with the rest.
    if (!exists) created_ = ::lstat(path_.c_str(), &st) == 0;
    file_ = own(file, H5Fclose, FB_E_IO, "cannot create", path_);

    const bool known = r.count != FB_COUNT_UNKNOWN;
    // A chunk cannot be larger than a fixed dimension, so an empty chunked
    // flat dataset is made extendible too (an N-D one gets unlimited
    // maximum extents on its axes of 0 instead).
    extendible_ = !known || (chunked && r.count == 0 && r.shape.empty());
    capacity_ = extendible_ ? 0 : r.count;
    if (r.shape.empty()) {
        dims_ = {known ? r.count : 0};
    } else {
        dims_.assign(r.shape.begin(), r.shape.end());
    }
    std::vector<hsize_t> max_dims = dims_;
    for (hsize_t& m : max_dims)
        if (extendible_ || (chunked && m == 0)) m = H5S_UNLIMITED;
    h5_id space = own(H5Screate_simple(static_cast<int>(dims_.size()), dims_.data(), max_dims.data()),
                      H5Sclose, FB_E_INTERNAL, "cannot set up", path_);

    // Fill values: HDF5's default (a fill value not set by the user, fill
    // time "if set") writes none, which is right, as every element is
    // written.
    h5_id dcpl, dapl;
    if (chunked) {
        dcpl = own(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
        dapl = own(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
        const std::size_t size = fb_dtype_size(dtype_);
        const std::vector<hsize_t> chunk =
            chunk_dims(settings_, size, r.shape, extendible_ ? FB_COUNT_UNKNOWN : r.count, path_);
        if (H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) < 0)
            fail(FB_E_INVALID_OPTION, "cannot use the chunks " + chunk_text(chunk) + " for", path_);
        // HDF5's usual order: shuffle before deflate, the checksum last (of
        // the bytes as stored).
        if (settings_.shuffle && H5Pset_shuffle(dcpl.get()) < 0) fail(FB_E_INTERNAL, "cannot set up", path_);
        if (settings_.deflate > 0 && H5Pset_deflate(dcpl.get(), static_cast<unsigned>(settings_.deflate)) < 0)
            fail(FB_E_INTERNAL, "cannot set up", path_);
        // A filter plugin after shuffle (parse_options refuses it beside
        // deflate); HDF5 calls its can_apply and set_local in H5Dcreate2.
        // Optional, as H5Pset_deflate's filter and h5py's filter plugins
        // are: a chunk the filter cannot make smaller (blosc on random
        // 64-bit integers fails so) is stored unfiltered, its bit set in
        // the chunk's filter mask, instead of failing the write.
        if (const filter_info* f = filter_of(settings_.filter)) {
            const std::vector<unsigned> values = filter_values(settings_);
            if (H5Pset_filter(dcpl.get(), f->id, H5Z_FLAG_OPTIONAL, values.size(), values.data()) < 0)
                fail(FB_E_UNSUPPORTED, std::string("cannot set up the filter ") + f->name + " for", path_);
        }
        if (settings_.fletcher32 && H5Pset_fletcher32(dcpl.get()) < 0)
            fail(FB_E_INTERNAL, "cannot set up", path_);
        // The flat stream of writes fills an N-D dataset a slab of chunks
        // (one chunk's extent of axis 0, every chunk of the other axes) at
        // a time, each chunk of it partly until the stream leaves the slab:
        // the cache holds the slab (and two chunks), at most
        // max_cache_bytes; beyond, HDF5 reads back and filters again the
        // chunks it had to write early.
        std::uint64_t chunk_count = 1, slab = 1;
        for (std::size_t k = 0; k < chunk.size(); ++k) {
            chunk_count *= chunk[k];
            if (k > 0 && dims_[k] > 0) slab *= (dims_[k] + chunk[k] - 1) / chunk[k];
        }
        const std::uint64_t chunk_bytes = chunk_count * size;
        const std::uint64_t cache = std::min<std::uint64_t>(
            std::max<std::uint64_t>({2 * chunk_bytes, (slab + 1) * chunk_bytes, default_chunk_bytes}),
            std::max<std::uint64_t>(2 * chunk_bytes, max_cache_bytes));
        if (H5Pset_chunk_cache(dapl.get(), cache_slots(cache / chunk_bytes), static_cast<std::size_t>(cache),
                               1.0) < 0)
            fail(FB_E_INTERNAL, "cannot set up", path_);
    }
    // Groups on the way to a dataset such as /results/run1 are created.
    h5_id lcpl;
    if (settings_.dataset.find('/', settings_.dataset.find_first_not_of('/')) != std::string::npos) {
        lcpl = own(H5Pcreate(H5P_LINK_CREATE), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
        if (H5Pset_create_intermediate_group(lcpl.get(), 1) < 0) fail(FB_E_INTERNAL, "cannot set up", path_);
    }
    dataset_ = own(H5Dcreate2(file_.get(), settings_.dataset.c_str(), file_type(dtype_), space.get(),
                              or_default(lcpl), or_default(dcpl), or_default(dapl)),
                   H5Dclose, FB_E_IO, "cannot create the dataset '" + settings_.dataset + "' in", path_);
    if (!extendible_) file_space_ = std::move(space);
}

void hdf5_writer::check_shape(const sdk::open_request& r) const {
    if (r.shape.empty()) return;
    std::uint64_t product = 0;
    if (r.count == FB_COUNT_UNKNOWN)
        throw sdk::error(FB_E_INVALID_OPTION, "hdf5: a shape (" + array_shape::shape_text(r.shape) +
                                                  ") was given for '" + path_ +
                                                  "' but no count; give the count, or no shape");
    if (!array_shape::element_count(r.shape, product) || product != r.count)
        throw sdk::error(FB_E_INVALID_OPTION, "hdf5: the shape " + array_shape::shape_text(r.shape) +
                                                  " does not hold the " + std::to_string(r.count) +
                                                  " elements asked for '" + path_ +
                                                  "'; give a shape whose product is the count");
}

hdf5_writer::~hdf5_writer() {
    if (!file_.valid() && !dataset_.valid()) return;
    library_call call;
    spaces_.reset();
    file_space_.reset();
    dataset_.reset();
    file_.reset();
}

void hdf5_writer::write(const void* data, std::uint64_t count) {
    library_call call;
    if (!dataset_.valid()) throw sdk::error(FB_E_STATE, "hdf5: write to '" + path_ + "' after close");
    if (count == 0) return;
    if (extendible_) {
        hsize_t size = written_ + count;
        if (H5Dset_extent(dataset_.get(), &size) < 0) fail(FB_E_IO, "cannot extend the dataset in", path_);
        file_space_ = own(H5Dget_space(dataset_.get()), H5Sclose, FB_E_INTERNAL, "cannot extend", path_);
    } else if (count > capacity_ - written_) {
        throw sdk::error(FB_E_STATE, "hdf5: '" + path_ + "': a write of " + std::to_string(count) +
                                         " elements after " + std::to_string(written_) + " goes past the " +
                                         std::to_string(capacity_) + " the file was opened for");
    }
    // The whole fixed dataset in one call is H5S_ALL, as a bare program
    // writes it; otherwise a hyperslab at the running offset.
    const bool whole = !extendible_ && written_ == 0 && count == capacity_;
    const auto [memory, file] =
        spaces_.select(file_space_, dims_, written_, count, whole, "cannot write to", path_);
    if (H5Dwrite(dataset_.get(), memory_type(dtype_), memory, file, H5P_DEFAULT, data) < 0)
        fail(FB_E_IO, "cannot write to", path_);
    written_ += count;
}

void hdf5_writer::close() {
    library_call call;
    if (!file_.valid()) return;
    spaces_.reset();
    file_space_.reset();
    // Closing the dataset writes the chunks still in its cache; closing the
    // file writes the metadata. Either may meet a full disk.
    if (!dataset_.close()) {
        h5_id file = std::move(file_); // closed after the reason is taken from the stack
        fail(FB_E_IO, "cannot finish the dataset in", path_);
    }
    if (!file_.close()) fail(FB_E_IO, "cannot finish", path_);
    if (!extendible_ && written_ < capacity_)
        throw sdk::error(FB_E_STATE, "hdf5: '" + path_ + "' was closed after " + std::to_string(written_) +
                                         " of the " + std::to_string(capacity_) +
                                         " elements it was opened for; the rest of its dataset is undefined");
}

} // namespace formatbench::hdf5

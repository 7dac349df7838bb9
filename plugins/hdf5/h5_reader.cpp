// The hdf5 plugin's reader (see h5_reader.hpp).
#include "h5_reader.hpp"

#include "filters.hpp"
#include "settings.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace formatbench::hdf5 {
namespace {

// Names listed when the dataset asked for is missing, and their length.
constexpr std::size_t listed_names = 10;
constexpr std::size_t listed_name_length = 64;

struct name_list {
    std::vector<std::string> names;
    bool more = false;
};

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
    auto* list = static_cast<name_list*>(out);
    if (list->names.size() == listed_names) {
        list->more = true;
        return 1; // stop
    }
    std::string n(name);
    if (n.size() > listed_name_length) n = n.substr(0, listed_name_length) + "...";
    list->names.push_back(n);
    return 0;
}

// "data, x, y" (the root group's names), for a message.
std::string root_names(hid_t file) {
    name_list list;
    hsize_t index = 0;
    H5Literate(file, H5_INDEX_NAME, H5_ITER_NATIVE, &index, collect_name, &list);
    take_error_stack(); // a damaged group may fail half-way; what was found is shown
    std::string out;
    for (const auto& n : list.names)
        out += (out.empty() ? "" : ", ") + n;
    if (list.more) out += ", ...";
    return out.empty() ? "nothing" : out;
}

} // namespace

// The parameters HDF5 keeps for the filters it sets up itself must be the
// ones it would have set: a damaged shuffle parameter (the element size)
// makes HDF5 1.10.8 unshuffle past the end of its chunk buffer (seen under
// AddressSanitizer with one flipped byte of an earliest-format file, whose
// object headers have no checksum).
void hdf5_reader::check_filter_values(const std::string& where, H5Z_filter_t id, const unsigned* values,
                                      std::size_t count) const {
    bool ok = true;
    if (id == H5Z_FILTER_SHUFFLE) ok = count >= 1 && values[0] == fb_dtype_size(dtype_);
    if (id == H5Z_FILTER_DEFLATE) ok = count >= 1 && values[0] <= 9;
    if (id == H5Z_FILTER_FLETCHER32) ok = count == 0;
    if (!ok)
        throw sdk::error(FB_E_CORRUPT, where + " has damaged parameters for the HDF5 filter " +
                                           std::to_string(id) + " (its header is damaged)");
}

hdf5_reader::hdf5_reader(const sdk::open_request& r)
    : path_(r.path), dtype_(r.dtype), dataset_name_(r.options.get_string("dataset")) {
    library_call call;
    // The operating system's refusals in its own words, before HDF5's (a
    // stat, not an open: HDF5 opens the file itself, and reports a
    // permission it is refused with the errno).
    {
        struct stat st {};
        if (::stat(path_.c_str(), &st) != 0) throw sdk::io_error("hdf5: cannot open", path_, errno);
        if (S_ISDIR(st.st_mode))
            throw sdk::error(FB_E_IO, "hdf5: '" + path_ + "' is a directory, not an HDF5 file");
        if (S_ISREG(st.st_mode) && st.st_size == 0)
            throw sdk::error(FB_E_TRUNCATED, "hdf5: '" + path_ + "' is empty, not an HDF5 file");
    }
    file_ = own(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, FB_E_CORRUPT, "cannot open",
                path_);
    open_dataset(dataset_name_);
    check_dataset(dataset_name_, r.count, r.shape);
}

void hdf5_reader::open_dataset(const std::string& name) {
    hid_t d = H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT);
    if (d < 0) {
        std::string why = take_error_stack();
        throw sdk::error(FB_E_CORRUPT, "hdf5: '" + path_ + "' has no readable dataset '" + name + "' (" +
                                           why + "); its root group holds " + root_names(file_.get()) +
                                           "; choose one with the option dataset");
    }
    dataset_ = h5_id(d, H5Dclose);
}

void hdf5_reader::check_dataset(const std::string& name, std::uint64_t asked,
                                const array_shape::extents& asked_shape) {
    const std::string where = "hdf5: dataset '" + name + "' of '" + path_ + "'";
    h5_id type =
        own(H5Dget_type(dataset_.get()), H5Tclose, FB_E_CORRUPT, "cannot read the dataset's type in", path_);
    if (!type_holds(type.get(), dtype_))
        throw sdk::error(FB_E_CORRUPT, where + " holds " + describe_type(type.get()) + ", not " +
                                           describe_dtype(dtype_) +
                                           " as asked; read it with the dtype it holds");

    h5_id space = own(H5Dget_space(dataset_.get()), H5Sclose, FB_E_CORRUPT,
                      "cannot read the dataset's shape in", path_);
    H5S_class_t kind = H5Sget_simple_extent_type(space.get());
    int rank = H5Sget_simple_extent_ndims(space.get());
    if (kind == H5S_SCALAR)
        throw sdk::error(FB_E_UNSUPPORTED,
                         where + " is a scalar; this plugin reads datasets of 1 to 32 axes");
    if (kind != H5S_SIMPLE || rank < 0)
        throw sdk::error(FB_E_UNSUPPORTED, where + " has no elements (a null dataspace); this plugin reads "
                                                   "datasets of 1 to 32 axes");
    if (rank == 0 || rank > H5S_MAX_RANK)
        throw sdk::error(FB_E_UNSUPPORTED, where + " has a dataspace of rank " + std::to_string(rank) +
                                               "; this plugin reads datasets of 1 to 32 axes");
    dims_.assign(static_cast<std::size_t>(rank), 0);
    if (H5Sget_simple_extent_dims(space.get(), dims_.data(), nullptr) < 0)
        fail(FB_E_CORRUPT, "cannot read the dataset's shape in", path_);
    const array_shape::extents file_shape(dims_.begin(), dims_.end());
    // With a shape asked for, the file's must be it; without one (a flat
    // array, a from_file data set) any shape of the count will do.
    if (!asked_shape.empty() && file_shape != asked_shape)
        throw sdk::error(FB_E_CORRUPT, where + " has the shape " + array_shape::shape_text(file_shape) +
                                           ", the data set's shape is " +
                                           array_shape::shape_text(asked_shape) +
                                           "; give the data set the file's shape, or write the file again");
    if (!array_shape::element_count(file_shape, extent_))
        throw sdk::error(FB_E_CORRUPT, where + " has the shape " + array_shape::shape_text(file_shape) +
                                           ", more elements than 64 bits count");
    if (asked != FB_COUNT_UNKNOWN && extent_ != asked)
        throw sdk::error(extent_ < asked ? FB_E_TRUNCATED : FB_E_CORRUPT,
                         where + " holds " + std::to_string(extent_) + " elements" +
                             (rank > 1 ? " (" + array_shape::shape_text(file_shape) + ")" : std::string()) +
                             ", " + std::to_string(asked) + " were asked for; set the count to " +
                             std::to_string(extent_));
    file_space_ = std::move(space);

    // A contiguous dataset has an address and no filters: the creation
    // property list, a copy HDF5 makes at some cost, is not needed then.
    if (H5Dget_offset(dataset_.get()) != HADDR_UNDEF) return;
    take_error_stack(); // a chunked or unallocated dataset may have left a note
    h5_id dcpl = own(H5Dget_create_plist(dataset_.get()), H5Pclose, FB_E_CORRUPT,
                     "cannot read the dataset's layout in", path_);
    if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return;
    int filters = H5Pget_nfilters(dcpl.get());
    for (int i = 0; i < filters; ++i) {
        unsigned flags = 0, config = 0;
        unsigned values[8];
        std::size_t value_count = std::size(values);
        char filter_name[64] = "";
        H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &value_count, values,
                                         sizeof filter_name, filter_name, &config);
        if (id < 0) fail(FB_E_CORRUPT, "cannot read the dataset's filters in", path_);
        if (H5Zfilter_avail(id) <= 0) {
            take_error_stack();
            const filter_info* known = filter_of_id(id);
            throw sdk::error(FB_E_UNSUPPORTED,
                             where + " needs the HDF5 filter '" + std::string(filter_name) + "' (id " +
                                 std::to_string(id) + "), which this HDF5 library does not have" +
                                 (known
                                      ? ": " + filter_remedy(*known)
                                      : std::string(" (filter plugins are found through HDF5_PLUGIN_PATH)")));
        }
        check_filter_values(where, id, values, value_count);
    }
    // A chunk cache that holds a whole chunk: without one, a read that
    // covers part of a chunk reads and unfilters the whole chunk again.
    std::vector<hsize_t> chunk(dims_.size(), 0);
    if (H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) !=
        static_cast<int>(chunk.size()))
        fail(FB_E_CORRUPT, "cannot read the dataset's chunks in", path_);
    std::uint64_t chunk_count = 0;
    // HDF5 keeps a chunk under 4 GiB; more is a damaged header.
    if (!array_shape::element_count(array_shape::extents(chunk.begin(), chunk.end()), chunk_count) ||
        chunk_count > (std::uint64_t{1} << 32))
        throw sdk::error(FB_E_CORRUPT,
                         where + " has chunks of more than 2^32 elements (its header is damaged)");
    const std::size_t chunk_bytes = static_cast<std::size_t>(chunk_count) * fb_dtype_size(dtype_);
    // Without filters every stored chunk is a whole chunk. A file whose
    // filter pipeline message was damaged away (an earliest-format object
    // header has no checksum) still has its compressed chunks, and HDF5
    // 1.10.8 then copies a whole chunk out of a smaller buffer (a heap
    // overflow under AddressSanitizer).
    if (filters == 0 && chunk_bytes > 0 && H5Dget_storage_size(dataset_.get()) % chunk_bytes != 0)
        throw sdk::error(FB_E_CORRUPT, where +
                                           " stores chunks of other sizes than its unfiltered chunks of " +
                                           std::to_string(chunk_bytes) + " bytes (its header is damaged)");
    if (chunk_bytes <= default_chunk_bytes) return;
    h5_id dapl = own(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose, FB_E_INTERNAL, "cannot set up", path_);
    if (H5Pset_chunk_cache(dapl.get(), 521, chunk_bytes, 1.0) < 0)
        fail(FB_E_INTERNAL, "cannot set up", path_);
    dataset_.reset();
    dataset_ =
        own(H5Dopen2(file_.get(), name.c_str(), dapl.get()), H5Dclose, FB_E_CORRUPT, "cannot reopen", path_);
}

hdf5_reader::~hdf5_reader() {
    if (!file_.valid() && !dataset_.valid()) return;
    library_call call;
    spaces_.reset();
    file_space_.reset();
    dataset_.reset();
    file_.reset();
}

void hdf5_reader::read(void* data, std::uint64_t count) {
    library_call call;
    if (!dataset_.valid()) throw sdk::error(FB_E_STATE, "hdf5: read from '" + path_ + "' after close");
    if (count > extent_ - done_)
        throw sdk::error(FB_E_TRUNCATED, "hdf5: dataset '" + dataset_name_ + "' of '" + path_ + "' holds " +
                                             std::to_string(extent_) + " elements; a read of " +
                                             std::to_string(count) + " after " + std::to_string(done_) +
                                             " goes past them");
    if (count == 0) return;
    // The whole dataset in one call is H5S_ALL, as a bare program reads it;
    // otherwise a hyperslab at the running offset.
    read_range(done_, data, count);
    done_ += count;
}

void hdf5_reader::read_range(std::uint64_t offset, void* data, std::uint64_t count) {
    const auto [memory, file] = spaces_.select(file_space_, dims_, offset, count,
                                               offset == 0 && count == extent_, "cannot read from", path_);
    if (H5Dread(dataset_.get(), memory_type(dtype_), memory, file, H5P_DEFAULT, data) < 0)
        fail(FB_E_CORRUPT, "cannot read from", path_);
}

void hdf5_reader::read_at(std::uint64_t offset, void* data, std::uint64_t count) {
    library_call call;
    if (!dataset_.valid()) throw sdk::error(FB_E_STATE, "hdf5: read_at from '" + path_ + "' after close");
    // The adapter checked the range against the count asked for, which is
    // the file's unless it was FB_COUNT_UNKNOWN.
    if (offset > extent_ || count > extent_ - offset)
        throw sdk::error(FB_E_TRUNCATED, "hdf5: dataset '" + dataset_name_ + "' of '" + path_ + "' holds " +
                                             std::to_string(extent_) + " elements; elements [" +
                                             std::to_string(offset) + ", " + std::to_string(offset + count) +
                                             ") lie outside them");
    if (count == 0) return;
    read_range(offset, data, count);
}

void hdf5_reader::read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
    library_call call;
    if (!dataset_.valid()) throw sdk::error(FB_E_STATE, "hdf5: read_box from '" + path_ + "' after close");
    // The adapter checked the box against the shape asked for, which
    // check_dataset found to be the file's.
    for (std::size_t k = 0; k < dims_.size(); ++k)
        if (count[k] == 0) return;
    const auto [memory, file] = spaces_.select_box(file_space_, start, count, dims_.size(), path_);
    if (H5Dread(dataset_.get(), memory_type(dtype_), memory, file, H5P_DEFAULT, data) < 0)
        fail(FB_E_CORRUPT, "cannot read from", path_);
}

void hdf5_reader::close() {
    library_call call;
    spaces_.reset();
    file_space_.reset();
    dataset_.reset();
    file_.reset();
}

} // namespace formatbench::hdf5

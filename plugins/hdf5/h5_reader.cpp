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

std::string extent_text(hid_t space) {
    int rank = H5Sget_simple_extent_ndims(space);
    if (rank <= 0 || rank > H5S_MAX_RANK) return "?";
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    std::string out;
    for (hsize_t d : dims)
        out += (out.empty() ? "" : " x ") + std::to_string(d);
    return std::to_string(rank) + "-D (" + out + ")";
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
    check_dataset(dataset_name_, r.count);
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

void hdf5_reader::check_dataset(const std::string& name, std::uint64_t asked) {
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
        throw sdk::error(FB_E_UNSUPPORTED, where + " is a scalar; this plugin reads 1-D datasets");
    if (kind != H5S_SIMPLE || rank < 0)
        throw sdk::error(FB_E_UNSUPPORTED,
                         where + " has no elements (a null dataspace); this plugin reads 1-D datasets");
    if (rank != 1)
        throw sdk::error(FB_E_UNSUPPORTED,
                         where + " is " + extent_text(space.get()) + "; this plugin reads 1-D datasets");
    hsize_t dims = 0;
    if (H5Sget_simple_extent_dims(space.get(), &dims, nullptr) < 0)
        fail(FB_E_CORRUPT, "cannot read the dataset's shape in", path_);
    extent_ = dims;
    if (asked != FB_COUNT_UNKNOWN && extent_ != asked)
        throw sdk::error(extent_ < asked ? FB_E_TRUNCATED : FB_E_CORRUPT,
                         where + " holds " + std::to_string(extent_) + " elements, " + std::to_string(asked) +
                             " were asked for; set the count to " + std::to_string(extent_));
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
    hsize_t chunk = 0;
    if (H5Pget_chunk(dcpl.get(), 1, &chunk) != 1)
        fail(FB_E_CORRUPT, "cannot read the dataset's chunks in", path_);
    const std::size_t chunk_bytes = static_cast<std::size_t>(chunk) * fb_dtype_size(dtype_);
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
    const auto [memory, file] =
        spaces_.select(file_space_, done_, count, done_ == 0 && count == extent_, "cannot read from", path_);
    if (H5Dread(dataset_.get(), memory_type(dtype_), memory, file, H5P_DEFAULT, data) < 0)
        fail(FB_E_CORRUPT, "cannot read from", path_);
    done_ += count;
}

void hdf5_reader::close() {
    library_call call;
    spaces_.reset();
    file_space_.reset();
    dataset_.reset();
    file_.reset();
}

} // namespace formatbench::hdf5

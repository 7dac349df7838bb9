// The netcdf plugin's reader (see nc_reader.hpp).
#include "nc_reader.hpp"

#include "classic_header.hpp"

#include <formatbench/posix_file.hpp>
#include <netcdf_filter.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

namespace formatbench::netcdf {
namespace {

constexpr sdk::file_wording wording{.prefix = "netcdf: "};

// Names listed when the variable asked for is missing.
constexpr int listed_names = 10;
// HDF5 allows at most this many filters on a dataset (H5Z_MAX_NFILTERS).
constexpr std::size_t max_filters = 32;

herr_t find_truncated(unsigned, const H5E_error2_t* e, void* found) {
    if (e->min_num == H5E_TRUNCATED) *static_cast<bool*>(found) = true;
    return 0;
}

// After nc_open failed with an HDF5 error: whether HDF5 itself finds the
// file truncated (it compares the end of file it stored with the real one).
// netCDF's code says only "HDF error".
bool hdf5_finds_truncated(const std::string& path) {
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file >= 0) {
        H5Fclose(file);
        return false;
    }
    bool truncated = false;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_truncated, &truncated);
    H5Eclear2(H5E_DEFAULT);
    return truncated;
}

// errno values that are the system's failure rather than netCDF's word
// for a damaged header.
bool os_failure(int e) {
    switch (e) {
    case EIO:
    case EMFILE:
    case ENFILE:
    case ENOMEM:
    case EACCES:
    case EPERM:
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
    case ENAMETOOLONG:
    case EINTR: return true;
    default: return false;
    }
}

bool is_classic(int format) {
    return format == NC_FORMAT_CLASSIC || format == NC_FORMAT_64BIT_OFFSET || format == NC_FORMAT_64BIT_DATA;
}

} // namespace

netcdf_reader::netcdf_reader(const sdk::open_request& r)
    : path_(r.path), dtype_(r.dtype), variable_(r.options.get_string("variable")) {
    library_call call;
    // The operating system's refusals in its own words, before netCDF's;
    // and a classic header walked and checked against the file's size
    // before netCDF parses it (see check_classic_header).
    {
        sdk::file f = sdk::file::open_read(path_, wording);
        struct stat st = f.status();
        if (S_ISDIR(st.st_mode))
            throw sdk::error(FB_E_IO, "netcdf: '" + path_ + "' is a directory, not a netCDF file");
        const auto size = static_cast<std::uint64_t>(st.st_size);
        if (S_ISREG(st.st_mode) && size == 0)
            throw sdk::error(FB_E_TRUNCATED, "netcdf: '" + path_ + "' is empty, not a netCDF file");
        unsigned char magic[4] = {};
        if (S_ISREG(st.st_mode) && f.read_full(magic, 4) == 4 && std::memcmp(magic, "CDF", 3) == 0)
            check_classic_header(f.fd(), size);
    }
    try {
        int st = nc_open(path_.c_str(), NC_NOWRITE, &ncid_);
        if (st == NC_EHDFERR && hdf5_finds_truncated(path_))
            throw sdk::error(FB_E_TRUNCATED, "netcdf: cannot open '" + path_ + "': " + nc_strerror(st) +
                                                 ": HDF5 finds the file truncated");
        if (st == NC_ENOTNC)
            fail(st, FB_E_CORRUPT, "cannot open", path_, "it is not a netCDF file, or it is damaged");
        // netCDF 4.9 reports a malformed classic header with errno values
        // (EINVAL for a bad list tag, E2BIG, ...) or NC_ENOMEM (a damaged
        // count it failed to allocate for); an operating system's refusal
        // of the open itself was caught above.
        if ((st > 0 && !os_failure(st)) || st == NC_ENOMEM)
            throw sdk::error(FB_E_CORRUPT, "netcdf: cannot open '" + path_ + "': " + nc_strerror(st) +
                                               "; its header is damaged");
        check(st, FB_E_CORRUPT, "cannot open", path_);
        check_variable(r.count, r.shape);
        int format = 0;
        check(nc_inq_format(ncid_, &format), FB_E_CORRUPT, "cannot read the format of", path_);
        if (!is_classic(format)) check_filters();
    } catch (...) {
        if (ncid_ >= 0) nc_close(std::exchange(ncid_, -1));
        throw;
    }
}

void netcdf_reader::check_variable(std::uint64_t asked, const array_shape::extents& asked_shape) {
    const std::string where = "netcdf: variable '" + variable_ + "' of '" + path_ + "'";
    int st = nc_inq_varid(ncid_, variable_.c_str(), &varid_);
    if (st == NC_ENOTVAR) {
        int nvars = 0;
        nc_inq_nvars(ncid_, &nvars);
        std::string names;
        for (int v = 0; v < std::min(nvars, listed_names); ++v) {
            char name[NC_MAX_NAME + 1] = "";
            if (nc_inq_varname(ncid_, v, name) == NC_NOERR)
                names += (names.empty() ? "" : ", ") + std::string(name);
        }
        if (nvars > listed_names) names += ", ...";
        throw sdk::error(FB_E_CORRUPT, "netcdf: '" + path_ + "' has no variable '" + variable_ +
                                           "'; it holds " + (names.empty() ? std::string("none") : names) +
                                           "; choose one with the option variable");
    }
    check(st, FB_E_CORRUPT, "cannot find the variable '" + variable_ + "' in", path_);

    int rank = 0;
    check(nc_inq_varndims(ncid_, varid_, &rank), FB_E_CORRUPT, "cannot read the variable's shape in", path_);
    if (rank == 0)
        throw sdk::error(FB_E_UNSUPPORTED,
                         where + " has no dimension (a scalar); this plugin reads variables of 1 or more");
    if (rank < 0 || rank > NC_MAX_VAR_DIMS)
        throw sdk::error(FB_E_CORRUPT, where + " has " + std::to_string(rank) + " dimensions");
    nc_type type = NC_NAT;
    check(nc_inq_vartype(ncid_, varid_, &type), FB_E_CORRUPT, "cannot read the variable's type in", path_);
    bool unsigned_bytes = false;
    if (type == NC_BYTE) {
        nc_type att_type = NC_NAT;
        std::size_t att_length = 0;
        if (nc_inq_att(ncid_, varid_, "_Unsigned", &att_type, &att_length) == NC_NOERR &&
            att_type == NC_CHAR && att_length <= 8) {
            char text[9] = "";
            if (nc_get_att_text(ncid_, varid_, "_Unsigned", text) == NC_NOERR) {
                std::string v(text, att_length);
                std::transform(v.begin(), v.end(), v.begin(),
                               [](unsigned char c) { return std::tolower(c); });
                unsigned_bytes = v == "true";
            }
        }
    }
    const bool matches =
        (dtype_ == FB_DTYPE_F64 && type == NC_DOUBLE) || (dtype_ == FB_DTYPE_F32 && type == NC_FLOAT) ||
        (dtype_ == FB_DTYPE_I32 && type == NC_INT) || (dtype_ == FB_DTYPE_I64 && type == NC_INT64) ||
        (dtype_ == FB_DTYPE_U8 && (type == NC_UBYTE || (type == NC_BYTE && unsigned_bytes)));
    if (!matches)
        throw sdk::error(FB_E_CORRUPT,
                         where + " holds " + type_name(type) + ", not " + sdk::dtype_name(dtype_) +
                             (type == NC_BYTE
                                  ? " (u8 reads ubyte, or byte with the attribute _Unsigned = \"true\")"
                                  : "; read it with the dtype it holds"));

    std::vector<int> dims(static_cast<std::size_t>(rank), -1);
    check(nc_inq_vardimid(ncid_, varid_, dims.data()), FB_E_CORRUPT,
          "cannot read the variable's dimensions in", path_);
    shape_.clear();
    for (int d : dims) {
        std::size_t length = 0;
        check(nc_inq_dimlen(ncid_, d, &length), FB_E_CORRUPT, "cannot read the variable's shape in", path_);
        shape_.push_back(length);
    }
    // With a shape asked for, the file's must be it; without one (a flat
    // array, a from_file data set) any shape of the count will do.
    if (!asked_shape.empty() && shape_ != asked_shape)
        throw sdk::error(FB_E_CORRUPT, where + " has the shape " + array_shape::shape_text(shape_) +
                                           ", the data set's shape is " +
                                           array_shape::shape_text(asked_shape) +
                                           "; give the data set the file's shape, or write the file again");
    if (!array_shape::element_count(shape_, length_))
        throw sdk::error(FB_E_CORRUPT, where + " has the shape " + array_shape::shape_text(shape_) +
                                           ", more elements than 64 bits count");
    if (asked != FB_COUNT_UNKNOWN && length_ != asked)
        throw sdk::error(length_ < asked ? FB_E_TRUNCATED : FB_E_CORRUPT,
                         where + " holds " + std::to_string(length_) + " elements" +
                             (rank > 1 ? " (" + array_shape::shape_text(shape_) + ")" : std::string()) +
                             ", " + std::to_string(asked) + " were asked for; set the count to " +
                             std::to_string(length_));
}

void netcdf_reader::check_classic_header(int fd, std::uint64_t file_size) {
    classic_extent e;
    try {
        e = classic_data_end(fd, file_size, variable_);
    } catch (const bad_classic_header& x) {
        throw sdk::error(FB_E_CORRUPT,
                         "netcdf: the classic header of '" + path_ + "' is damaged: " + x.what());
    }
    // A missing variable is left to netCDF, which lists the ones there are.
    if (e.found && !e.streaming && e.end > file_size)
        throw sdk::error(FB_E_TRUNCATED, "netcdf: '" + path_ + "' is truncated: its variable '" + variable_ +
                                             "' ends at byte " + std::to_string(e.end) + ", the file has " +
                                             std::to_string(file_size));
}

void netcdf_reader::check_filters() {
    std::size_t n = 0;
    if (nc_inq_var_filter_ids(ncid_, varid_, &n, nullptr) != NC_NOERR || n == 0) return;
    if (n > max_filters)
        throw sdk::error(FB_E_CORRUPT, "netcdf: variable '" + variable_ + "' of '" + path_ + "' lists " +
                                           std::to_string(n) + " filters");
    std::vector<unsigned> ids(n);
    check(nc_inq_var_filter_ids(ncid_, varid_, &n, ids.data()), FB_E_CORRUPT, "cannot read the filters of",
          path_);
    for (unsigned id : ids)
        if (nc_inq_filter_avail(ncid_, id) != NC_NOERR)
            throw sdk::error(FB_E_UNSUPPORTED,
                             "netcdf: variable '" + variable_ + "' of '" + path_ +
                                 "' needs the HDF5 filter with id " + std::to_string(id) +
                                 ", which this netCDF/HDF5 does not have (filter plugins are "
                                 "found through HDF5_PLUGIN_PATH)");
}

netcdf_reader::netcdf_reader(netcdf_reader&& o) noexcept
    : path_(std::move(o.path_)), dtype_(o.dtype_), variable_(std::move(o.variable_)),
      ncid_(std::exchange(o.ncid_, -1)), varid_(o.varid_), length_(o.length_), shape_(std::move(o.shape_)),
      done_(o.done_) {}

netcdf_reader::~netcdf_reader() {
    if (ncid_ < 0) return;
    library_call call;
    nc_close(std::exchange(ncid_, -1));
}

void netcdf_reader::read(void* data, std::uint64_t count) {
    library_call call;
    if (ncid_ < 0) throw sdk::error(FB_E_STATE, "netcdf: read from '" + path_ + "' after close");
    if (count > length_ - done_)
        throw sdk::error(FB_E_TRUNCATED, "netcdf: variable '" + variable_ + "' of '" + path_ + "' holds " +
                                             std::to_string(length_) + " elements; a read of " +
                                             std::to_string(count) + " after " + std::to_string(done_) +
                                             " goes past them");
    if (count == 0) return;
    read_range(done_, data, count);
    done_ += count;
}

void netcdf_reader::read_range(std::uint64_t offset, void* data, std::uint64_t count) {
    if (shape_.size() == 1) {
        std::size_t start = static_cast<std::size_t>(offset), n = static_cast<std::size_t>(count);
        check(nc_get_vara(ncid_, varid_, &start, &n, data), FB_E_CORRUPT, "cannot read from", path_);
        return;
    }
    const std::size_t size = fb_dtype_size(dtype_);
    for (const auto& b : array_shape::flat_range_boxes(shape_, offset, count)) {
        start_.assign(b.start.begin(), b.start.end());
        count_.assign(b.count.begin(), b.count.end());
        check(nc_get_vara(ncid_, varid_, start_.data(), count_.data(),
                          static_cast<unsigned char*>(data) + b.position * size),
              FB_E_CORRUPT, "cannot read from", path_);
    }
}

void netcdf_reader::read_at(std::uint64_t offset, void* data, std::uint64_t count) {
    library_call call;
    if (ncid_ < 0) throw sdk::error(FB_E_STATE, "netcdf: read_at from '" + path_ + "' after close");
    // The adapter checked the range against the count asked for, which is
    // the file's unless it was FB_COUNT_UNKNOWN.
    if (offset > length_ || count > length_ - offset)
        throw sdk::error(FB_E_TRUNCATED, "netcdf: variable '" + variable_ + "' of '" + path_ + "' holds " +
                                             std::to_string(length_) + " elements; elements [" +
                                             std::to_string(offset) + ", " + std::to_string(offset + count) +
                                             ") lie outside them");
    if (count == 0) return;
    read_range(offset, data, count);
}

void netcdf_reader::read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
    library_call call;
    if (ncid_ < 0) throw sdk::error(FB_E_STATE, "netcdf: read_box from '" + path_ + "' after close");
    // The adapter checked the box against the shape asked for, which
    // check_variable found to be the file's.
    start_.assign(start, start + shape_.size());
    count_.assign(count, count + shape_.size());
    for (std::size_t n : count_)
        if (n == 0) return;
    check(nc_get_vara(ncid_, varid_, start_.data(), count_.data(), data), FB_E_CORRUPT, "cannot read from",
          path_);
}

void netcdf_reader::close() {
    library_call call;
    if (ncid_ >= 0) nc_close(std::exchange(ncid_, -1));
}

} // namespace formatbench::netcdf

// The netcdf plugin's writer (see nc_writer.hpp).
#include "nc_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

namespace formatbench::netcdf {
namespace {

constexpr const char* dimension_name = "index";

} // namespace

netcdf_writer::netcdf_writer(const sdk::open_request& r)
    : path_(r.path), dtype_(r.dtype), settings_(parse_settings(r)) {
    library_call call;
    struct stat st {};
    exists_ = ::stat(path_.c_str(), &st) == 0;
    if (exists_ && !S_ISREG(st.st_mode))
        throw sdk::error(FB_E_IO,
                         "netcdf: '" + path_ +
                             "' is not a regular file; netCDF removes the file it was creating when that "
                             "fails, so this plugin writes only regular files");
    try {
        define(r);
    } catch (...) {
        // Closed, not aborted: nc_abort removes a file being created.
        if (ncid_ >= 0) nc_close(std::exchange(ncid_, -1));
        if (created_) ::unlink(path_.c_str());
        throw;
    }
}

void netcdf_writer::define(const sdk::open_request& r) {
    const netcdf_settings& s = settings_;
    // A new path is created exclusively (NC_NOCLOBBER), so that created_
    // says whether the file is ours to remove, and netCDF writes a new file
    // instead of truncating one (slower: the runner writes each repetition
    // from no file for that reason). An existing regular file is truncated
    // (NC_CLOBBER).
    int st = nc_create(path_.c_str(), create_mode(s.format) | (exists_ ? NC_CLOBBER : NC_NOCLOBBER), &ncid_);
    struct stat now {};
    if (!exists_) created_ = ::stat(path_.c_str(), &now) == 0;
    if (st != NC_NOERR && !exists_ && !created_) {
        // netCDF-4 reports every failure of HDF5's create as EACCES: the
        // operating system's own reason, from a create of our own.
        int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) throw sdk::io_error("netcdf: cannot create", path_, errno);
        ::close(fd);
        ::unlink(path_.c_str());
    }
    check(st, FB_E_IO, "cannot create", path_);
    int old_fill = 0;
    check(nc_set_fill(ncid_, NC_NOFILL, &old_fill), FB_E_IO, "cannot set up", path_);

    const bool known = r.count != FB_COUNT_UNKNOWN;
    unlimited_ = s.unlimited || !known || r.count == 0;
    capacity_ = unlimited_ ? 0 : r.count;
    if (!unlimited_ && r.count > SIZE_MAX)
        throw sdk::error(FB_E_INVALID_OPTION, "netcdf: a count of " + std::to_string(r.count) + " for '" +
                                                  path_ + "' does not fit netCDF's size_t");
    // One dimension per axis of the shape: "index" for a flat array (and a
    // 1-D shape), "dim0", "dim1", ... for N axes (dim0 the slowest, as
    // netCDF and C order them).
    if (r.shape.size() <= 1) {
        shape_ = {unlimited_ ? 0 : r.count};
    } else {
        shape_ = r.shape;
    }
    std::vector<int> dims(shape_.size(), -1);
    for (std::size_t k = 0; k < shape_.size(); ++k) {
        const std::string name = shape_.size() == 1 ? std::string(dimension_name) : "dim" + std::to_string(k);
        if (shape_[k] > SIZE_MAX)
            throw sdk::error(FB_E_INVALID_OPTION, "netcdf: an extent of " + std::to_string(shape_[k]) +
                                                      " for '" + path_ + "' does not fit netCDF's size_t");
        const std::size_t length = k == 0 && unlimited_ ? NC_UNLIMITED : static_cast<std::size_t>(shape_[k]);
        st = nc_def_dim(ncid_, name.c_str(), length, &dims[k]);
        if (st != NC_NOERR)
            fail(st, FB_E_INVALID_OPTION, "cannot define the dimension " + name + " of", path_,
                 std::string("format ") + format_name(s.format) + " may not hold " +
                     (shape_.size() == 1 ? std::to_string(r.count) + " elements"
                                         : "the shape " + array_shape::shape_text(shape_)) +
                     " (64bit_data and netcdf4 hold the most)");
    }
    const nc_type type = variable_type(dtype_, s.classic_model());
    st = nc_def_var(ncid_, s.variable.c_str(), type, static_cast<int>(dims.size()), dims.data(), &varid_);
    if (st != NC_NOERR)
        fail(st, FB_E_INVALID_OPTION, "cannot define the variable '" + s.variable + "' in", path_);
    if (dtype_ == FB_DTYPE_U8 && type == NC_BYTE)
        check(nc_put_att_text(ncid_, varid_, "_Unsigned", 4, "true"), FB_E_IO, "cannot set _Unsigned in",
              path_);

    if (s.hdf5_based() && r.count != 0) {
        const bool chunked =
            s.chunking == chunking_kind::chunked || (s.chunking == chunking_kind::automatic && s.chunk > 0);
        if (s.chunking == chunking_kind::contiguous && !unlimited_) {
            check(nc_def_var_chunking(ncid_, varid_, NC_CONTIGUOUS, nullptr), FB_E_INVALID_OPTION,
                  "cannot make the variable contiguous in", path_);
        } else if (chunked) {
            // Chunks no larger than a fixed dimension (netCDF refuses more),
            // or netCDF's default (none given).
            const array_shape::extents c = chunk_extents(
                s, r.shape.size() <= 1 ? array_shape::extents{} : r.shape, r.count, unlimited_, path_);
            const std::vector<std::size_t> sizes(c.begin(), c.end());
            check(nc_def_var_chunking(ncid_, varid_, NC_CHUNKED, sizes.empty() ? nullptr : sizes.data()),
                  FB_E_INVALID_OPTION,
                  "cannot use the chunks " +
                      (c.empty() ? std::string("(netCDF's default)") : array_shape::shape_text(c)) + " for",
                  path_);
        }
        if (s.deflate > 0 || s.shuffle)
            check(nc_def_var_deflate(ncid_, varid_, s.shuffle ? 1 : 0, s.deflate > 0 ? 1 : 0, s.deflate),
                  FB_E_INVALID_OPTION, "cannot set deflate or shuffle for", path_);
    }
    st = nc_enddef(ncid_);
    if (st == NC_EVARSIZE)
        fail(st, FB_E_INVALID_OPTION, "cannot write the header of", path_,
             std::string("the variable is too large for format ") + format_name(s.format) +
                 " (64bit_data and netcdf4 hold the most)");
    check(st, FB_E_IO, "cannot write the header of", path_);
}

netcdf_writer::netcdf_writer(netcdf_writer&& o) noexcept
    : path_(std::move(o.path_)), dtype_(o.dtype_), settings_(std::move(o.settings_)),
      ncid_(std::exchange(o.ncid_, -1)), varid_(o.varid_), unlimited_(o.unlimited_), capacity_(o.capacity_),
      written_(o.written_), shape_(std::move(o.shape_)), exists_(o.exists_), created_(o.created_) {}

netcdf_writer::~netcdf_writer() {
    if (ncid_ < 0) return;
    library_call call;
    nc_close(std::exchange(ncid_, -1));
}

void netcdf_writer::write(const void* data, std::uint64_t count) {
    library_call call;
    if (ncid_ < 0) throw sdk::error(FB_E_STATE, "netcdf: write to '" + path_ + "' after close");
    if (count == 0) return;
    if (!unlimited_ && count > capacity_ - written_)
        throw sdk::error(FB_E_STATE, "netcdf: '" + path_ + "': a write of " + std::to_string(count) +
                                         " elements after " + std::to_string(written_) + " goes past the " +
                                         std::to_string(capacity_) + " the file was opened for");
    if (shape_.size() == 1) {
        std::size_t start = static_cast<std::size_t>(written_), n = static_cast<std::size_t>(count);
        check(nc_put_vara(ncid_, varid_, &start, &n, data), FB_E_IO, "cannot write to", path_);
    } else {
        // The flat range as boxes of the shape, one nc_put_vara each.
        const std::size_t size = fb_dtype_size(dtype_);
        for (const auto& b : array_shape::flat_range_boxes(shape_, written_, count)) {
            const std::vector<std::size_t> start(b.start.begin(), b.start.end()),
                n(b.count.begin(), b.count.end());
            check(nc_put_vara(ncid_, varid_, start.data(), n.data(),
                              static_cast<const unsigned char*>(data) + b.position * size),
                  FB_E_IO, "cannot write to", path_);
        }
    }
    written_ += count;
}

void netcdf_writer::close() {
    library_call call;
    if (ncid_ < 0) return;
    check(nc_close(std::exchange(ncid_, -1)), FB_E_IO, "cannot finish", path_);
    if (!unlimited_ && written_ < capacity_)
        throw sdk::error(FB_E_STATE,
                         "netcdf: '" + path_ + "' was closed after " + std::to_string(written_) + " of the " +
                             std::to_string(capacity_) +
                             " elements it was opened for; the rest of its variable is undefined");
}

} // namespace formatbench::netcdf

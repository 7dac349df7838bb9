// pnetcdf: netCDF through PnetCDF, the way HPC codes write one netCDF file
// from many ranks (IOR's -a NCMPI). The file is the serial netcdf plugin's
// in a classic format: one dimension `index` of the whole element count
// and one variable (option `variable`, default `data`) over it, in the
// dtype's own external type (u8 as byte with _Unsigned = "true" in CDF-1
// and CDF-2, which have no unsigned type; i64 only in CDF-5). Format
// classic (CDF-1), 64bit_offset (CDF-2) or 64bit_data (CDF-5, the default).
//
// ncmpi_create/ncmpi_open, ncmpi_enddef and ncmpi_close are collective on
// the communicator the host hands the plugin through formatbench.mpi/1
// (every rank's for `layout: shared_file`, MPI_COMM_SELF for
// `file_per_rank`); every rank defines the same dimension and variable and
// writes its part [offset, offset + count) of the one variable with
// ncmpi_put_vara_<type>_all (transfer: collective) or, between
// ncmpi_begin_indep_data and ncmpi_end_indep_data, ncmpi_put_vara_<type>
// (transfer: independent); the reader mirrors it with ncmpi_get_vara_*.
//
// Collective calls must match across the ranks, the host's calls need not
// (uneven slices under `scaling: strong`, the host's chunks): as the mpiio
// and hdf5_mpio plugins do (the skeleton the three share,
// plugins/common/mpi_stream.hpp), a collective stream cuts its part into
// pieces of `piece_size` bytes (whole elements) and makes one _all call
// per piece, the ranks agree at open on the largest number of pieces
// (MPI_Allreduce), and at close a rank with fewer makes the difference up
// with _all calls of count 0. A failing open on any rank fails it on all:
// the checks of each rank alone come before the first collective call and
// are agreed on (one MPI_Allreduce), the outcome of PnetCDF's collective
// calls is the same on every rank (they are collective MPI-IO calls and
// broadcasts; the definitions between them are the same on every rank),
// and a second agreement after them covers the failure of any, so no rank
// is left waiting in a collective call; a rank that did not fail reports
// every failing rank's reason.
//
// A full disk: PnetCDF 1.12 returns NC_NOERR for writes that a full disk
// cut short (Open MPI's OMPIO reports them as short counts, which PnetCDF
// built without _USE_MPI_GET_COUNT does not read; ncmpi_inq_put_size then
// counts the bytes asked). So besides each call's code and
// ncmpi_inq_put_size, the writer's close looks at the file itself: each
// rank's part must lie within the file and, when the file system has no
// byte free, hold no hole (where a short write left one). It fails the
// write phase naming the file, the bytes there and the free space.
//
// Reading checks the file before PnetCDF parses it: PnetCDF 1.12 opens a
// file cut inside its header without an error (it read as one without the
// variable here) and returns garbage for the missing data of a file cut in
// its data, without an error.
// The classic header is walked with the netcdf plugin's bounded walker
// (../netcdf/classic_header.hpp) on every rank, before the first collective
// call: damaged is FB_E_CORRUPT, a variable that ends past the end of the
// file FB_E_TRUNCATED.
//
// Hints (cb_nodes, cb_buffer_size, romio_cb_write, romio_cb_read,
// striping_factor, striping_unit) go to ncmpi_create/ncmpi_open in an
// MPI_Info, as the mpiio plugin's go to MPI_File_open, and one that
// ncmpi_inq_file_info then does not list, or lists with another value,
// fails the open with FB_E_UNSUPPORTED naming it.
//
// Without the host's communicator (the descriptor's own opens, and
// formatbench.part/1's) the stream opens on MPI_COMM_SELF when MPI is
// initialised and refuses with FB_E_UNSUPPORTED otherwise: this plugin
// never initialises MPI. PnetCDF 1.12 is not thread-safe (Debian builds it
// without --enable-thread-safe); the host runs an MPI plugin's streams in
// the rank's own thread, one at a time.
#define OMPI_SKIP_MPICXX 1 // the C API only
#include <mpi.h>
#include <pnetcdf.h>

#include "../netcdf/classic_header.hpp"
#include "common/mpi_hints.hpp"
#include "common/mpi_stream.hpp"

#include <formatbench/plugin.hpp>
#include <formatbench/plugin_mpi.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;
using formatbench::plugin_common::info_handle;
using formatbench::plugin_common::mpi_hints;
using sdk::error;

// The most bytes one PnetCDF call moves (its requests are MPI-IO calls
// with an int count; PnetCDF 1.12 refuses one request above 2 GiB).
constexpr std::uint64_t max_call_bytes = 1ull << 30;
constexpr const char* dimension_name = "index";

// ---- Formats and types ---------------------------------------------------------

enum class cdf { classic, offset64, data64 };

cdf format_of(const sdk::options& o) {
    const std::string& f = o.get_string("format");
    if (f == "classic") return cdf::classic;
    if (f == "64bit_offset") return cdf::offset64;
    return cdf::data64;
}

const char* format_label(cdf f) {
    switch (f) {
    case cdf::classic: return "classic (CDF-1)";
    case cdf::offset64: return "64bit_offset (CDF-2)";
    case cdf::data64: return "64bit_data (CDF-5)";
    }
    return "?";
}

int create_mode(cdf f) {
    switch (f) {
    case cdf::classic: return 0;
    case cdf::offset64: return NC_64BIT_OFFSET;
    case cdf::data64: return NC_64BIT_DATA;
    }
    return 0;
}

// The external type a dtype is written as, the serial netcdf plugin's:
// double, float, int, int64 (CDF-5 only), and for u8 ubyte in CDF-5 or
// byte (with _Unsigned = "true") in CDF-1 and CDF-2, which have no
// unsigned types.
nc_type variable_type(fb_dtype d, cdf f) {
    switch (d) {
    case FB_DTYPE_F64: return NC_DOUBLE;
    case FB_DTYPE_F32: return NC_FLOAT;
    case FB_DTYPE_I32: return NC_INT;
    case FB_DTYPE_I64: return NC_INT64;
    case FB_DTYPE_U8: return f == cdf::data64 ? NC_UBYTE : NC_BYTE;
    }
    return NC_NAT;
}

std::string type_name(nc_type t) {
    switch (t) {
    case NC_BYTE: return "byte (signed 8-bit)";
    case NC_CHAR: return "char";
    case NC_SHORT: return "short (16-bit)";
    case NC_INT: return "int (32-bit)";
    case NC_FLOAT: return "float (32-bit)";
    case NC_DOUBLE: return "double (64-bit)";
    case NC_UBYTE: return "ubyte (unsigned 8-bit)";
    case NC_USHORT: return "ushort (unsigned 16-bit)";
    case NC_UINT: return "uint (unsigned 32-bit)";
    case NC_INT64: return "int64";
    case NC_UINT64: return "uint64";
    default: return "type " + std::to_string(t);
    }
}

// What the options cannot hold for a dtype, at plan (formatbench.check-
// options/1) and again at open: a 64-bit integer in CDF-1 or CDF-2, a
// variable name netCDF refuses.
void check_option_set(const sdk::options& o, fb_dtype d) {
    const cdf f = format_of(o);
    if (d == FB_DTYPE_I64 && f != cdf::data64)
        throw error(FB_E_UNSUPPORTED, std::string("pnetcdf: dtype i64 needs netCDF's int64, which format ") +
                                          format_label(f) +
                                          " does not have; use format 64bit_data (CDF-5), which has it");
    const std::string& v = o.get_string("variable");
    if (v.empty() || v.find('/') != std::string::npos || v.size() > NC_MAX_NAME)
        throw error(FB_E_INVALID_OPTION, "pnetcdf: option variable '" + v +
                                             "' is not a netCDF variable name: give 1 to " +
                                             std::to_string(NC_MAX_NAME) + " bytes without '/'");
}

// ---- PnetCDF's errors ------------------------------------------------------------

// The status for a PnetCDF error code: FB_E_IO for the file system's
// errors, FB_E_NO_MEMORY, FB_E_TRUNCATED, else `otherwise`.
fb_status status_for(int code, fb_status otherwise) {
    switch (code) {
    case NC_ENOMEM: return FB_E_NO_MEMORY;
    case NC_ETRUNC: return FB_E_TRUNCATED;
    case NC_ENOENT:
    case NC_EACCESS:
    case NC_EEXIST:
    case NC_EPERM:
    case NC_EFILE:
    case NC_EREAD:
    case NC_EWRITE:
    case NC_EOFILE:
    case NC_EBAD_FILE:
    case NC_ENO_SPACE:
    case NC_EQUOTA:
    case NC_EIO: return FB_E_IO;
    default: return code > 0 ? FB_E_IO : otherwise;
    }
}

// "pnetcdf: <what> '<path>': <ncmpi_strerror>[; <hint>]".
error nc_error(int code, fb_status otherwise, const std::string& what, const std::string& path,
               const std::string& hint = "") {
    std::string message = "pnetcdf: " + what + " '" + path + "': " + ncmpi_strerror(code);
    if (code == NC_ENO_SPACE || code == NC_EQUOTA)
        message += "; " + formatbench::plugin_common::disk_space_note(path, 1);
    if (!hint.empty()) message += "; " + hint;
    return error(status_for(code, otherwise), message);
}

void check(int code, fb_status otherwise, const std::string& what, const std::string& path) {
    if (code != NC_NOERR) throw nc_error(code, otherwise, what, path);
}

// ---- The typed calls -----------------------------------------------------------

// n elements at element `at` of the variable, with ncmpi_put_vara_<type>
// or its _all form; u8 in a byte variable goes through the schar calls
// (the same bits, no conversion and no range check).
int put_vara(int ncid, int varid, nc_type type, std::uint64_t at, std::uint64_t n, const void* p, bool all) {
    const MPI_Offset start[1] = {static_cast<MPI_Offset>(at)}, count[1] = {static_cast<MPI_Offset>(n)};
    switch (type) {
    case NC_DOUBLE:
        return all ? ncmpi_put_vara_double_all(ncid, varid, start, count, static_cast<const double*>(p))
                   : ncmpi_put_vara_double(ncid, varid, start, count, static_cast<const double*>(p));
    case NC_FLOAT:
        return all ? ncmpi_put_vara_float_all(ncid, varid, start, count, static_cast<const float*>(p))
                   : ncmpi_put_vara_float(ncid, varid, start, count, static_cast<const float*>(p));
    case NC_INT:
        return all ? ncmpi_put_vara_int_all(ncid, varid, start, count, static_cast<const int*>(p))
                   : ncmpi_put_vara_int(ncid, varid, start, count, static_cast<const int*>(p));
    case NC_INT64:
        return all ? ncmpi_put_vara_longlong_all(ncid, varid, start, count, static_cast<const long long*>(p))
                   : ncmpi_put_vara_longlong(ncid, varid, start, count, static_cast<const long long*>(p));
    case NC_UBYTE:
        return all ? ncmpi_put_vara_uchar_all(ncid, varid, start, count, static_cast<const unsigned char*>(p))
                   : ncmpi_put_vara_uchar(ncid, varid, start, count, static_cast<const unsigned char*>(p));
    case NC_BYTE:
        return all ? ncmpi_put_vara_schar_all(ncid, varid, start, count, static_cast<const signed char*>(p))
                   : ncmpi_put_vara_schar(ncid, varid, start, count, static_cast<const signed char*>(p));
    default: return NC_EBADTYPE;
    }
}

int get_vara(int ncid, int varid, nc_type type, std::uint64_t at, std::uint64_t n, void* p, bool all) {
    const MPI_Offset start[1] = {static_cast<MPI_Offset>(at)}, count[1] = {static_cast<MPI_Offset>(n)};
    switch (type) {
    case NC_DOUBLE:
        return all ? ncmpi_get_vara_double_all(ncid, varid, start, count, static_cast<double*>(p))
                   : ncmpi_get_vara_double(ncid, varid, start, count, static_cast<double*>(p));
    case NC_FLOAT:
        return all ? ncmpi_get_vara_float_all(ncid, varid, start, count, static_cast<float*>(p))
                   : ncmpi_get_vara_float(ncid, varid, start, count, static_cast<float*>(p));
    case NC_INT:
        return all ? ncmpi_get_vara_int_all(ncid, varid, start, count, static_cast<int*>(p))
                   : ncmpi_get_vara_int(ncid, varid, start, count, static_cast<int*>(p));
    case NC_INT64:
        return all ? ncmpi_get_vara_longlong_all(ncid, varid, start, count, static_cast<long long*>(p))
                   : ncmpi_get_vara_longlong(ncid, varid, start, count, static_cast<long long*>(p));
    case NC_UBYTE:
        return all ? ncmpi_get_vara_uchar_all(ncid, varid, start, count, static_cast<unsigned char*>(p))
                   : ncmpi_get_vara_uchar(ncid, varid, start, count, static_cast<unsigned char*>(p));
    case NC_BYTE:
        return all ? ncmpi_get_vara_schar_all(ncid, varid, start, count, static_cast<signed char*>(p))
                   : ncmpi_get_vara_schar(ncid, varid, start, count, static_cast<signed char*>(p));
    default: return NC_EBADTYPE;
    }
}

// ---- Hints ------------------------------------------------------------------------

// Throws FB_E_UNSUPPORTED when the file's info (ncmpi_inq_file_info: what
// MPI-IO reported after its open, and PnetCDF's own hints) lacks a hint
// given or holds another value.
void check_hints(int ncid, const mpi_hints& hints, const std::string& path) {
    if (hints.empty()) return;
    info_handle got;
    check(ncmpi_inq_file_info(ncid, got.out()), FB_E_IO, "ncmpi_inq_file_info on", path);
    if (std::string why = formatbench::plugin_common::mpi_hint_problem(got.get(), hints, "pnetcdf", path,
                                                                       "ncmpi_inq_file_info after the open");
        !why.empty())
        throw error(FB_E_UNSUPPORTED, why);
}

// ---- The file before PnetCDF sees it -------------------------------------------------

// Owns a file descriptor.
struct fd_handle {
    int fd = -1;
    ~fd_handle() {
        if (fd >= 0) ::close(fd);
    }
};

// A reader's checks of the file itself, on every rank before PnetCDF opens
// it: a regular file, not empty, not netCDF-4, a classic header that the
// bounded walker can follow, and the variable's data within the file.
void check_file(const std::string& path, const std::string& variable) {
    fd_handle f;
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f.fd < 0) throw sdk::io_error("pnetcdf: cannot open", path, errno);
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) throw sdk::io_error("pnetcdf: cannot stat", path, errno);
    if (!S_ISREG(st.st_mode))
        throw error(FB_E_IO, "pnetcdf: '" + path + "' is not a regular file; this plugin reads netCDF files");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size == 0)
        throw error(FB_E_TRUNCATED, "pnetcdf: '" + path + "' is empty (0 bytes), not a netCDF file");
    unsigned char magic[4] = {};
    if (::pread(f.fd, magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
        std::memcmp(magic, "\x89HDF", 4) == 0)
        throw error(FB_E_UNSUPPORTED, "pnetcdf: '" + path +
                                          "' is a netCDF-4 (HDF5) file; PnetCDF reads the classic formats "
                                          "only (CDF-1, CDF-2, CDF-5): read it with the netcdf plugin");
    formatbench::netcdf::classic_extent e;
    try {
        e = formatbench::netcdf::classic_data_end(f.fd, size, variable);
    } catch (const formatbench::netcdf::bad_classic_header& x) {
        throw error(FB_E_CORRUPT,
                    "pnetcdf: the classic netCDF header of '" + path + "' is damaged: " + x.what());
    }
    // A missing variable is left to PnetCDF's own look-up, which lists
    // the ones there are.
    if (e.found && !e.streaming && e.end > size)
        throw error(FB_E_TRUNCATED, "pnetcdf: '" + path + "' is truncated: its variable '" + variable +
                                        "' ends at byte " + std::to_string(e.end) + ", the file has " +
                                        std::to_string(size));
}

// ---- Streams ------------------------------------------------------------------------

// What a writer and a reader share: the open file and the part, in
// elements (plugins/common/mpi_stream.hpp moves it).
class stream : protected formatbench::plugin_common::mpi_part_stream {
protected:
    stream(const sdk::open_request& r, bool writing)
        : mpi_part_stream("pnetcdf", r), dtype_(r.dtype), size_(r.element_size()),
          variable_(r.options.get_string("variable")) {
        // Each piece is whole elements, at least one.
        const std::uint64_t piece = std::max<std::uint64_t>(1, r.options.get_size("piece_size") / size_);
        const cdf format = format_of(r.options);
        type_ = variable_type(dtype_, format);
        const auto hints = formatbench::plugin_common::mpi_hints_of(r.options);
        const auto undo = [&] { this->undo(writing); };

        // 1. What each rank finds alone, agreed on before any collective call.
        formatbench::plugin_common::rank_failure failed;
        failed.run(
            [&] {
                check_option_set(r.options, dtype_);
                if (r.count == FB_COUNT_UNKNOWN)
                    throw error(FB_E_STATE, "pnetcdf: open of '" + path_ + "' without an element count");
                offset_ = r.part ? r.part->offset : 0;
                total_ = r.part ? r.part->total : r.count;
                count_ = r.count;
                byte_count(total_, size_);
                set_part(r.count, piece, size_, max_call_bytes / size_, "elements");
                if (writing) {
                    // NC_CLOBBER makes rank 0 unlink the path before the create:
                    // only a regular file may be replaced so (not a device).
                    struct stat st {};
                    if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
                        throw error(FB_E_IO,
                                    "pnetcdf: '" + path_ +
                                        "' is not a regular file; PnetCDF deletes the path it creates "
                                        "(NC_CLOBBER), so this plugin writes only regular files");
                } else {
                    check_file(path_, variable_);
                }
            },
            "pnetcdf", path_);
        agree_open(failed, undo);

        // 2. PnetCDF's collective open (same outcome on every rank) and
        // the definitions (or their checks) between, agreed on after.
        info_handle info(hints);
        failed.run(
            [&] {
                if (writing) {
                    if (int rc = ncmpi_create(comm_, path_.c_str(), create_mode(format) | NC_CLOBBER,
                                              info.get(), &ncid_);
                        rc != NC_NOERR) {
                        ncid_ = -1;
                        throw nc_error(rc, FB_E_IO, "cannot create", path_);
                    }
                    define(format);
                } else {
                    int rc = ncmpi_open(comm_, path_.c_str(), NC_NOWRITE, info.get(), &ncid_);
                    // NC_ENULLPAD (header padding not null bytes) leaves the file open.
                    if (rc != NC_NOERR && rc != NC_ENULLPAD) {
                        ncid_ = -1;
                        throw nc_error(rc, FB_E_CORRUPT, "cannot open", path_);
                    }
                    inspect();
                }
                check_hints(ncid_, hints, path_);
            },
            "pnetcdf", path_);
        agree_open(failed, undo);
        if (!collective_) {
            if (int rc = ncmpi_begin_indep_data(ncid_); rc != NC_NOERR) {
                undo();
                throw nc_error(rc, FB_E_IO, "ncmpi_begin_indep_data on", path_);
            }
            independent_ = true;
        }
    }

    // The writer's and reader's destructors close a stream whose close()
    // was not called (the adapter always calls it) without reporting.
    ~stream() = default;

    // A collective call of count 0 (a writer's or a reader's): "" or why it
    // failed.
    template <class Call>
    std::string pad(Call call) {
        const int rc = call();
        return rc == NC_NOERR ? std::string()
                              : nc_error(rc, FB_E_IO, "collective call of count 0 on", path_).what();
    }

    // ncmpi_end_indep_data and ncmpi_close: "" or the first failure; a
    // writer then checks that its part is in the file (PnetCDF reports
    // success for writes a full disk cut short).
    std::string close_file(bool writing) {
        std::string problem;
        if (independent_) {
            independent_ = false;
            if (int rc = ncmpi_end_indep_data(ncid_); rc != NC_NOERR)
                problem = nc_error(rc, FB_E_IO, "ncmpi_end_indep_data on", path_).what();
        }
        if (int rc = ncmpi_close(std::exchange(ncid_, -1)); rc != NC_NOERR && problem.empty()) {
            problem = nc_error(rc, FB_E_IO, "cannot close", path_).what();
            if (std::string note = formatbench::plugin_common::disk_full_note(path_, 1); !note.empty())
                problem += "; " + note;
        }
        if (writing && problem.empty())
            problem = formatbench::plugin_common::part_missing("pnetcdf", path_, part_begin_, count_ * size_);
        return problem;
    }

    fb_dtype dtype_;
    std::size_t size_;
    std::string variable_;
    nc_type type_ = NC_NAT;
    bool independent_ = false; // in PnetCDF's independent data mode
    int ncid_ = -1, varid_ = -1;
    std::uint64_t offset_ = 0, total_ = 0; // the part's first element, the variable's elements
    std::uint64_t count_ = 0;              // the part's elements
    std::uint64_t part_begin_ = 0;         // a writer's: the part's first byte in the file

private:
    // The writer's definitions: fill off, the dimension, the variable (u8
    // in a byte variable marked _Unsigned), the header (ncmpi_enddef,
    // collective).
    void define(cdf format) {
        int old_fill = 0;
        check(ncmpi_set_fill(ncid_, NC_NOFILL, &old_fill), FB_E_IO, "cannot turn fill values off in", path_);
        int dim = -1;
        // A length of 0 is NC_UNLIMITED: an empty variable is a record
        // variable of no records, which reads back as 0 elements.
        if (int rc = ncmpi_def_dim(ncid_, dimension_name, static_cast<MPI_Offset>(total_), &dim);
            rc != NC_NOERR)
            throw nc_error(rc, FB_E_INVALID_OPTION, "cannot define the dimension index of", path_,
                           std::string("format ") + format_label(format) + " may not hold " +
                               std::to_string(total_) + " elements (64bit_data holds the most)");
        check(ncmpi_def_var(ncid_, variable_.c_str(), type_, 1, &dim, &varid_), FB_E_INVALID_OPTION,
              "cannot define the variable '" + variable_ + "' in", path_);
        if (type_ == NC_BYTE)
            check(ncmpi_put_att_text(ncid_, varid_, "_Unsigned", 4, "true"), FB_E_IO,
                  "cannot set _Unsigned in", path_);
        if (int rc = ncmpi_enddef(ncid_); rc != NC_NOERR)
            throw nc_error(rc, rc == NC_EVARSIZE ? FB_E_INVALID_OPTION : FB_E_IO,
                           "cannot write the header of", path_,
                           rc == NC_EVARSIZE ? std::string("the variable is too large for format ") +
                                                   format_label(format) + " (64bit_data holds the most)"
                                             : std::string());
        MPI_Offset begin = 0;
        check(ncmpi_inq_varoffset(ncid_, varid_, &begin), FB_E_IO, "cannot find the variable's data in",
              path_);
        part_begin_ = static_cast<std::uint64_t>(begin) + offset_ * size_;
    }

    // The reader's checks of the variable: there, 1-D, of the dtype's
    // type, of the element count expected.
    void inspect() {
        const std::string where = "pnetcdf: variable '" + variable_ + "' of '" + path_ + "'";
        if (int rc = ncmpi_inq_varid(ncid_, variable_.c_str(), &varid_); rc != NC_NOERR) {
            if (rc != NC_ENOTVAR) throw nc_error(rc, FB_E_CORRUPT, "cannot look up the variables of", path_);
            int n = 0;
            ncmpi_inq_nvars(ncid_, &n);
            std::string names;
            for (int i = 0; i < n; ++i) {
                char name[NC_MAX_NAME + 1] = "";
                if (ncmpi_inq_varname(ncid_, i, name) == NC_NOERR)
                    names += (names.empty() ? "" : ", ") + std::string(name);
            }
            throw error(FB_E_CORRUPT, "pnetcdf: '" + path_ + "' has no variable '" + variable_ + "'" +
                                          (names.empty() ? std::string(" (it has no variables)")
                                                         : "; its variables are " + names) +
                                          ": name one with the option variable");
        }
        nc_type type = NC_NAT;
        int ndims = 0;
        check(ncmpi_inq_var(ncid_, varid_, nullptr, &type, &ndims, nullptr, nullptr), FB_E_CORRUPT,
              "cannot read the variable '" + variable_ + "' of", path_);
        if (ndims != 1)
            throw error(FB_E_UNSUPPORTED, where + " has " + std::to_string(ndims) +
                                              " dimensions; this plugin reads 1-D variables");
        bool unsigned_bytes = false;
        if (type == NC_BYTE) {
            nc_type att_type = NC_NAT;
            MPI_Offset att_length = 0;
            if (ncmpi_inq_att(ncid_, varid_, "_Unsigned", &att_type, &att_length) == NC_NOERR &&
                att_type == NC_CHAR && att_length <= 8) {
                char text[9] = "";
                if (ncmpi_get_att_text(ncid_, varid_, "_Unsigned", text) == NC_NOERR) {
                    std::string v(text, static_cast<std::size_t>(att_length));
                    std::transform(v.begin(), v.end(), v.begin(),
                                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
                    unsigned_bytes = v == "true";
                }
            }
        }
        // u8 reads ubyte, or byte marked _Unsigned, whatever the option
        // format says; the other dtypes their one type.
        const bool matches =
            dtype_ == FB_DTYPE_U8 ? type == NC_UBYTE || (type == NC_BYTE && unsigned_bytes) : type == type_;
        if (!matches)
            throw error(FB_E_CORRUPT,
                        where + " holds " + type_name(type) + ", not " + sdk::dtype_name(dtype_) +
                            (type == NC_BYTE
                                 ? " (u8 reads ubyte, or byte with the attribute _Unsigned = \"true\")"
                                 : "; read it with the dtype it holds"));
        type_ = type;
        int dim = -1;
        MPI_Offset length = 0;
        check(ncmpi_inq_vardimid(ncid_, varid_, &dim), FB_E_CORRUPT, "cannot read the dimension of", path_);
        check(ncmpi_inq_dimlen(ncid_, dim, &length), FB_E_CORRUPT, "cannot read the dimension of", path_);
        const auto have = static_cast<std::uint64_t>(length);
        if (have != total_)
            throw error(have < total_ ? FB_E_TRUNCATED : FB_E_CORRUPT,
                        where + " holds " + std::to_string(have) + " elements, " + std::to_string(total_) +
                            " were expected; set the count to " + std::to_string(have));
    }

    // Closes the file of a failed open (collective; every rank has it
    // open or none has): a new file is aborted (PnetCDF removes one still
    // in define mode).
    void undo(bool writing) {
        if (ncid_ < 0) return;
        const int ncid = std::exchange(ncid_, -1);
        if (writing)
            ncmpi_abort(ncid);
        else
            ncmpi_close(ncid);
    }
};

struct pnetcdf_format {
    static constexpr const char* formats[] = {"classic", "64bit_offset", "64bit_data", nullptr};
    static constexpr const char* transfers[] = {"independent", "collective", nullptr};
    static constexpr fb_option_decl options[] = {
        sdk::option_choice(
            "format", "64bit_data", formats,
            "file format: classic (CDF-1), 64bit_offset (CDF-2), 64bit_data (CDF-5: int64, ubyte, "
            "the largest variables)"),
        sdk::option_choice(
            "transfer", "collective", transfers,
            "ncmpi_put_vara_<type>_all/get_vara_<type>_all (collective) or, in independent data "
            "mode, ncmpi_put_vara_<type>/get_vara_<type> (independent)"),
        sdk::option_size(
            "piece_size", "16MiB", 1, double(max_call_bytes),
            "collective: bytes per _all call (whole elements, at least one); every rank makes as "
            "many (count 0 past its part)"),
        sdk::option_string("variable", "data", "the variable's name (its dimension is 'index')"),
        FB_MPI_HINT_OPTIONS(max_call_bytes),
    };

    static constexpr bool parts = true;
    static constexpr const char* mpi_implementation = FB_MPI_IMPLEMENTATION;

    static sdk::plugin_info info() {
        return {
            "pnetcdf",
            "1.0.0",
            "netCDF classic files (CDF-1, CDF-2, CDF-5) through PnetCDF: ncmpi_put_vara_<type>(_all) on the "
            "ranks' communicator",
            "MIT",
            "nc",
            FB_DTYPES_ALL,
            FB_CAP_LOSSLESS | FB_CAP_NEEDS_COUNT | FB_CAP_SELF_DESCRIBING};
    }

    // formatbench.check-options/1: i64 outside CDF-5, a bad variable name,
    // at plan.
    static void check(const sdk::options& o, fb_dtype d) { check_option_set(o, d); }

    class writer : public stream {
    public:
        explicit writer(const sdk::open_request& r) : stream(r, true) {}
        ~writer() {
            try {
                close();
            } catch (...) {
            }
        }

        void write(const void* data, std::uint64_t count) {
            write_units(data, count, [&](std::uint64_t first, const void* p, std::uint64_t n, bool all) {
                put(first, p, n, all);
            });
        }

        void close() {
            alignas(8) static const unsigned char none[8] = {};
            finish(
                true,
                [&](std::uint64_t first, const void* p, std::uint64_t n, bool all) { put(first, p, n, all); },
                [&] { return pad([&] { return put_vara(ncid_, varid_, type_, 0, 0, none, true); }); },
                [&] { return close_file(true); });
        }

    private:
        // n elements from element `first` of the part as one
        // ncmpi_put_vara_<type>(_all). A call that fails, or whose MPI-IO
        // writes moved fewer bytes than asked (PnetCDF's count of bytes
        // written, ncmpi_inq_put_size, as a full disk leaves it without an
        // error), fails the write.
        void put(std::uint64_t first, const void* p, std::uint64_t n, bool all) {
            const char* call = all ? "ncmpi_put_vara_all" : "ncmpi_put_vara";
            MPI_Offset before = 0, after = 0;
            const int counted = ncmpi_inq_put_size(ncid_, &before);
            if (int rc = put_vara(ncid_, varid_, type_, offset_ + first, n, p, all); rc != NC_NOERR) {
                error e = nc_error(rc, FB_E_IO, std::string(call) + " to", path_);
                std::string note = formatbench::plugin_common::disk_full_note(path_, n * size_);
                if (note.empty() || rc == NC_ENO_SPACE || rc == NC_EQUOTA) throw e;
                throw error(e.status(), std::string(e.what()) + "; " + note);
            }
            if (counted != NC_NOERR || ncmpi_inq_put_size(ncid_, &after) != NC_NOERR) return;
            const auto done = static_cast<std::uint64_t>(after - before);
            if (done < n * size_) {
                throw formatbench::plugin_common::short_write("pnetcdf", call, path_,
                                                              part_begin_ + first * size_, done, n * size_);
            }
        }
    };

    class reader : public stream {
    public:
        explicit reader(const sdk::open_request& r) : stream(r, false) {}
        ~reader() {
            try {
                close();
            } catch (...) {
            }
        }

        void read(void* data, std::uint64_t count) {
            read_units(data, count, [&](std::uint64_t first, void* p, std::uint64_t n, bool all) {
                get(p, first, n, all);
            });
        }

        void close() {
            alignas(8) unsigned char none[8] = {};
            finish(
                false, [](std::uint64_t, const void*, std::uint64_t, bool) {},
                [&] { return pad([&] { return get_vara(ncid_, varid_, type_, 0, 0, none, true); }); },
                [&] { return close_file(false); });
        }

    private:
        // n elements from element `first` of the part, independent or
        // collective.
        void get(void* p, std::uint64_t first, std::uint64_t n, bool collective) {
            if (int rc = get_vara(ncid_, varid_, type_, offset_ + first, n, p, collective); rc != NC_NOERR)
                throw nc_error(rc, rc == NC_EEDGE ? FB_E_TRUNCATED : FB_E_IO,
                               collective ? "ncmpi_get_vara_all from" : "ncmpi_get_vara from", path_);
        }
    };
};

} // namespace

FORMATBENCH_PLUGIN(pnetcdf_format)

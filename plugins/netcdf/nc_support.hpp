// What the netcdf plugin's writer and reader share about the netCDF C
// library: serialising calls (netCDF-C is not thread-safe), keeping HDF5
// (under netCDF-4) from printing, netCDF status codes to the plugin's status
// and message, and the netCDF type of each dtype.
#pragma once

#include <formatbench/plugin.hpp>

#include <hdf5.h>
#include <netcdf.h>

#include <mutex>
#include <string>

namespace formatbench::netcdf {

namespace sdk = formatbench::sdk;

// Every call into the plugin holds one of these for its duration: a
// plugin-wide lock, because netCDF-C keeps unprotected global state (its
// list of open files) and so may be used by one thread at a time; and HDF5's
// automatic error printing turned off for the calling thread. netCDF-4
// relies on that (it probes attributes that may be missing, which HDF5
// reports as errors) but turns it off only in the thread that first
// initialises it; like netCDF, the plugin leaves it off.
class library_call {
public:
    library_call();
    library_call(const library_call&) = delete;
    library_call& operator=(const library_call&) = delete;

private:
    std::unique_lock<std::mutex> lock_;
};

// The status for a netCDF error code: FB_E_IO for an operating-system
// error (netCDF returns errno values as positive codes), FB_E_NO_MEMORY,
// FB_E_TRUNCATED, FB_E_UNSUPPORTED for a missing filter, else `otherwise`.
fb_status status_for(int nc_status, fb_status otherwise);

// Throws sdk::error "netcdf: <what> '<path>': <nc_strerror>[; <hint>]" with
// status_for(nc_status, otherwise).
[[noreturn]] void fail(int nc_status, fb_status otherwise, const std::string& what, const std::string& path,
                       const std::string& hint = "");

// Calls fail() unless nc_status is NC_NOERR.
inline void check(int nc_status, fb_status otherwise, const std::string& what, const std::string& path) {
    if (nc_status != NC_NOERR) fail(nc_status, otherwise, what, path);
}

// The variable type a dtype is written as: NC_DOUBLE, NC_FLOAT, NC_INT, and
// for u8 NC_UBYTE, or NC_BYTE (with _Unsigned = "true") in the classic data
// model, which has no unsigned types.
nc_type variable_type(fb_dtype d, bool classic_model);
// "double", "unsigned byte", ... for messages.
std::string type_name(nc_type t);

} // namespace formatbench::netcdf

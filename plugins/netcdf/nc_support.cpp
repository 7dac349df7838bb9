// netCDF library plumbing of the netcdf plugin (see nc_support.hpp).
#include "nc_support.hpp"

namespace formatbench::netcdf {
namespace {

std::mutex library_mutex;

} // namespace

library_call::library_call() : lock_(library_mutex) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

fb_status status_for(int nc_status, fb_status otherwise) {
    if (nc_status > 0) return FB_E_IO;
    switch (nc_status) {
    case NC_ENOMEM: return FB_E_NO_MEMORY;
    case NC_ETRUNC: return FB_E_TRUNCATED;
    case NC_ENOFILTER: return FB_E_UNSUPPORTED;
    default: return otherwise;
    }
}

void fail(int nc_status, fb_status otherwise, const std::string& what, const std::string& path,
          const std::string& hint) {
    std::string message = "netcdf: " + what + " '" + path + "': " + nc_strerror(nc_status);
    if (nc_status == ENOSPC || nc_status == EDQUOT)
        message += " (free space there or choose another directory)";
    if (!hint.empty()) message += "; " + hint;
    throw sdk::error(status_for(nc_status, otherwise), message);
}

nc_type variable_type(fb_dtype d, bool classic_model) {
    switch (d) {
    case FB_DTYPE_F64: return NC_DOUBLE;
    case FB_DTYPE_F32: return NC_FLOAT;
    case FB_DTYPE_I32: return NC_INT;
    case FB_DTYPE_I64: return NC_INT64;
    case FB_DTYPE_U8: return classic_model ? NC_BYTE : NC_UBYTE;
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
    case NC_STRING: return "string";
    default: return "a user-defined type";
    }
}

} // namespace formatbench::netcdf

// Where a variable's data ends in a classic netCDF file (CDF-1, CDF-2 and
// CDF-5: formats classic, 64bit_offset and 64bit_data), from the file's own
// header. netCDF 4.9 reads the part of a truncated classic file that is
// missing as zeros, without an error; the reader compares the end found
// here with the file's size to report truncation instead.
//
// The header (NetCDF Classic Format Specification, all big-endian): "CDF"
// and a version byte (1, 2 or 5), the record count, the dimension list, the
// global attributes, then each variable's name, dimension ids, attributes,
// type, size (vsize) and the offset of its data (begin). Counts and sizes
// are 4 bytes (8 in CDF-5), offsets 4 bytes in CDF-1 and 8 in the others.
// The walker reads through a bounded window and checks every length against
// the file's size, so a damaged header cannot make it read or allocate
// without bound.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace formatbench::netcdf {

// A header the walker cannot follow (what is wrong).
class bad_classic_header : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct classic_extent {
    bool found = false;     // the variable is in the header
    bool streaming = false; // the record count is "streaming" (unknown): no end to check
    std::uint64_t end = 0;  // the byte after the variable's last element
};

// Walks the header of the classic file open at fd (file_size bytes) to the
// variable `name` and returns where its data ends. For a record variable
// that is its last record: begin + (records - 1) * record size + one
// record's elements (netCDF's record size: the sum of the record variables'
// vsize, or a single record variable's unpadded size).
classic_extent classic_data_end(int fd, std::uint64_t file_size, const std::string& name);

} // namespace formatbench::netcdf

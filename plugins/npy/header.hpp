// The .npy header (numpy/lib/format.py, format versions 1.0, 2.0 and 3.0):
// writing it byte for byte as numpy 1.24 writes a C-order array (1-D, or of
// the data set's shape), and parsing the
// one Python literal a header holds without eval. Pure functions on memory,
// no I/O, so tests and the fuzz target call them directly.
//
// Layout: "\x93NUMPY", major, minor (0), the header length (uint16
// little-endian for 1.0, uint32 for 2.0 and 3.0), then the header: a dict
// literal such as {'descr': '<f8', 'fortran_order': False, 'shape': (10,), }
// padded with spaces and ended by '\n' so that the data starts at a multiple
// of 64 bytes. Version 3.0 differs from 2.0 only in allowing UTF-8 text.
#pragma once

#include <formatbench/plugin.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench::npy {

inline constexpr char magic[] = "\x93NUMPY";
inline constexpr std::size_t magic_size = 6;
// Magic, version bytes and the longer (4-byte) header length.
inline constexpr std::size_t max_prefix_size = 12;
// numpy pads so that the data starts at a multiple of this.
inline constexpr std::size_t data_alignment = 64;
// numpy leaves room for this many digits in the growing axis (its
// GROWTH_AXIS_MAX_DIGITS), so that the shape can be rewritten in place.
inline constexpr std::size_t growth_digits = 21;
// The longest header this reader accepts: a bound on what a damaged length
// field can make it allocate. numpy itself refuses more than 10000 bytes
// unless told otherwise (numpy.load's max_header_size).
inline constexpr std::uint64_t max_header_size = 1u << 20;

// A header this reader refuses: what is wrong, without the path, and the
// status that says why (FB_E_CORRUPT: malformed; FB_E_TRUNCATED: the bytes
// end early; FB_E_UNSUPPORTED: valid .npy that this plugin does not read).
class bad_header : public std::runtime_error {
public:
    explicit bad_header(const std::string& what, fb_status status = FB_E_CORRUPT);
    fb_status status() const noexcept { return status_; }

private:
    fb_status status_;
};

// What a header says.
struct header_fields {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::uint64_t> shape;
};

// The descr of dtype d in the given byte order: '<f8', '>i4', '|u1' (one
// byte: no order).
std::string descr_of(fb_dtype d, bool big_endian);

// Bytes from the magic to the header's final '\n' for a 1-D array of count
// elements, exactly as numpy.lib.format.write_array writes it with the given
// major version (1, 2 or 3). Its length does not depend on count, so a
// header for count 0 can be replaced by the true one in place.
std::string make_header(int major, std::string_view descr, std::uint64_t count);

// The same for a C-order array of `shape` (numpy's shape tuple: (4, 5, 6);
// () for a 0-d array). numpy's room for growth is on the first axis, so the
// length does not depend on the first extent either.
std::string make_header(int major, std::string_view descr, const std::vector<std::uint64_t>& shape);

// Python's repr of the shape tuple, as the header holds it: "(4, 5, 6)",
// "(10,)", "()".
std::string shape_text(const std::vector<std::uint64_t>& shape);

// The version numpy picks when none is asked for (1.0 when the header length
// fits in 16 bits, else 2.0); for the headers make_header writes (at most 32
// axes), always 1.
int auto_version(std::string_view descr, const std::vector<std::uint64_t>& shape);

// The fixed part before the header text.
struct preamble {
    int major = 0;
    std::size_t size = 0; // 10 (version 1.0) or 12 bytes
    std::uint64_t header_length = 0;
};

// Reads the preamble from the first bytes of a file (n of them, n may be
// less than 12). Throws bad_header naming what is wrong.
preamble parse_preamble(const unsigned char* bytes, std::size_t n);

// Parses the header text (after the preamble), which must end with '\n'
// as the format specifies. Accepts exactly the dict
// numpy's reader accepts for a simple dtype: the keys descr, fortran_order
// and shape once each, in any order; a quoted string, True/False and a tuple
// of non-negative integers (Python syntax: "(5,)" is a tuple, "(5)" is not);
// an optional trailing comma; spaces, tabs and newlines between tokens.
// Anything else throws bad_header.
header_fields parse_header(std::string_view text);

// Whether descr is d's type ('f8' for f64, ...) in some byte order: sets
// big_endian from '<' (false), '>' (true), or '=', '|' and none (this
// machine's order). False for another type.
bool descr_matches(std::string_view descr, fb_dtype d, bool& big_endian);

// The product of the shape, or throws bad_header when it overflows 64 bits.
std::uint64_t element_count(const std::vector<std::uint64_t>& shape);

} // namespace formatbench::npy

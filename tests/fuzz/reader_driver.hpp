// Shared driver of the plugin reader fuzz targets: decodes a fuzz input into
// a dtype, counts, read splits and plugin options (from its first bytes) and
// a file (the rest), writes the file to one temporary path per process and
// runs the plugin's open_read / read... / close_read on it. Each target links
// one plugin's sources and supplies the hooks below.
//
// Input layout (bytes beyond the end read as 0):
//   [0]    dtype: f64, f32, i64, i32, u8 (value % 5)
//   [1]    bits 0-1 count mode: 0 = the file's size / dtype size (open and
//          read), 1 = open with FB_COUNT_UNKNOWN and read that many,
//          2 = the u16 in [2..3], 3 = open with the u16, read one more
//          bits 2-3 the reads are split into 1..4 calls
//          bit 4    a read of 0 elements first
//          bit 5    plugin-specific (mmap: zero-copy view)
//   [2..3] u16 count, little-endian
//   [4]    option selector, decoded by the target's hook
//   [5..]  the file's bytes (the hook may transform them)
// Counts are capped at max_elements so buffers stay small. FB_FUZZ_VERBOSE=1
// prints each call's status and message (to replay an input).
#pragma once

#include <formatbench/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {

inline constexpr std::uint64_t max_elements = std::uint64_t{1} << 16;
inline constexpr std::size_t header_bytes = 5;

struct reader_case {
    fb_dtype dtype = FB_DTYPE_F64;
    std::uint8_t mode = 0;     // byte [1]
    std::uint16_t count16 = 0; // bytes [2..3]
    std::uint8_t selector = 0; // byte [4]
    std::string file;          // written to the temporary path
    std::uint64_t open_count = 0;
    std::uint64_t read_count = 0;
    std::vector<std::pair<std::string, std::string>> options;
};

struct hooks {
    const char* name; // for the temporary file name
    // Options for this selector and dtype; every value must be valid.
    void (*options)(reader_case& c);
    // May rewrite c.file (e.g. repeat it); optional.
    void (*shape_file)(reader_case& c);
    // Called with the concatenated output when every read succeeded; aborts
    // on a wrong value. Optional.
    void (*check)(const reader_case& c, const std::vector<unsigned char>& out);
    // Called after open_read succeeded, before the reads (e.g. extensions).
    void (*after_open)(const fb_plugin_descriptor* d, fb_stream* s, const reader_case& c);
};

std::size_t dtype_bytes(fb_dtype d);

// Runs one input through the plugin described by `d`.
int run_reader(const hooks& h, const fb_plugin_descriptor* d, const std::uint8_t* data, std::size_t size);

} // namespace fuzz

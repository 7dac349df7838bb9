// Shared driver of the plugin writer fuzz targets: decodes a fuzz input into
// a dtype, plugin options, how the writes and reads are split, and the data
// (the rest of the input, as the array's bytes), then writes the data with
// the plugin to a temporary path, reads it back and compares. A writer must
// take any data: every failing call, a status outside the ABI, FB_E_INTERNAL
// or data that come back different (for a lossless option set) aborts.
//
// Input layout (bytes beyond the end read as 0):
//   [0]   dtype: f64, f32, i64, i32, u8 (value % 5)
//   [1]   option selector, decoded by the target's hook
//   [2]   bits 0-2: the writes are split into 1..8 calls; bits 3-5: the
//         reads into 1..8 calls; bit 6: open_write with FB_COUNT_UNKNOWN
//         (plugins that do not need the count)
//   [3..] the data; whole elements only, at most max_elements
#pragma once

#include <formatbench/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {

struct writer_case {
    fb_dtype dtype = FB_DTYPE_F64;
    std::uint8_t selector = 0;
    std::vector<std::pair<std::string, std::string>> options;
};

struct writer_hooks {
    const char* name; // for the temporary file name
    // Options for this selector and dtype; every value must be valid.
    void (*options)(writer_case& c);
    // Whether the data read back equals what was written; null: bytewise.
    bool (*same)(const writer_case& c, const std::vector<unsigned char>& written,
                 const std::vector<unsigned char>& read);
};

// Runs one input through the plugin described by `d`.
int run_writer(const writer_hooks& h, const fb_plugin_descriptor* d, const std::uint8_t* data,
               std::size_t size);

} // namespace fuzz

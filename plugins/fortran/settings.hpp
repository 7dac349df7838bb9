// The fortran plugin's options as typed settings, and which option sets read
// back bit-exact (a formatted file is lossless only when its format writes
// enough digits, see lossless_format).
#pragma once

#include <formatbench/plugin.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace formatbench::detail {

struct fortran_settings {
    bool formatted = false;
    bool stream = true;
    std::string format = "(g0)";   // of writes: a format, or "*" (list-directed)
    std::string read_format = "*"; // of reads
    // Values per write/read statement; 0: one statement per call.
    std::uint64_t per_statement = 0;

    // From validated options; throws sdk::error(FB_E_INVALID_OPTION) for an
    // empty format.
    static fortran_settings from(const sdk::options& options);
    // The statement mode (FBF_MODE_* of fortran_io.h) of writes and reads.
    int write_mode() const noexcept;
    int read_mode() const noexcept;
};

// Whether these options read back bit-exact for every dtype that opens with
// them (a format for reals fails at open for integers, and the reverse).
bool is_lossless(const sdk::options& options);

// Whether a format writes every f64 and f32 value (and, for the integer
// edit descriptors, every i64) with the digits that read back bit-exact,
// through a list-directed read (list_directed_read) or the same format.
// Recognised: "*", (g0), (i0), (iW) with W >= 20, and one ES/E/D/G
// descriptor with enough digits and width, with an optional repeat count
// before it (then, for a list-directed read, a field wide enough that a
// blank always separates two values). Anything else, (f0.16) among them, is
// reported lossy: F loses small values.
bool lossless_format(std::string_view format, bool list_directed_read);

} // namespace formatbench::detail

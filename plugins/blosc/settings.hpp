// The blosc plugin's options, parsed once per stream into plain values, and
// the words of its file messages. The declarations (names, defaults, ranges,
// help) live in blosc.cpp; this file adds the checks a declaration cannot
// state: the codec compiled into the installed libblosc, and threads within
// the CPUs this process may run on now (the declared maximum is the count
// when the plugin was loaded; a process may since run on fewer, as an MPI
// rank bound to its cores does).
#pragma once

#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <cstddef>
#include <string>

namespace formatbench::detail {

// "blosc: cannot write '/tmp/a.blosc': No space left on device".
inline constexpr sdk::file_wording blosc_wording{.prefix = "blosc: "};

// The largest chunk the writer makes and the reader accepts: the chunk_size
// option's maximum, which also bounds the reader's memory (README.md).
inline constexpr std::size_t max_chunk_bytes = std::size_t{1} << 30;

struct blosc_settings {
    std::string codec = "blosclz"; // Blosc's compressor name (blosc_compname_to_compcode)
    int level = 5;                 // clevel, 0 (stored) .. 9
    int shuffle = 1;               // BLOSC_NOSHUFFLE, BLOSC_SHUFFLE or BLOSC_BITSHUFFLE
    std::size_t block_size = 0;    // Blosc's blocksize; 0: Blosc chooses; 1..127 raised to 128
    int threads = 1;               // numinternalthreads of every *_ctx call
    std::size_t chunk_bytes = 0;   // chunk_size rounded down to whole elements (at least one)
    std::size_t element_size = 0;  // also Blosc's typesize
};

// Throws sdk::error(FB_E_INVALID_OPTION) naming the option, the value and
// what is allowed, or FB_E_UNSUPPORTED for a codec this libblosc lacks.
blosc_settings parse_settings(const sdk::open_request& request);

// CPUs in this process's affinity set (sched_getaffinity), at least 1.
int usable_cpus() noexcept;

} // namespace formatbench::detail

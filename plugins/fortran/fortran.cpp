// fortran: the gfortran runtime's own I/O as a plugin, so the seed
// experiment ("use unformatted stream I/O for large data") runs inside the
// framework: write (u, "(f0.16)") x / read (u, *) x against unformatted
// stream access, with the runtime's open, write, read and close statements
// (fortran_io.f90). This file declares the options and ties the writer and
// reader to the C ABI through FORMATBENCH_PLUGIN.
#include "reader.hpp"
#include "settings.hpp"
#include "writer.hpp"

#include <formatbench/plugin.hpp>

namespace {

namespace sdk = formatbench::sdk;

constexpr const char* forms[] = {"unformatted", "formatted", nullptr};
constexpr const char* accesses[] = {"stream", "sequential", nullptr};

struct fortran_format {
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("form", "unformatted", forms,
                           "unformatted: the values' bytes; formatted: text through the format option "
                           "(Fortran's form= of OPEN)"),
        sdk::option_choice("access", "stream", accesses,
                           "stream: no records; sequential: records (unformatted: a 4-byte length marker "
                           "before and after each; formatted: lines) (Fortran's access= of OPEN)"),
        sdk::option_string("format", "(g0)",
                           "format of formatted writes: a Fortran format such as (f0.16), (es24.16e3), (g0), "
                           "or * for list-directed"),
        sdk::option_string("read_format", "*",
                           "format of formatted reads: * for list-directed (read (u, *) x), or a Fortran "
                           "format such as (es24.16e3)"),
        sdk::option_int("values_per_statement", "0", 0, 1073741824.0,
                        "values per write and read statement: 0 = one statement per chunk of the host; N = "
                        "statements of N values whatever the chunks (list-directed and unformatted "
                        "sequential write one record per statement)"),
    };

    static sdk::plugin_info info() {
        return {
            "fortran",
            "1.0.0",
            "the gfortran runtime's open/write/read/close: unformatted or formatted, stream or sequential",
            "MIT",
            "dat",
            FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) | FB_DTYPE_BIT(FB_DTYPE_I64) |
                FB_DTYPE_BIT(FB_DTYPE_I32),
            FB_CAP_LOSSLESS | FB_CAP_LOSSY};
    }

    static bool is_lossless(const sdk::options& o) { return formatbench::detail::is_lossless(o); }

    using writer = formatbench::detail::fortran_writer;
    using reader = formatbench::detail::fortran_reader;
};

} // namespace

FORMATBENCH_PLUGIN(fortran_format)

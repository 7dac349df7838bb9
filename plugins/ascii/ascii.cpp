// ascii: numbers as text, the format of the reference Fortran program
// (write (u, "(f0.16)") x / read (u, *) x). Declares the options and ties the
// writer and reader to the C ABI through FORMATBENCH_PLUGIN.
//
// Reproducing the reference file byte for byte: notation=fixed, precision=16,
// leading_zero=false gives exactly what gfortran's (f0.16) writes for values
// in [0, 1) (".1234567890123456", ".0000000000000000" for zero; checked
// against gfortran 12), and with nonfinite=fortran for every value,
// negative, large, tiny, infinite or NaN (tests/plugin_ascii runs gfortran).
// leading_zero defaults to true all the same: "0.5" is what C, Python and
// spreadsheets write and read, and the reader takes both.
#include "reader.hpp"
#include "settings.hpp"
#include "writer.hpp"

#include <formatbench/plugin.hpp>

namespace {

namespace sdk = formatbench::sdk;

constexpr const char* notations[] = {"shortest", "fixed", "scientific", "general", nullptr};
constexpr const char* nonfinite_styles[] = {"c", "fortran", nullptr};

struct ascii_format {
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("notation", "shortest", notations,
                           "shortest: fewest digits that read back bit-exact; fixed: precision digits after "
                           "the point (Fortran F); scientific: d.ddde+xx (Fortran ES); general: precision "
                           "significant digits (printf %g)"),
        sdk::option_int("precision", "16", 0, 40,
                        "digits for fixed and scientific (after the point) and general (significant); "
                        "ignored by shortest. Bit-exact floats need scientific >= 16 or general >= 17 "
                        "(f64), scientific >= 8 or general >= 9 (f32); integers are always exact"),
        sdk::option_int("values_per_line", "1", 1, 1000000000, "values on each line"),
        sdk::option_string("separator", " ",
                           "between values on one line: spaces, tabs and commas only, so it reads back"),
        sdk::option_bool("leading_zero", "true",
                         "write 0.5 (true) or Fortran's .5 (false) for |x| < 1; with notation=fixed and "
                         "precision=16, false reproduces gfortran's (f0.16)"),
        sdk::option_choice(
            "nonfinite", "c", nonfinite_styles,
            "infinities and NaN as C writes them (inf, -inf, nan, -nan) or as gfortran's F0 and "
            "G0 do (Inf, -Inf, NaN); the reader takes both"),
        sdk::option_int("width", "0", 0, 1000,
                        "each value right-aligned in this many characters, spaces in front (Fortran's w "
                        "in ESw.d); 0 = as many as it needs. Must fit the longest value of the dtype; "
                        "shared files (MPI layout: shared_file) need it"),
    };

    static constexpr bool parts = true;

    static sdk::plugin_info info() {
        return {"ascii",
                "1.0.0",
                "numbers as text, one value (or values_per_line values) per line, like Fortran formatted I/O",
                "MIT",
                "txt",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_LOSSY};
    }

    static bool is_lossless(const sdk::options& o) { return formatbench::detail::is_lossless(o); }
    static bool is_lossless(const sdk::options& o, fb_dtype d) {
        return formatbench::detail::is_lossless(o, d);
    }

    using writer = formatbench::detail::text_writer;
    using reader = formatbench::detail::text_reader;
};

} // namespace

FORMATBENCH_PLUGIN(ascii_format)

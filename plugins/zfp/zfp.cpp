// zfp: the array as one zfp stream (libzfp, https://zfp.io) with its full
// header written by zfp_write_header, which zfpy.decompress_numpy reads
// back as the array. Modes reversible (lossless, the default), rate,
// precision and accuracy; a data set's shape of 2 to 4 axes is a zfp field
// of that rank, anything else 1-D (zfp_codec.hpp).
// See zfp_writer.hpp, zfp_reader.hpp and README.md.
#include "settings.hpp"
#include "zfp_reader.hpp"
#include "zfp_writer.hpp"

#include <formatbench/plugin.hpp>

namespace formatbench::detail {

namespace sdk = formatbench::sdk;

struct zfp_format {
    static constexpr const char* modes[] = {"reversible", "rate", "precision", "accuracy", nullptr};

    // rate, precision and accuracy are each read by their own mode only and
    // ignored by the others, so a study can sweep mode with all three set.
    static constexpr fb_option_decl options[] = {
        sdk::option_choice("mode", "reversible", modes,
                           "reversible: lossless (bit-exact); rate: fixed bits per value (option rate); "
                           "precision: fixed bit planes (option precision); accuracy: absolute error at most "
                           "the tolerance (option accuracy; i32 and i64 are written reversibly)"),
        sdk::option_float(
            "rate", "16", 1, 64,
            "mode=rate only: compressed bits per value, at most 32 for f32 and i32; zfp rounds it "
            "to whole bits per block of 4 values and raises it to 2.25 (f32) or 3 (f64)"),
        sdk::option_int("precision", "32", 1, 64,
                        "mode=precision only: bit planes kept, at most 32 for f32 and i32 (integers count "
                        "from the dtype's top bit)"),
        sdk::option_float("accuracy", "0.001", 1e-300, 1e300,
                          "mode=accuracy only: absolute error tolerance; every finite value reads back "
                          "within it"),
    };

    static sdk::plugin_info info() {
        return {"zfp",
                "1.0.0",
                "one zfp stream with its header (zfpy reads it): reversible, rate, precision or accuracy",
                "MIT",
                "zfp",
                FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) | FB_DTYPE_BIT(FB_DTYPE_I64) |
                    FB_DTYPE_BIT(FB_DTYPE_I32),
                FB_CAP_LOSSLESS | FB_CAP_LOSSY};
    }

    static bool is_lossless(const sdk::options& o) { return formatbench::detail::is_lossless(o); }
    static bool is_lossless(const sdk::options& o, fb_dtype) { return formatbench::detail::is_lossless(o); }

    using writer = zfp_writer;
    using reader = zfp_reader;
};

} // namespace formatbench::detail

FORMATBENCH_PLUGIN(formatbench::detail::zfp_format)

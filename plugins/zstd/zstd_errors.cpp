// libzstd errors of the write side to statuses; see zstd_errors.hpp.
#include "zstd_errors.hpp"

#include <zstd.h>
#include <zstd_errors.h>

namespace formatbench::detail {

void check_compress(std::size_t code, const char* what, const std::string& path) {
    if (!ZSTD_isError(code)) return;
    std::string message =
        std::string("zstd: ") + what + " for '" + path + "' failed: " + ZSTD_getErrorName(code);
    switch (ZSTD_getErrorCode(code)) {
    case ZSTD_error_memory_allocation: throw sdk::error(FB_E_NO_MEMORY, message);
    case ZSTD_error_parameter_unsupported:
        throw sdk::error(FB_E_UNSUPPORTED, message + " (this libzstd lacks the feature; threads needs a "
                                                     "libzstd built with multithreading)");
    default: throw sdk::error(FB_E_INTERNAL, message);
    }
}

} // namespace formatbench::detail

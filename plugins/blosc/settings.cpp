// Option strings to Blosc parameters; see settings.hpp.
#include "settings.hpp"

#include <blosc.h>

#include <sched.h>

#include <string>

namespace formatbench::detail {

int usable_cpus() noexcept {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    const int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}

blosc_settings parse_settings(const sdk::open_request& request) {
    const sdk::options& o = request.options;
    blosc_settings s;
    s.codec = o.get_string("codec");
    if (blosc_compname_to_compcode(s.codec.c_str()) < 0)
        throw sdk::error(FB_E_UNSUPPORTED, "blosc: option 'codec': '" + s.codec +
                                               "' is not compiled into this libblosc (it has " +
                                               blosc_list_compressors() +
                                               "); choose one of those (opening '" + request.path + "')");
    s.level = static_cast<int>(o.get_int("level"));
    const std::string& shuffle = o.get_string("shuffle");
    s.shuffle = shuffle == "none" ? BLOSC_NOSHUFFLE : shuffle == "bit" ? BLOSC_BITSHUFFLE : BLOSC_SHUFFLE;
    s.block_size = static_cast<std::size_t>(o.get_size("block_size"));
    // Blosc raises a forced block below its smallest (128 bytes) to 128;
    // done here too, so the metric-free settings say what Blosc uses.
    if (s.block_size != 0 && s.block_size < 128) s.block_size = 128;
    const int cpus = usable_cpus();
    const auto threads = o.get_int("threads");
    if (threads > cpus)
        throw sdk::error(
            FB_E_INVALID_OPTION,
            "blosc: option 'threads': " + std::to_string(threads) + " is more than the " +
                std::to_string(cpus) +
                " CPUs this process may run on (its affinity set); use threads <= " + std::to_string(cpus) +
                ", 0 for all of them, or widen the CPU set (taskset) (opening '" + request.path + "')");
    s.threads = threads == 0 ? cpus : static_cast<int>(threads);
    s.element_size = request.element_size();
    std::size_t chunk = static_cast<std::size_t>(o.get_size("chunk_size"));
    chunk -= chunk % s.element_size;
    s.chunk_bytes = chunk ? chunk : s.element_size;
    return s;
}

} // namespace formatbench::detail

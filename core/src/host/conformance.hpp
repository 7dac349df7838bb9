// Plugin conformance checks: what every plugin must do, derived from its
// descriptor alone (dtypes, capability flags, option declarations), so any
// plugin file can be checked without knowing its format. One implementation
// for `formatbench check-plugin PATH` and the GoogleTest suite in
// tests/conformance.
//
//  - load: the registry accepts the file (check_plugin_file only).
//  - descriptor: declared defaults and choices pass the plugin's own checks;
//    every option has help; a lossless plugin is lossless with defaults.
//  - round_trip/...: every declared dtype; counts 0, 1, 7, ~10^4 and a large
//    one; chunks of 1, 3 (odd), 4097 and the whole array, also reading in
//    other chunks than were written; an unknown count hint where allowed;
//    one variant per valid non-default value of each option. Only the given
//    path may appear. Lossless option sets read back bit-exact (any NaN
//    equals any NaN, see compare_exact); lossy ones only need the count.
//    The zero-copy view, when offered, shows the same values.
//  - read_error/...: missing, truncated, empty, random-bytes and corrupted
//    files give an error status (not FB_E_INTERNAL or FB_E_STATE) whose
//    message names the path. A corrupted file (bytes overwritten) may also
//    read back without error: only a crash, hang or bug status fails it.
//  - bad_option/...: an unknown name, malformed or out-of-range values are
//    refused by the host's check_options AND by the plugin's own open_write
//    and open_read with FB_E_INVALID_OPTION, before any file is touched.
//  - write_error/...: writing below a regular file, into a missing folder,
//    into a 0555 folder (when permissions apply) and to a full device fails
//    with a message naming the path, and the device node survives.
//
// Every check runs in a forked child with a time limit, so a plugin that
// crashes or hangs fails that check and the checker goes on.
#pragma once

#include "host/conformance_support.hpp"
#include "host/plugin_handle.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace formatbench::conformance {

// How much to try. quick: counts up to 10^4 and fewer chunkings (for a fast
// CI step); standard: `check-plugin`'s default, up to 10^5; exhaustive: the
// build's own suite, up to 10^6.
enum class depth { quick, standard, exhaustive };

struct settings {
    depth level = depth::standard;
    unsigned timeout_seconds = 120; // per check, in its child process
};

// One check of one plugin. body runs in the calling process; run_check
// isolates it.
struct check {
    std::string name; // e.g. "round_trip/f64/n7/w3/rall", "bad_option/level=abc"
    std::function<outcome()> body;
};

// The checks for plugin p. p must outlive them.
std::vector<check> plan_checks(const plugin& p, const settings& s);

struct check_result {
    std::string name;
    outcome result;
    double seconds = 0;
};

// Runs c.body in a forked child with the settings' time limit.
check_result run_check(const check& c, const settings& s);

struct report {
    std::string file;      // as given
    std::string plugin_id; // empty when the file did not load
    std::string plugin_version;
    std::string abi; // "1.0"
    std::vector<check_result> results;

    std::size_t count(outcome::kind k) const;
    bool all_passed() const { return count(outcome::failed) == 0; }
};

// Loads file with a registry of its own (registry::load_file) and runs every
// check; a load problem is one failed check "load" with the loader's reason.
// progress, when given, sees each result as it is made.
report check_plugin_file(const std::filesystem::path& file, const settings& s,
                         const std::function<void(const check_result&)>& progress = {});

// The same for a plugin already loaded.
report check_loaded_plugin(const plugin& p, const settings& s,
                           const std::function<void(const check_result&)>& progress = {});

} // namespace formatbench::conformance

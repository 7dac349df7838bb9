// Plugin conformance checks: what every plugin must do, derived from its
// descriptor alone (dtypes, capability flags, option declarations), so any
// plugin file can be checked without knowing its format. One implementation
// for `formatbench check-plugin PATH` and the GoogleTest suite in
// tests/conformance. Each rule a check enforces is worded once
// (conformance_rules.hpp); a failure's reason ends with the rule it broke.
//
//  - load: the registry accepts the file (reported by check-plugin).
//  - descriptor: declared defaults and choices pass the plugin's own checks;
//    every option has help; a lossless plugin is lossless with defaults.
//  - round_trip/...: every declared dtype; counts 0, 1, 7, ~10^4 and a large
//    one; chunks of 1, 3 (odd), 4097 and the whole array, also reading in
//    other chunks than were written; an unknown count hint where allowed;
//    one variant per valid non-default value of each option. The output is
//    at the path (a regular file, a directory, or nothing, by the flags).
//    Lossless option sets read back bit-exact (any NaN equals any NaN, see
//    compare_exact); lossy ones only need the count. The zero-copy view,
//    when offered, shows the same values.
//  - check_options/DTYPE/defaults: formatbench.check-options/1, when offered,
//    accepts no options and every option at its default.
//  - read_at/DTYPE, read_box/DTYPE/SHAPE, direct_io/DTYPE (ABI 1.2), where
//    offered: read-at ranges and read-box boxes (3x4x5 and 37x41, on every
//    axis) equal what read() gives; ranges and boxes outside the data set
//    or of another ndim are FB_E_TRUNCATED and write nothing; on the
//    widest dtype read_at/DTYPE/large and read_box/DTYPE/large (a file of
//    several of any block up to 1 MiB) and .../OPTION=VALUE for each value
//    of the option sweep (a file four times the largest size it sets, so a
//    block size set small makes many blocks; a value with which the plugin
//    refuses random access gets another option's value that turns it on);
//    with
//    FB_CAP_DIRECT_IO, FB_OPEN_DIRECT reads the same values (not
//    applicable, with the reason, where the file system refuses O_DIRECT).
//  - overwrite/existing_file: writing over a larger file of the plugin's own
//    replaces it: the new values read back, the old count no longer does.
//  - read_error/...: missing, truncated, empty and random-bytes files give
//    an error status (not FB_E_INTERNAL or FB_E_STATE) whose message names
//    the path. Corrupted files (the header overwritten; 16 bytes inverted
//    before the middle, the three-quarter mark and the end) may also read
//    back without error: only a crash, hang or bug status fails them. No
//    read writes past the values asked for (a guarded buffer).
//  - option_effect/NAME: the option's values write byte-identical files
//    (with the defaults and with each value of another option): a warning
//    naming it (outcome::warned), validated but ignored unless it changes
//    only speed or memory.
//  - bad_option/...: an unknown name, malformed or out-of-range values are
//    refused by the host's check_options AND by the plugin's own open_write
//    and open_read with FB_E_INVALID_OPTION, before any file is touched.
//  - write_error/...: writing below a regular file, into a missing folder,
//    into a 0555 folder (when permissions apply), to a full device (the
//    device node survives) and into a file that cannot grow past 64 KiB
//    (RLIMIT_FSIZE: a failing write through a path the plugin creates)
//    fails with FB_E_IO and a message naming the path.
//
// Every check runs in a forked child with a time limit, in fresh folders
// (check_sandbox: working folder, HOME, TMPDIR) that the checker removes
// afterwards, so a plugin that crashes or hangs fails that check and the
// checker goes on; creating, changing or removing anything in those folders
// or in the check's data folder, other than the path given, fails it.
#pragma once

#include "host/conformance_support.hpp"
#include "host/plugin_handle.hpp"

#include <csignal>
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

// check-plugin's default time limit per check: a hanging plugin costs
// seconds, not minutes. The slowest check of an in-tree plugin takes a small
// fraction of it (docs/plugin-guide.md has the figures).
inline constexpr unsigned default_timeout_seconds = 10;

struct settings {
    depth level = depth::standard;
    unsigned timeout_seconds = default_timeout_seconds; // per check, in its child process
    // Glob patterns (fnmatch(3), `*` also matches `/`): only the checks whose
    // names match one of them run; empty means all.
    std::vector<std::string> only;
    // A signal handler's flag: when it becomes non-zero the running check's
    // child is killed and no further check starts.
    const volatile std::sig_atomic_t* stop = nullptr;
};

// Whether the check named `name` is one the settings' patterns select.
bool selected(const settings& s, const std::string& name);

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

// Runs c.body in a forked child with the settings' time limit (run_in_child).
check_result run_check(const check& c, const settings& s);

struct report {
    std::string file;      // as given
    std::string plugin_id; // empty when the file did not load
    std::string plugin_version;
    std::string abi; // "1.0"
    std::vector<check_result> results;
    bool interrupted = false; // settings::stop ended the checks early

    std::size_t count(outcome::kind k) const;
    bool all_passed() const { return count(outcome::failed) == 0; }
};

// Runs every selected check of a loaded plugin (check-plugin reports the
// load itself as the check "load"); progress, when given, sees each result
// as it is made.
report check_loaded_plugin(const plugin& p, const settings& s,
                           const std::function<void(const check_result&)>& progress = {});

} // namespace formatbench::conformance

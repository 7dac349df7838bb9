// The rules `formatbench check-plugin` enforces, each worded once: a failed
// check's reason ends with "; rule: " and the rule it found broken, and
// docs/abi.md ("Contracts") lists every rule in exactly these words
// (tests/conformance fails when one is missing there).
#pragma once

#include <array>

namespace formatbench::conformance::rule {

// The process: checked for every check, in run_in_child.
inline constexpr const char* no_crash = "a plugin never crashes or ends the process";
inline constexpr const char* time_limit = "every call returns within the time limit (--timeout)";
inline constexpr const char* no_print = "a plugin never prints to standard output or error";
inline constexpr const char* no_leftovers =
    "threads and processes a plugin starts end before its calls return";
inline constexpr const char* only_its_path =
    "a plugin creates, changes and removes nothing outside the path it is given";

// The descriptor and options.
inline constexpr const char* some_dtype = "a plugin declares at least one dtype";
inline constexpr const char* allowed_values =
    "every value an option declaration allows is accepted (its default, each choice, the ends of its range)";
inline constexpr const char* help_text = "every option has a help text";
inline constexpr const char* lossless_defaults =
    "a plugin that declares FB_CAP_LOSSLESS is lossless with its default options";
inline constexpr const char* declarations_refuse =
    "the option declarations refuse unknown names and malformed or out-of-range values";
inline constexpr const char* bad_option_refused = "open_write and open_read refuse a bad option with "
                                                  "FB_E_INVALID_OPTION, return no stream and touch no file";

// Writing and reading back.
inline constexpr const char* round_trip = "every declared dtype writes and reads back at any count, in any "
                                          "chunking and with every allowed option value";
inline constexpr const char* output_at_path = "a plugin leaves a regular file at its path (a directory with "
                                              "FB_CAP_DIRECTORY_OUTPUT, nothing with FB_CAP_NO_FILE)";
inline constexpr const char* bit_exact =
    "a lossless option set reads back bit-exact (a NaN may come back as another NaN)";
inline constexpr const char* view_same = "the zero-copy view, when offered, shows the values written";
inline constexpr const char* overwrite = "writing over an existing file replaces it";

// Random access and direct I/O (ABI 1.2), checked when a plugin offers them.
inline constexpr const char* read_at_same =
    "read-at gives the elements read gives, at any offset and the same bytes every time";
inline constexpr const char* read_box_same =
    "read-box gives the box's elements of the row-major array, on every axis";
inline constexpr const char* outside_refused = "a read-at range or read-box box outside the data set (or of "
                                               "another ndim) is FB_E_TRUNCATED and writes nothing";
inline constexpr const char* direct_same =
    "a plugin that declares FB_CAP_DIRECT_IO reads the same values with FB_OPEN_DIRECT";
inline constexpr const char* defaults_pass =
    "check-options, when offered, accepts the default options for every declared dtype";

// Bad input and failing writes.
inline constexpr const char* bad_input_fails = "reading a missing, empty, truncated or random file fails";
inline constexpr const char* read_status =
    "a failed read reports what is wrong with the input, never FB_E_INTERNAL or FB_E_STATE";
inline constexpr const char* names_path = "an error message names the path";
inline constexpr const char* no_overrun = "read fills the values asked for and writes nothing past them";
inline constexpr const char* write_fails =
    "a write that cannot succeed fails (below a regular file, into a "
    "missing or read-only folder, onto a full device, past a file size "
    "limit)";
inline constexpr const char* write_status =
    "a write the system refuses fails with FB_E_IO (a path that is not a regular file may be refused with "
    "FB_E_UNSUPPORTED)";
inline constexpr const char* removes_only_own =
    "a plugin removes only what it created (a device at its path survives)";

inline constexpr std::array all = {
    no_crash,        time_limit,  no_print,          no_leftovers,        only_its_path,      some_dtype,
    allowed_values,  help_text,   lossless_defaults, declarations_refuse, bad_option_refused, round_trip,
    output_at_path,  bit_exact,   view_same,         overwrite,           read_at_same,       read_box_same,
    outside_refused, direct_same, defaults_pass,     bad_input_fails,     read_status,        names_path,
    no_overrun,      write_fails, write_status,      removes_only_own};

} // namespace formatbench::conformance::rule

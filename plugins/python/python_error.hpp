// A Python exception as the ABI's status and message: the call, the path,
// the plugin and module, the exception's type and message, and the line
// of the module that raised it.
#pragma once

#include <formatbench/plugin.hpp>

#include <pybind11/pybind11.h>

#include <string>

namespace formatbench::detail {

// Where an exception was raised, for its message.
struct call_site {
    const char* call;        // "write", "read", "open"...
    const std::string* path; // the stream's path; null outside a stream (the import)
    const char* plugin;      // the plugin id
    const char* module;      // the module's name
    bool reading;            // a read-side call (open for reading, read, read_at, read_box)
};

// The status of an exception: its class's `fb_status` attribute when it has
// one ("io", "corrupt", "truncated", "unsupported", "invalid_option",
// "no_memory"), else OSError -> FB_E_IO, EOFError -> FB_E_TRUNCATED,
// MemoryError -> FB_E_NO_MEMORY, NotImplementedError -> FB_E_UNSUPPORTED,
// and anything else FB_E_CORRUPT while reading (the input is not what the
// module expects) or FB_E_INTERNAL while writing. The GIL held.
sdk::error python_error(pybind11::error_already_set& e, const call_site& site);

} // namespace formatbench::detail

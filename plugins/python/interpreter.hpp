// The embedded CPython interpreter: started once per process (a forked
// worker, or check-plugin's child) when the host prepares the plugin before
// a case's first open (or at that open), never at load, so that listing
// plugins runs no Python; the GIL is released between calls
// and taken only inside them (python_call).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace formatbench::detail {

// Starts the interpreter if this process has none yet; returns the seconds
// the start took (0 when it was running already). Writes no bytecode,
// installs no signal handler, and sends the module's stdout and stderr to
// a discarded buffer (a plugin never prints). Throws sdk::error.
double ensure_interpreter();

// Imports `name` from `dir` (put first on sys.path); the GIL held. Throws
// py::error_already_set.
pybind11::module_ import_module_from(const std::string& dir, const std::string& name);

} // namespace formatbench::detail

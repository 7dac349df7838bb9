// The embedded CPython interpreter: started once per process (a forked
// worker, or check-plugin's child) when the host prepares the plugin before
// a case's first open (or at that open), never at load, so that listing
// plugins runs no Python; the GIL is released between calls
// and taken only inside them (python_call).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define FB_PY_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FB_PY_LEAK_CHECKED 1
#endif
#endif
#ifdef FB_PY_LEAK_CHECKED
#include <sanitizer/lsan_interface.h>
#endif

namespace formatbench::detail {

// In a build with LeakSanitizer, what this thread allocates while it lives
// is left out of the leak check (nothing otherwise): the interpreter is
// never finalized, so everything it and the modules it imported hold at
// exit would be reported. The bridge's own allocations outside Python calls
// are still checked.
struct python_leaks_unchecked {
#ifdef FB_PY_LEAK_CHECKED
    python_leaks_unchecked() {
        __lsan_disable();
    }
    ~python_leaks_unchecked() {
        __lsan_enable();
    }
    python_leaks_unchecked(const python_leaks_unchecked&) = delete;
    python_leaks_unchecked& operator=(const python_leaks_unchecked&) = delete;
#endif
};

// One call into Python: the GIL for its length, and its allocations left
// out of the leak check (python_leaks_unchecked). Every call of the bridge
// into Python goes through one.
class python_scope {
    python_leaks_unchecked unchecked_; // first in, last out: the GIL's own work is inside
    pybind11::gil_scoped_acquire gil_;
};

// Starts the interpreter if this process has none yet; returns the seconds
// the start took (0 when it was running already). Writes no bytecode,
// installs no signal handler, and sends the module's stdout and stderr to
// a discarded buffer (a plugin never prints). Throws sdk::error.
double ensure_interpreter();

// Imports `name` from `dir` (put first on sys.path); the GIL held. Throws
// py::error_already_set.
pybind11::module_ import_module_from(const std::string& dir, const std::string& name);

} // namespace formatbench::detail

// The generic bridge's module (libfb_python_module.so, built from bridge.cpp
// with FB_PY_DYNAMIC_MODULE): the file named by FORMATBENCH_PYTHON_MODULE,
// described at load by describe_module in a child process, so that the
// process loading the library never starts Python. check-plugin FILE.py
// sets the variable and checks this library as any plugin file.
#pragma once

#include "module_table.hpp"

#include <string>

namespace formatbench::detail {

inline constexpr const char* python_module_variable = "FORMATBENCH_PYTHON_MODULE";

struct described_module {
    std::string module;  // the import name, e.g. fb_x ("" when the variable is not set)
    std::string dir;     // the module's folder, which the bridge imports it from
    module_table table;  // its declarations, when problem is empty
    std::string problem; // why it cannot be served, naming the module's file and what to do
};

// Runs describe_module --json (beside this library) on the module the
// variable names, and reads its table. Never throws: a missing variable, a
// missing describe_module or a malformed module is the problem.
described_module describe_from_environment() noexcept;

} // namespace formatbench::detail

// Starts CPython once per process and hands the GIL back between calls.
#include "interpreter.hpp"

#include <formatbench/plugin.hpp>

#include <chrono>
#include <dlfcn.h>
#include <mutex>

namespace py = pybind11;

namespace formatbench::detail {
namespace {

bool started = false;

// The host loads plugins with RTLD_LOCAL, so libpython's symbols would be
// invisible to the extension modules Python imports (numpy's and h5py's
// .so files, which Debian does not link against libpython): make them
// global before the first import.
void make_libpython_global() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&Py_InitializeEx), &info) == 0 || !info.dli_fname)
        throw sdk::error(FB_E_INTERNAL, "python bridge: cannot find the loaded libpython (dladdr failed)");
    if (!dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD))
        throw sdk::error(FB_E_INTERNAL, std::string("python bridge: cannot make '") + info.dli_fname +
                                            "' global: " + dlerror());
}

} // namespace

double ensure_interpreter() {
    // Streams may be opened from several threads at once (plugin.h): the
    // first opener starts the interpreter, the others wait for it.
    static std::mutex starting;
    std::lock_guard<std::mutex> lock(starting);
    if (started) return 0;
    const auto t0 = std::chrono::steady_clock::now();
    const python_leaks_unchecked unchecked; // the interpreter's start and the imports below
    make_libpython_global();
    // Another Python plugin's library of this process (each has its own
    // copy of this file) may have started it: a process that runs several
    // cases in turn (isolation: none, old hosts) shares one interpreter.
    if (Py_IsInitialized()) {
        started = true;
        return 0;
    }
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0; // Ctrl-C stays the host's
    config.write_bytecode = 0;          // no __pycache__ beside the modules
    config.parse_argv = 0;
    config.user_site_directory = 0;
    // The program the paths are computed from: without it CPython looks for
    // "python3" on PATH, and a pyenv, conda or venv interpreter there (a
    // different Python, with its own standard library and packages) made
    // numpy or netCDF4 "not found". The build's own interpreter, whose
    // library this is and with which describe_module read the modules.
    PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, FB_PY_PROGRAM);
    if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status))
        throw sdk::error(FB_E_INTERNAL, std::string("python bridge: the interpreter did not start: ") +
                                            (status.err_msg ? status.err_msg : "unknown reason"));
    started = true;
    {
        // A plugin never prints: what a module prints is kept in a buffer
        // nobody reads.
        py::module_ sys = py::module_::import("sys");
        py::object sink = py::module_::import("io").attr("StringIO")();
        sys.attr("stdout") = sink;
        sys.attr("stderr") = sink;
        py::module_::import("warnings").attr("simplefilter")("ignore");
    }
    // The GIL is taken again by every call (py::gil_scoped_acquire); the
    // thread state is kept for the life of the process, which never
    // finalizes the interpreter (C extensions such as h5py's are not
    // made to be unloaded).
    PyEval_SaveThread();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

py::module_ import_module_from(const std::string& dir, const std::string& name) {
    py::list path = py::module_::import("sys").attr("path");
    bool present = false;
    for (py::handle p : path)
        present = present || py::str(p).cast<std::string>() == dir;
    if (!present) path.insert(0, dir);
    return py::module_::import(name.c_str());
}

} // namespace formatbench::detail

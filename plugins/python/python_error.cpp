// Turns a Python exception into an sdk::error (status and message).
#include "python_error.hpp"

#include <array>

namespace py = pybind11;

namespace formatbench::detail {
namespace {

struct named_status {
    const char* name;
    fb_status status;
};
constexpr std::array<named_status, 6> named_statuses = {{{"io", FB_E_IO},
                                                         {"corrupt", FB_E_CORRUPT},
                                                         {"truncated", FB_E_TRUNCATED},
                                                         {"unsupported", FB_E_UNSUPPORTED},
                                                         {"invalid_option", FB_E_INVALID_OPTION},
                                                         {"no_memory", FB_E_NO_MEMORY}}};

fb_status status_of(py::error_already_set& e, bool reading) {
    py::object type = e.type();
    if (py::hasattr(type, "fb_status")) {
        std::string name = py::str(type.attr("fb_status")).cast<std::string>();
        for (const auto& s : named_statuses)
            if (name == s.name) return s.status;
    }
    if (e.matches(PyExc_EOFError)) return FB_E_TRUNCATED;
    if (e.matches(PyExc_OSError)) return FB_E_IO;
    if (e.matches(PyExc_MemoryError)) return FB_E_NO_MEMORY;
    if (e.matches(PyExc_NotImplementedError)) return FB_E_UNSUPPORTED;
    return reading ? FB_E_CORRUPT : FB_E_INTERNAL;
}

// " (fb_bad.py line 12)": the innermost frame of the traceback, the line
// that raised.
std::string where_raised(py::error_already_set& e) {
    py::object tb = e.trace();
    if (tb.is_none()) return "";
    while (!tb.attr("tb_next").is_none())
        tb = tb.attr("tb_next");
    py::object code = tb.attr("tb_frame").attr("f_code");
    std::string file = py::str(code.attr("co_filename")).cast<std::string>();
    file = file.substr(file.find_last_of('/') + 1);
    return " (" + file + " line " + py::str(tb.attr("tb_lineno")).cast<std::string>() + ")";
}

} // namespace

sdk::error python_error(py::error_already_set& e, const call_site& site) {
    std::string type = py::str(e.type().attr("__name__")).cast<std::string>();
    std::string message = py::str(e.value()).cast<std::string>();
    // One line, as every message across the ABI (HDF5's errors through
    // h5py hold newlines).
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    std::string text = std::string(site.call) + (site.path ? " '" + *site.path + "'" : "") + ": " + type +
                       (message.empty() ? "" : ": " + message) + where_raised(e) + " [plugin " + site.plugin +
                       ", python module " + site.module + "]";
    fb_status status = status_of(e, site.reading);
    e.restore();
    PyErr_Clear();
    return sdk::error(status, text);
}

} // namespace formatbench::detail

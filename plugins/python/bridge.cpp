// python: the bridge that makes one plugin of the C ABI from one Python
// module (docs/plugin-guide.md, "A plugin in Python"). The descriptor is
// baked at build time from the module's OPTIONS and DTYPES by
// describe_module (FB_PY_DESCRIPTOR_HEADER); the interpreter starts in the
// process that runs the case, before its first open (formatbench.prepare/1),
// and every call takes the
// GIL for its own length only. The host's buffers reach the module as
// NumPy arrays over the same memory: read-only for write, writable for
// read (the module fills it, or returns an array the bridge copies once,
// timed apart as the metric python_copy_s).
#include "interpreter.hpp"
#include "module_table.hpp"
#include "python_error.hpp"

#include FB_PY_DESCRIPTOR_HEADER

#include <formatbench/plugin.hpp>

#include <pybind11/numpy.h>

#include <chrono>
#include <dlfcn.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace py = pybind11;
namespace fs = std::filesystem;

namespace formatbench::detail {
namespace {

// Where the module is: the folder `python` beside this library (the build
// tree and the install tree alike), else the folder it was baked from.
std::string module_dir() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&module_dir), &info) != 0 && info.dli_fname) {
        fs::path beside = fs::path(info.dli_fname).parent_path() / "python";
        std::error_code ec;
        if (fs::exists(beside / (std::string(baked::module) + ".py"), ec)) return beside.string();
    }
    return baked::module_dir;
}

// The module, imported once per process and checked against the table
// baked into this library; the GIL held.
py::module_ plugin_module() {
    static PyObject* module = nullptr; // kept for the life of the process
    if (module) return py::reinterpret_borrow<py::module_>(module);
    const std::string dir = module_dir();
    py::module_ m = import_module_from(dir, baked::module);
    module_table table = read_module_table(m, baked::module);
    if (canonical_text(table) != baked::canonical)
        throw sdk::error(FB_E_STATE, std::string("python module '") + baked::module + "' (" + table.file +
                                         ") declares other OPTIONS, DTYPES or methods than plugin '" +
                                         baked::id + "' was built with: rebuild it (ninja -C build)");
    module = m.release().ptr();
    return py::reinterpret_borrow<py::module_>(module);
}

// The interpreter's start and the module's import, with its library (numpy,
// h5py): called by the host through formatbench.prepare/1 before a case's
// first open, with no clock running; a second call returns at once. Throws
// sdk::error.
void prepare_module() {
    ensure_interpreter();
    py::gil_scoped_acquire gil;
    try {
        plugin_module();
    } catch (py::error_already_set& e) {
        throw python_error(e, call_site{"import", nullptr, baked::id, baked::module, false});
    }
}

const char* numpy_format(fb_dtype dtype) {
    switch (dtype) {
    case FB_DTYPE_F64: return "<f8";
    case FB_DTYPE_F32: return "<f4";
    case FB_DTYPE_I64: return "<i8";
    case FB_DTYPE_I32: return "<i4";
    case FB_DTYPE_U8: return "u1";
    }
    return "?";
}

// A flat NumPy array over count elements at data, no copy; writable or not.
py::array host_array(fb_dtype dtype, const void* data, std::uint64_t count, bool writable) {
    static const char anchor = 0; // a base object, so NumPy neither copies nor frees the buffer
    py::capsule base(&anchor, [](void*) {});
    py::array a(py::dtype(numpy_format(dtype)), {static_cast<py::ssize_t>(count)}, {}, data, base);
    if (!writable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return a;
}

// The options as Python values of their declared types.
py::dict option_values(const sdk::options& o) {
    py::dict d;
#if FB_PY_OPTION_COUNT > 0
    for (const auto& decl : baked::options) {
        switch (decl.type) {
        case FB_OPT_BOOL: d[decl.name] = o.get_bool(decl.name); break;
        case FB_OPT_INT: d[decl.name] = o.get_int(decl.name); break;
        case FB_OPT_FLOAT: d[decl.name] = o.get_float(decl.name); break;
        case FB_OPT_SIZE: d[decl.name] = o.get_size(decl.name); break;
        case FB_OPT_STRING:
        case FB_OPT_CHOICE: d[decl.name] = o.get_string(decl.name); break;
        }
    }
#else
    (void)o;
#endif
    return d;
}

// One stream: an instance of the module's Plugin class.
class py_stream {
public:
    py_stream(const sdk::open_request& r, bool reading) : path_(r.path), dtype_(r.dtype), reading_(reading) {
        // The host starts the interpreter and imports the module before
        // the case's first open (prepare_module, formatbench.prepare/1).
        // Under a host without that extension they happen here, in the
        // first open, inside a timed phase: reported as python_start_s.
        const auto t0 = std::chrono::steady_clock::now();
        const bool starting = ensure_interpreter() > 0;
        metrics_ = r.metrics();
        struct stat st;
        const bool existed = ::lstat(path_.c_str(), &st) == 0;
        py::gil_scoped_acquire gil;
        try {
            py::module_ m = plugin_module();
            if (starting)
                metrics_("python_start_s",
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            instance_ = m.attr("Plugin")();
            py::tuple shape;
            if (r.shape.empty()) {
                shape = py::make_tuple(r.count);
            } else {
                shape = py::tuple(r.shape.size());
                for (std::size_t k = 0; k < r.shape.size(); ++k)
                    shape[k] = r.shape[k];
            }
            instance_.attr("open")(path_, reading ? "r" : "w", py::dtype(numpy_format(dtype_)), r.count,
                                   shape, option_values(r.options));
        } catch (py::error_already_set& e) {
            instance_ = py::object();
            sdk::error error = python_error(e, site("open"));
            remove_if_created(existed);
            throw error;
        } catch (...) {
            instance_ = py::object();
            remove_if_created(existed);
            throw;
        }
    }
    py_stream(py_stream&& other) noexcept = default;
    py_stream& operator=(py_stream&&) = delete;
    ~py_stream() {
        if (!instance_) return;
        py::gil_scoped_acquire gil;
        instance_ = py::object();
    }

    void write(const void* data, std::uint64_t count) {
        call("write", [&] { instance_.attr("write")(host_array(dtype_, data, count, false)); });
    }

    void read(void* data, std::uint64_t count) {
        call("read",
             [&] { take(instance_.attr("read")(host_array(dtype_, data, count, true)), data, count); });
    }

    void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
        call("read_at", [&] {
            take(instance_.attr("read_at")(offset, host_array(dtype_, data, count, true)), data, count);
        });
    }

    void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data, std::size_t ndim) {
        call("read_box", [&] {
            py::tuple s(ndim), c(ndim);
            std::uint64_t n = 1;
            for (std::size_t k = 0; k < ndim; ++k) {
                s[k] = start[k];
                c[k] = count[k];
                n *= count[k];
            }
            take(instance_.attr("read_box")(s, c, host_array(dtype_, data, n, true)), data, n);
        });
    }

    void close() {
        call("close", [&] { instance_.attr("close")(); });
        if (copy_s_ > 0) metrics_("python_copy_s", copy_s_);
    }

private:
    call_site site(const char* call) const { return {call, &path_, baked::id, baked::module, reading_}; }

    template <class Fn>
    void call(const char* name, Fn&& fn) {
        if (!instance_)
            throw sdk::error(FB_E_STATE, std::string(name) + " on a failed stream: '" + path_ + "'");
        py::gil_scoped_acquire gil;
        try {
            fn();
        } catch (py::error_already_set& e) {
            throw python_error(e, site(name));
        }
    }

    // A read call's result: None (the module filled the host's array), or
    // an array of the same number of elements, copied once into the host's
    // buffer; that copy is timed apart.
    void take(const py::object& result, void* data, std::uint64_t count) {
        if (result.is_none()) return;
        const auto t0 = std::chrono::steady_clock::now();
        py::array a = py::array::ensure(result);
        if (!a || static_cast<std::uint64_t>(a.size()) != count ||
            a.itemsize() != py::ssize_t(fb_dtype_size(dtype_)))
            throw sdk::error(FB_E_CORRUPT, "read '" + path_ + "': python module " + baked::module +
                                               " returned " +
                                               py::str(py::type::of(result)).cast<std::string>() +
                                               " instead of None or " + std::to_string(count) +
                                               " elements of the stream's dtype [plugin " + baked::id + "]");
        py::module_::import("numpy").attr("copyto")(host_array(dtype_, data, count, true),
                                                    a.attr("reshape")(-1), py::arg("casting") = "no");
        copy_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    // A failed open leaves nothing at the path, and removes only a regular
    // file it created itself.
    void remove_if_created(bool existed) const {
        struct stat st;
        if (!existed && ::lstat(path_.c_str(), &st) == 0) {
            std::error_code ec;
            if (S_ISREG(st.st_mode))
                ::unlink(path_.c_str());
            else if (S_ISDIR(st.st_mode) && baked::directory)
                fs::remove_all(path_, ec);
        }
    }

    std::string path_;
    fb_dtype dtype_;
    bool reading_;
    py::object instance_;
    sdk::metric_reporter metrics_;
    double copy_s_ = 0;
};

} // namespace
} // namespace formatbench::detail

struct python_plugin {
#if FB_PY_OPTION_COUNT > 0
    static constexpr auto& options = formatbench::detail::baked::options;
#endif
    // formatbench.prepare/1: the interpreter and the module, before the
    // case's first open.
    static void prepare(const formatbench::sdk::options&, fb_dtype) {
        formatbench::detail::prepare_module();
    }
    static formatbench::sdk::plugin_info info() {
        namespace b = formatbench::detail::baked;
        return {b::id,
                b::version,
                b::description,
                "MIT",
                b::extension,
                b::dtypes,
                (b::lossless ? FB_CAP_LOSSLESS : FB_CAP_LOSSY) | FB_CAP_NEEDS_COUNT |
                    (b::directory ? FB_CAP_DIRECTORY_OUTPUT : 0)};
    }
    class writer {
    public:
        explicit writer(const formatbench::sdk::open_request& r) : s_(r, false) {}
        void write(const void* data, std::uint64_t count) { s_.write(data, count); }
        void close() { s_.close(); }

    private:
        formatbench::detail::py_stream s_;
    };
    class reader {
    public:
        explicit reader(const formatbench::sdk::open_request& r) : s_(r, true), ndim_(r.shape.size()) {}
        void read(void* data, std::uint64_t count) { s_.read(data, count); }
#if FB_PY_READ_AT
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
            s_.read_at(offset, data, count);
        }
#endif
#if FB_PY_READ_BOX
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            s_.read_box(start, count, data, ndim_);
        }
#endif
        void close() {
            s_.close();
        }

    private:
        formatbench::detail::py_stream s_;
        std::size_t ndim_ = 0;
    };
};

FORMATBENCH_PLUGIN(python_plugin)

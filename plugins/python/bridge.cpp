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
//
// Built with FB_PY_DYNAMIC_MODULE instead, it is the generic bridge
// (libfb_python_module.so, not in the plugin folder): its module is the
// file that FORMATBENCH_PYTHON_MODULE names, described once per process at
// load by describe_module in a child (dynamic_module.hpp), for
// check-plugin FILE.py.
#include "interpreter.hpp"
#include "module_table.hpp"
#include "python_error.hpp"

#ifdef FB_PY_DYNAMIC_MODULE
#include "dynamic_module.hpp"
#else
#include FB_PY_DESCRIPTOR_HEADER
#endif

#include <formatbench/plugin.hpp>

#include <pybind11/numpy.h>

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <span>
#include <sys/stat.h>
#include <unistd.h>

namespace py = pybind11;
namespace fs = std::filesystem;

namespace formatbench::detail {
namespace {

// What the bridge serves: its module and the module's declarations, baked
// into the library or described at load (FB_PY_DYNAMIC_MODULE). Lives for
// the process.
struct plugin_table {
    std::string module, id, description, version, extension, canonical;
    std::uint32_t dtypes = 0;
    bool lossless = true, directory = false, read_at = false, read_box = false;
    std::span<const fb_option_decl> options;
    std::string dir;     // dynamic: the module's folder
    std::string problem; // dynamic: why it cannot be opened ("" when it can)
};

#ifdef FB_PY_DYNAMIC_MODULE
// The declarations as the descriptor's option table, over the strings of
// the described module.
struct option_storage {
    std::vector<std::vector<const char*>> choices;
    std::vector<fb_option_decl> decls;
};

plugin_table make_table() {
    static described_module d = describe_from_environment();
    static option_storage storage;
    plugin_table t;
    t.module = d.module;
    t.dir = d.dir;
    if (!d.problem.empty()) {
        // Still a valid descriptor, whose opens fail with the problem.
        std::string id = d.module.rfind("fb_", 0) == 0 ? plugin_id_of(d.module) : "py-module";
        for (char c : id)
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) id = "py-module";
        t.id = id;
        t.description = "python module that cannot be used: " + d.problem.substr(0, 1000);
        t.version = "0";
        t.dtypes = FB_DTYPE_BIT(FB_DTYPE_F64) | FB_DTYPE_BIT(FB_DTYPE_F32) | FB_DTYPE_BIT(FB_DTYPE_I64) |
                   FB_DTYPE_BIT(FB_DTYPE_I32) | FB_DTYPE_BIT(FB_DTYPE_U8);
        t.problem = d.problem;
        return t;
    }
    const module_table& m = d.table;
    t.id = m.id;
    t.description = m.description;
    t.version = m.version;
    t.extension = m.extension;
    t.dtypes = m.dtypes;
    t.lossless = m.lossless;
    t.directory = m.directory;
    t.read_at = m.has_read_at;
    t.read_box = m.has_read_box;
    t.canonical = canonical_text(m);
    storage.choices.reserve(m.options.size());
    for (const auto& o : m.options) {
        auto& list = storage.choices.emplace_back();
        for (const auto& c : o.choices)
            list.push_back(c.c_str());
        list.push_back(nullptr);
        storage.decls.push_back({o.name.c_str(), o.type, o.default_value.c_str(), o.min, o.max,
                                 o.has_range ? 1 : 0, o.type == FB_OPT_CHOICE ? list.data() : nullptr,
                                 o.help.c_str()});
    }
    t.options = storage.decls;
    return t;
}
#else
plugin_table make_table() {
    plugin_table t;
    t.module = baked::module;
    t.id = baked::id;
    t.description = baked::description;
    t.version = baked::version;
    t.extension = baked::extension;
    t.canonical = baked::canonical;
    t.dtypes = baked::dtypes;
    t.lossless = baked::lossless;
    t.directory = baked::directory;
    t.read_at = FB_PY_READ_AT;
    t.read_box = FB_PY_READ_BOX;
#if FB_PY_OPTION_COUNT > 0
    t.options = baked::options;
#endif
    return t;
}
#endif

const plugin_table& table() {
    static const plugin_table t = make_table();
    return t;
}

// Where the module is. Baked: the folder `python` beside this library (the
// build tree and the install tree alike), else the folder it was baked
// from. Dynamic: the folder of the file the variable names.
std::string module_dir() {
#ifdef FB_PY_DYNAMIC_MODULE
    return table().dir;
#else
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&module_dir), &info) != 0 && info.dli_fname) {
        fs::path beside = fs::path(info.dli_fname).parent_path() / "python";
        std::error_code ec;
        if (fs::exists(beside / (std::string(baked::module) + ".py"), ec)) return beside.string();
    }
    return baked::module_dir;
#endif
}

// The module, imported once per process and checked against the table
// baked into this library (or described when it was loaded); the GIL held.
py::module_ plugin_module() {
    static PyObject* module = nullptr; // kept for the life of the process
    if (module) return py::reinterpret_borrow<py::module_>(module);
    const plugin_table& t = table();
    const std::string dir = module_dir();
    py::module_ m = import_module_from(dir, t.module);
    module_table read = read_module_table(m, t.module);
    if (canonical_text(read) != t.canonical)
#ifdef FB_PY_DYNAMIC_MODULE
        throw sdk::error(FB_E_STATE, "python module '" + t.module + "' (" + read.file +
                                         ") declares other OPTIONS, DTYPES or methods than when plugin '" +
                                         t.id + "' was loaded: it changed meanwhile; check it again");
#else
        throw sdk::error(FB_E_STATE, "python module '" + t.module + "' (" + read.file +
                                         ") declares other OPTIONS, DTYPES or methods than plugin '" + t.id +
                                         "' was built with: rebuild it (ninja -C build)");
#endif
    module = m.release().ptr();
    return py::reinterpret_borrow<py::module_>(module);
}

// The interpreter's start and the module's import, with its library (numpy,
// h5py): called by the host through formatbench.prepare/1 before a case's
// first open, with no clock running; a second call returns at once. Throws
// sdk::error.
void prepare_module() {
    if (!table().problem.empty()) throw sdk::error(FB_E_UNSUPPORTED, table().problem);
    ensure_interpreter();
    python_scope gil;
    try {
        plugin_module();
    } catch (py::error_already_set& e) {
        throw python_error(e,
                           call_site{"import", nullptr, table().id.c_str(), table().module.c_str(), false});
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
    for (const auto& decl : table().options) {
        switch (decl.type) {
        case FB_OPT_BOOL: d[decl.name] = o.get_bool(decl.name); break;
        case FB_OPT_INT: d[decl.name] = o.get_int(decl.name); break;
        case FB_OPT_FLOAT: d[decl.name] = o.get_float(decl.name); break;
        case FB_OPT_SIZE: d[decl.name] = o.get_size(decl.name); break;
        case FB_OPT_STRING:
        case FB_OPT_CHOICE: d[decl.name] = o.get_string(decl.name); break;
        }
    }
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
        // The generic bridge without a usable module: every open fails, saying why.
        if (!table().problem.empty()) throw sdk::error(FB_E_UNSUPPORTED, table().problem);
        const auto t0 = std::chrono::steady_clock::now();
        const bool starting = ensure_interpreter() > 0;
        metrics_ = r.metrics();
        struct stat st;
        const bool existed = ::lstat(path_.c_str(), &st) == 0;
        python_scope gil;
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
        python_scope gil;
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
    call_site site(const char* call) const {
        return {call, &path_, table().id.c_str(), table().module.c_str(), reading_};
    }

    template <class Fn>
    void call(const char* name, Fn&& fn) {
        if (!instance_)
            throw sdk::error(FB_E_STATE, std::string(name) + " on a failed stream: '" + path_ + "'");
        python_scope gil;
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
            throw sdk::error(FB_E_CORRUPT, "read '" + path_ + "': python module " + table().module +
                                               " returned " +
                                               py::str(py::type::of(result)).cast<std::string>() +
                                               " instead of None or " + std::to_string(count) +
                                               " elements of the stream's dtype [plugin " + table().id + "]");
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
            else if (S_ISDIR(st.st_mode) && table().directory)
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
#if !defined(FB_PY_DYNAMIC_MODULE) && FB_PY_OPTION_COUNT > 0
    static constexpr auto& options = formatbench::detail::baked::options;
#endif
    // formatbench.prepare/1: the interpreter and the module, before the
    // case's first open.
    static void prepare(const formatbench::sdk::options&, fb_dtype) {
        formatbench::detail::prepare_module();
    }
    static formatbench::sdk::plugin_info info() {
        const auto& t = formatbench::detail::table();
        return {t.id.c_str(),
                t.version.c_str(),
                t.description.c_str(),
                "MIT",
                t.extension.c_str(),
                t.dtypes,
                (t.lossless ? FB_CAP_LOSSLESS : FB_CAP_LOSSY) | FB_CAP_NEEDS_COUNT |
                    (t.directory ? FB_CAP_DIRECTORY_OUTPUT : 0)};
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
#if defined(FB_PY_DYNAMIC_MODULE) || FB_PY_READ_AT
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) {
            s_.read_at(offset, data, count);
        }
#endif
#if defined(FB_PY_DYNAMIC_MODULE) || FB_PY_READ_BOX
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

#ifdef FB_PY_DYNAMIC_MODULE
namespace formatbench::detail {
namespace {

using adapter = sdk::detail::adapter<python_plugin>;

// An open of the generic bridge: the SDK's checks of the request, with the
// options checked against the declarations described at load (the SDK's
// adapter knows only a plugin class's static option table).
template <class S>
fb_status open_dynamic(const fb_open_args* args, fb_stream** out, char* err, std::size_t err_size) {
    if (out) *out = nullptr;
    return sdk::detail::guarded(err, err_size, [&] {
        if (!out) throw sdk::error(FB_E_STATE, "open called without an output pointer");
        if (!args) throw sdk::error(FB_E_STATE, "open called without arguments");
        fb_open_args bare{};
        std::memcpy(&bare, args, std::min<std::size_t>(args->struct_size, sizeof bare));
        bare.options = nullptr;
        bare.option_count = 0;
        sdk::open_request r = sdk::detail::make_request<python_plugin>(&bare);
        const auto& decls = table().options;
        r.options = sdk::options(decls.data(), decls.size(), args->options, args->option_count);
        *out = reinterpret_cast<fb_stream*>(sdk::detail::make_box<S>(std::move(r)));
    });
}

// The access extensions only when the module defines read_at or read_box.
const void* dynamic_extension(const char* id) {
    if (id && !table().read_at && std::strcmp(id, FB_EXT_READ_AT_V1) == 0) return nullptr;
    if (id && !table().read_box && std::strcmp(id, FB_EXT_READ_BOX_V1) == 0) return nullptr;
    return adapter::get_extension(id);
}

} // namespace
} // namespace formatbench::detail

extern "C" FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t) {
    namespace d = formatbench::detail;
    static const fb_plugin_descriptor descriptor = [] {
        fb_plugin_descriptor x = *d::adapter::descriptor();
        const auto& options = d::table().options;
        x.options = options.empty() ? nullptr : options.data();
        x.option_count = static_cast<std::uint32_t>(options.size());
        x.open_write = &d::open_dynamic<python_plugin::writer>;
        x.open_read = &d::open_dynamic<python_plugin::reader>;
        x.get_extension = &d::dynamic_extension;
        return x;
    }();
    return &descriptor;
}
#else
FORMATBENCH_PLUGIN(python_plugin)
#endif

// Reads a Python plugin module's declarations into a module_table and
// refuses a malformed one, naming the module, its file and the entry.
#include "module_table.hpp"

#include <formatbench/plugin.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace py = pybind11;

namespace formatbench::detail {
namespace {

struct type_name {
    const char* name;
    fb_option_type type;
};
constexpr std::array<type_name, 6> option_types = {{{"bool", FB_OPT_BOOL},
                                                    {"int", FB_OPT_INT},
                                                    {"float", FB_OPT_FLOAT},
                                                    {"string", FB_OPT_STRING},
                                                    {"choice", FB_OPT_CHOICE},
                                                    {"size", FB_OPT_SIZE}}};

struct dtype_name {
    const char* name;
    fb_dtype dtype;
};
constexpr std::array<dtype_name, 5> dtype_names = {{{"f64", FB_DTYPE_F64},
                                                    {"f32", FB_DTYPE_F32},
                                                    {"i64", FB_DTYPE_I64},
                                                    {"i32", FB_DTYPE_I32},
                                                    {"u8", FB_DTYPE_U8}}};

bool valid_name(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// A default value as the host's option text ("true", "4", "0.5", "gzip").
std::string option_text(const py::handle& value, fb_option_type type) {
    if (type == FB_OPT_BOOL && py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
    if ((type == FB_OPT_INT || type == FB_OPT_SIZE) && py::isinstance<py::int_>(value) &&
        !py::isinstance<py::bool_>(value))
        return std::to_string(value.cast<long long>());
    if (type == FB_OPT_FLOAT && (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)))
        return py::str(py::float_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
    return py::str(value).cast<std::string>();
}

class table_reader {
public:
    table_reader(const py::module_& m, std::string name) : module_(m) {
        table_.module = std::move(name);
        table_.file = py::hasattr(m, "__file__") ? py::str(m.attr("__file__")).cast<std::string>() : "?";
        table_.id = plugin_id_of(table_.module);
    }

    module_table read() {
        read_identity();
        read_dtypes();
        read_options();
        read_class();
        return std::move(table_);
    }

private:
    [[noreturn]] void fail(const std::string& entry, const std::string& what) const {
        throw sdk::error(FB_E_INVALID_OPTION, "python module '" + table_.module + "' (" + table_.file +
                                                  "): " + entry + ": " + what);
    }

    void read_identity() {
        py::object doc = module_.attr("__doc__");
        if (doc.is_none()) fail("docstring", "missing: its first line is the plugin's description");
        std::string text = py::str(doc).cast<std::string>();
        std::size_t start = text.find_first_not_of(" \n\t");
        if (start == std::string::npos)
            fail("docstring", "empty: its first line is the plugin's description");
        table_.description = text.substr(start, text.find('\n', start) - start);
        table_.version = text_attr("VERSION", "1.0");
        table_.extension = text_attr("EXTENSION", "");
        table_.lossless = bool_attr("LOSSLESS", true);
        table_.directory = bool_attr("DIRECTORY", false);
    }

    std::string text_attr(const char* name, const char* fallback) const {
        if (!py::hasattr(module_, name)) return fallback;
        py::object v = module_.attr(name);
        if (!py::isinstance<py::str>(v)) fail(name, "is not a string");
        return v.cast<std::string>();
    }

    bool bool_attr(const char* name, bool fallback) const {
        if (!py::hasattr(module_, name)) return fallback;
        py::object v = module_.attr(name);
        if (!py::isinstance<py::bool_>(v)) fail(name, "is not True or False");
        return v.cast<bool>();
    }

    void read_dtypes() {
        if (!py::hasattr(module_, "DTYPES"))
            fail("DTYPES", "missing: list the dtypes, e.g. [\"f64\", \"f32\"]");
        py::object list = module_.attr("DTYPES");
        if (!py::isinstance<py::list>(list) && !py::isinstance<py::tuple>(list))
            fail("DTYPES", "is not a list");
        for (py::handle item : list) {
            std::string name = py::str(item).cast<std::string>();
            bool known = false;
            for (const auto& d : dtype_names)
                if (py::isinstance<py::str>(item) && name == d.name) {
                    table_.dtypes |= FB_DTYPE_BIT(d.dtype);
                    known = true;
                }
            if (!known) fail("DTYPES entry '" + name + "'", "not one of f64, f32, i64, i32, u8");
        }
        if (table_.dtypes == 0) fail("DTYPES", "is empty: a plugin declares at least one dtype");
    }

    void read_options() {
        if (!py::hasattr(module_, "OPTIONS")) return;
        py::object list = module_.attr("OPTIONS");
        if (!py::isinstance<py::list>(list) && !py::isinstance<py::tuple>(list))
            fail("OPTIONS", "is not a list of (name, type, default, range or choices, help)");
        std::size_t index = 0;
        for (py::handle item : list)
            table_.options.push_back(read_option(item, index++));
    }

    py_option read_option(const py::handle& item, std::size_t index) const {
        std::string entry = "OPTIONS entry " + std::to_string(index);
        if (!py::isinstance<py::tuple>(item) || py::len(item) != 5)
            fail(entry, "is not a tuple (name, type, default, range or choices, help)");
        py::tuple t = py::reinterpret_borrow<py::tuple>(item);
        py_option o;
        if (!py::isinstance<py::str>(t[0]) || !valid_name(t[0].cast<std::string>()))
            fail(entry, "the name is not [a-z0-9_]+");
        o.name = t[0].cast<std::string>();
        entry += " ('" + o.name + "')";
        for (const auto& other : table_.options)
            if (other.name == o.name) fail(entry, "the name is declared twice");
        std::string type = py::str(t[1]).cast<std::string>();
        bool known = false;
        for (const auto& k : option_types)
            if (type == k.name) {
                o.type = k.type;
                known = true;
            }
        if (!known) fail(entry, "type '" + type + "' is not one of bool, int, float, string, choice, size");
        if (!py::isinstance<py::str>(t[4]) || t[4].cast<std::string>().empty())
            fail(entry, "the help is not a non-empty string");
        o.help = t[4].cast<std::string>();
        read_bounds(o, t[3], entry);
        o.default_value = option_text(t[2], o.type);
        // The default must pass the host's own checks of its declaration.
        fb_option_decl decl = declaration_of(o);
        try {
            sdk::options::check(decl, o.default_value);
        } catch (const sdk::error& e) {
            fail(entry, std::string("the default: ") + e.what());
        }
        return o;
    }

    void read_bounds(py_option& o, const py::handle& bounds, const std::string& entry) const {
        if (o.type == FB_OPT_CHOICE) {
            if (!py::isinstance<py::list>(bounds) && !py::isinstance<py::tuple>(bounds))
                fail(entry, "a choice needs a list of its choices");
            for (py::handle c : bounds) {
                if (!py::isinstance<py::str>(c) || c.cast<std::string>().empty())
                    fail(entry, "a choice is not a non-empty string");
                o.choices.push_back(c.cast<std::string>());
            }
            if (o.choices.empty()) fail(entry, "a choice needs at least one choice");
            return;
        }
        if (bounds.is_none()) return;
        if (o.type != FB_OPT_INT && o.type != FB_OPT_FLOAT && o.type != FB_OPT_SIZE)
            fail(entry, "only int, float and size take a range (give None)");
        if (!py::isinstance<py::tuple>(bounds) || py::len(bounds) != 2)
            fail(entry, "the range is not a tuple (min, max)");
        py::tuple r = py::reinterpret_borrow<py::tuple>(bounds);
        try {
            o.min = r[0].cast<double>();
            o.max = r[1].cast<double>();
        } catch (const py::cast_error&) {
            fail(entry, "the range's ends are not numbers");
        }
        if (!std::isfinite(o.min) || !std::isfinite(o.max) || o.min > o.max)
            fail(entry, "the range is not (min, max) with finite min <= max");
        o.has_range = true;
    }

    static fb_option_decl declaration_of(const py_option& o) {
        static thread_local std::vector<const char*> choices;
        choices.clear();
        for (const auto& c : o.choices)
            choices.push_back(c.c_str());
        choices.push_back(nullptr);
        return {o.name.c_str(),
                o.type,
                o.default_value.c_str(),
                o.min,
                o.max,
                o.has_range ? 1 : 0,
                o.type == FB_OPT_CHOICE ? choices.data() : nullptr,
                o.help.c_str()};
    }

    void read_class() {
        if (!py::hasattr(module_, "Plugin") || !py::isinstance<py::type>(module_.attr("Plugin")))
            fail("Plugin", "missing: the class with open, write, read and close");
        py::object cls = module_.attr("Plugin");
        for (const char* method : {"open", "write", "read", "close"})
            if (!py::hasattr(cls, method)) fail(std::string("Plugin.") + method, "missing");
        table_.has_read_at = py::hasattr(cls, "read_at");
        table_.has_read_box = py::hasattr(cls, "read_box");
    }

    const py::module_& module_;
    module_table table_;
};

} // namespace

std::string plugin_id_of(const std::string& module) {
    std::string base = module.rfind("fb_", 0) == 0 ? module.substr(3) : module;
    for (char& c : base)
        if (c == '_') c = '-';
    return "py-" + base;
}

module_table read_module_table(const py::module_& module, const std::string& name) {
    return table_reader(module, name).read();
}

std::string canonical_text(const module_table& t) {
    std::string out = t.id + '\n' + t.description + '\n' + t.version + '\n' + t.extension + '\n' +
                      std::to_string(t.dtypes) + ' ' + (t.lossless ? "lossless" : "lossy") + ' ' +
                      (t.directory ? "directory" : "file") + ' ' + (t.has_read_at ? "read_at" : "-") + ' ' +
                      (t.has_read_box ? "read_box" : "-") + '\n';
    for (const auto& o : t.options) {
        out += o.name + ' ' + std::to_string(int(o.type)) + ' ' + o.default_value + ' ';
        if (o.has_range) out += std::to_string(o.min) + ".." + std::to_string(o.max);
        for (const auto& c : o.choices)
            out += c + '|';
        out += ' ' + o.help + '\n';
    }
    return out;
}

std::string table_json(const module_table& t) {
    nlohmann::json options = nlohmann::json::array();
    for (const auto& o : t.options)
        options.push_back({{"name", o.name},
                           {"type", int(o.type)},
                           {"default", o.default_value},
                           {"has_range", o.has_range},
                           {"min", o.min},
                           {"max", o.max},
                           {"choices", o.choices},
                           {"help", o.help}});
    nlohmann::json j{{"module", t.module},
                     {"file", t.file},
                     {"id", t.id},
                     {"description", t.description},
                     {"version", t.version},
                     {"extension", t.extension},
                     {"dtypes", t.dtypes},
                     {"lossless", t.lossless},
                     {"directory", t.directory},
                     {"read_at", t.has_read_at},
                     {"read_box", t.has_read_box},
                     {"options", options}};
    return j.dump();
}

module_table table_from_json(const std::string& text) {
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        module_table t;
        t.module = j.at("module").get<std::string>();
        t.file = j.at("file").get<std::string>();
        t.id = j.at("id").get<std::string>();
        t.description = j.at("description").get<std::string>();
        t.version = j.at("version").get<std::string>();
        t.extension = j.at("extension").get<std::string>();
        t.dtypes = j.at("dtypes").get<std::uint32_t>();
        t.lossless = j.at("lossless").get<bool>();
        t.directory = j.at("directory").get<bool>();
        t.has_read_at = j.at("read_at").get<bool>();
        t.has_read_box = j.at("read_box").get<bool>();
        for (const auto& o : j.at("options")) {
            py_option p;
            p.name = o.at("name").get<std::string>();
            const int type = o.at("type").get<int>();
            if (type < FB_OPT_BOOL || type > FB_OPT_SIZE)
                throw std::runtime_error("option '" + p.name + "' has an unknown type");
            p.type = static_cast<fb_option_type>(type);
            p.default_value = o.at("default").get<std::string>();
            p.has_range = o.at("has_range").get<bool>();
            p.min = o.at("min").get<double>();
            p.max = o.at("max").get<double>();
            p.choices = o.at("choices").get<std::vector<std::string>>();
            p.help = o.at("help").get<std::string>();
            t.options.push_back(std::move(p));
        }
        return t;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("not a module table: ") + e.what());
    }
}

} // namespace formatbench::detail

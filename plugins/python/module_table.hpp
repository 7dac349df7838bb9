// What a Python plugin module declares at module level (OPTIONS, DTYPES,
// EXTENSION, LOSSLESS, the Plugin class and its optional methods), read
// and checked once: by describe_module when its plugin library is built
// (to bake the descriptor) and by the bridge at open (to find a module
// changed since then), or by the generic bridge from describe_module's
// JSON. Every refusal names the module, its file and the entry that is
// wrong.
#pragma once

#include <pybind11/pybind11.h>

#include <formatbench/plugin.h>

#include <cstdint>
#include <string>
#include <vector>

namespace formatbench::detail {

struct py_option {
    std::string name;
    fb_option_type type = FB_OPT_STRING;
    std::string default_value; // as the host's option text
    bool has_range = false;
    double min = 0, max = 0;
    std::vector<std::string> choices;
    std::string help;
};

struct module_table {
    std::string module;      // import name, e.g. fb_numpy
    std::string file;        // the module's file
    std::string id;          // py-numpy
    std::string description; // first line of the module's docstring
    std::string version;     // VERSION, "1.0" when absent
    std::string extension;   // EXTENSION, "" if none
    std::uint32_t dtypes = 0;
    bool lossless = true;
    bool directory = false; // DIRECTORY = True: the path is a folder the module fills
    bool has_read_at = false;
    bool has_read_box = false;
    std::vector<py_option> options;
};

// The plugin id of a module: its name without the "fb_" prefix, '_' as '-',
// after "py-" (fb_numpy -> py-numpy).
std::string plugin_id_of(const std::string& module);

// Reads and checks the table of an imported module (the GIL held). Throws
// sdk::error(FB_E_INVALID_OPTION) naming the module, its file and the entry.
module_table read_module_table(const pybind11::module_& module, const std::string& name);

// The table as one canonical text, baked into the plugin library so that the
// bridge can tell a module edited since the build.
std::string canonical_text(const module_table& table);

// The table as JSON (describe_module --json), and back (the generic
// bridge, which reads a module's table without starting Python). Throws
// std::runtime_error on text that is not such a table.
std::string table_json(const module_table& table);
module_table table_from_json(const std::string& text);

} // namespace formatbench::detail

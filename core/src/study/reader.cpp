// Reads a study file into a typed, expanded `study` (docs/config.md is the
// user's reference). Steps: parse YAML (keeping node positions), apply
// --set overrides, read each section into "axes" (a key's value or list of
// values to sweep), multiply the axes into datasets, formats and run
// parameters, then into cases. Every error is a config_error that starts
// with FILE:LINE:COLUMN and names the key.
#include "study/reader.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "base/text_file.hpp"
#include "study/fields.hpp"
#include "study/identity.hpp"
#include "study/schema.hpp"
#include "study/set.hpp"
#include "study/sweep.hpp"
#include "study/syntax.hpp"
#include "study/values.hpp"
#include "study/workload.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace formatbench {

namespace {

using detail::axis;
using detail::set_override;

// Output names are checked against the output table (report/outputs.hpp)
// after reading, where the study's outputs are used: the study layer does
// not know the reporters.

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string describe(const YAML::Node& n) {
    if (!n.IsDefined() || n.IsNull()) return "nothing";
    if (n.IsMap()) return "a map";
    if (n.IsSequence()) return "a list";
    return "'" + n.Scalar() + "'";
}

std::string child_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

// The reader of one study: the source name for messages, the --set
// overrides (whose values have no position in the file), and the helpers
// that turn nodes into typed values or errors.
class reader {
public:
    reader(std::string source, std::vector<set_override> overrides)
        : source_(std::move(source)), overrides_(std::move(overrides)) {}

    const std::string& source() const { return source_; }

    // "FILE:LINE:COLUMN" of `n`, or of the --set override that put it at `path`.
    std::string where(const YAML::Node& n, const std::string& path) const {
        YAML::Mark m = n.IsDefined() ? n.Mark() : YAML::Mark();
        if (const set_override* o = override_for(path)) m = o->mark;
        if (m.line < 0) m = YAML::Mark();
        return fmt::format("{}:{}:{}", source_, m.line + 1, m.column + 1);
    }

    [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& what) const {
        const set_override* o = override_for(path);
        throw config_error(fmt::format("{}: {}{}{}", where(n, path), path.empty() ? "" : path + ": ", what,
                                       o ? fmt::format(" (from --set '{}')", o->text) : ""));
    }

    // Unknown and repeated keys of a map; `what` says whose keys they are.
    void check_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>* allowed,
                    const std::string& hint = "") const {
        std::map<std::string, YAML::Mark> seen;
        for (const auto& pair : map) {
            const YAML::Node key = pair.first;
            if (!key.IsScalar()) fail(key, path, "expected a key name, got " + describe(key));
            const std::string& name = key.Scalar();
            if (allowed && !contains(*allowed, name)) {
                if (path.empty() && contains(detail::run_param_keys(), name))
                    fail(key, path,
                         fmt::format(
                             "'{}' is a run parameter: put it under 'defaults:' (for every format) or in a "
                             "format",
                             name));
                fail(key, path,
                     fmt::format("unknown key '{}'{}; expected one of: {}{}", name,
                                 did_you_mean(name, *allowed), join(*allowed), hint));
            }
            auto [at, inserted] = seen.emplace(name, key.Mark());
            if (!inserted)
                fail(key, path,
                     fmt::format("key '{}' is given twice (first at line {})", name, at->second.line + 1));
        }
    }

    // A map, or an error naming what was expected.
    void require_map(const YAML::Node& n, const std::string& path, const std::string& expected) const {
        if (!n.IsMap()) fail(n, path, fmt::format("expected {}, got {}", expected, describe(n)));
    }

    // The value nodes of a sweepable key: the node itself, or each item of a list.
    std::vector<YAML::Node> alternatives(const YAML::Node& n, const std::string& path,
                                         const std::string& expected) const {
        if (n.IsScalar()) return {n};
        if (n.IsSequence()) {
            if (n.size() == 0) fail(n, path, "an empty list sweeps nothing; give at least one value");
            std::vector<YAML::Node> out;
            for (const auto& item : n) {
                if (!item.IsScalar())
                    fail(item, path,
                         fmt::format("expected {} in the list, got {}", expected, describe(item)));
                out.push_back(item);
            }
            return out;
        }
        fail(n, path, fmt::format("expected {} (or a list of them to sweep), got {}", expected, describe(n)));
    }

    // A typed scalar that may not be swept (top-level settings).
    template <class T>
    T single(const YAML::Node& n, const std::string& path, const syntax<T>& s) const {
        if (!n.IsScalar()) fail(n, path, fmt::format("expected {}, got {}", s.expected, describe(n)));
        return parse(n, path, s);
    }

    std::string single_string(const YAML::Node& n, const std::string& path,
                              const std::string& expected) const {
        if (!n.IsScalar()) fail(n, path, fmt::format("expected {}, got {}", expected, describe(n)));
        return n.Scalar();
    }

    template <class T>
    T parse(const YAML::Node& n, const std::string& path, const syntax<T>& s) const {
        auto v = s.parse(n.Scalar());
        if (!v)
            fail(n, path,
                 fmt::format("expected {}, got '{}'{}", s.expected, n.Scalar(),
                             did_you_mean(n.Scalar(), s.choices)));
        return *v;
    }

    // An axis for a key of a field table: each value parsed (errors point
    // at the list item).
    template <class Spec>
    axis<Spec> field_axis(const YAML::Node& n, const std::string& path, const field<Spec>& f) const {
        axis<Spec> a;
        a.key = f.key;
        for (const auto& item : alternatives(n, path, f.expected)) {
            auto set = f.parse(item.Scalar());
            if (!set)
                fail(item, path,
                     fmt::format("expected {}, got '{}'{}", f.expected, item.Scalar(),
                                 did_you_mean(item.Scalar(), f.choices)));
            a.texts.push_back(item.Scalar());
            a.apply.push_back(*set);
        }
        return a;
    }

    // A single (not sweepable) value of a field table's key.
    template <class Spec>
    void single_field(const YAML::Node& n, const std::string& path, const field<Spec>& f, Spec& spec) const {
        if (!n.IsScalar()) fail(n, path, fmt::format("expected {}, got {}", f.expected, describe(n)));
        auto set = f.parse(n.Scalar());
        if (!set)
            fail(n, path,
                 fmt::format("expected {}, got '{}'{}", f.expected, n.Scalar(),
                             did_you_mean(n.Scalar(), f.choices)));
        (*set)(spec);
    }

    // An axis for a sweepable key: each value parsed (errors point at the
    // list item), and applied to a spec by `set`.
    template <class Spec, class T, class Set>
    axis<Spec> make_axis(const YAML::Node& n, const std::string& path, const std::string& key,
                         const syntax<T>& s, Set set) const {
        axis<Spec> a;
        a.key = key;
        for (const auto& item : alternatives(n, path, s.expected)) {
            T v = parse(item, path, s);
            a.texts.push_back(item.Scalar());
            a.apply.push_back([v, set](Spec& spec) { set(spec, v); });
        }
        return a;
    }

private:
    // The --set override at `path` or at one of its ancestors (a later
    // --set wins over an earlier one).
    const set_override* override_for(const std::string& path) const {
        const set_override* best = nullptr;
        for (const auto& o : overrides_) {
            bool match = path == o.path ||
                         (path.size() > o.path.size() && path.compare(0, o.path.size(), o.path) == 0 &&
                          (path[o.path.size()] == '.' || path[o.path.size()] == '['));
            if (match) best = &o;
        }
        return best;
    }

    std::string source_;
    std::vector<set_override> overrides_;
};

// ---- run parameters ----------------------------------------------------------

// Reads the run parameters present in `map` into axes keyed by name.
void read_run_params(const reader& r, const YAML::Node& map, const std::string& path,
                     std::map<std::string, axis<run_params>>& out) {
    for (const auto& pair : map) {
        const std::string key = pair.first.Scalar();
        if (const field<run_params>* f = find_field(run_fields(), key))
            out[key] = r.field_axis(pair.second, child_path(path, key), *f);
    }
}

// ---- datasets ----------------------------------------------------------------

struct dataset_entry {
    YAML::Node node;
    std::string path;  // "datasets[0]"
    std::string name;  // explicit name or ""
    dataset_spec base; // origin set; everything else comes from the axes
    std::vector<axis<dataset_spec>> axes;
    std::map<std::string, YAML::Node> given; // distribution parameters given, for the applicability check
    YAML::Node shape_node;                   // `shape:`, for messages
};

// Which distribution uses a parameter key.
std::optional<distribution> parameter_owner(const std::string& key) {
    if (key == "mean" || key == "stddev") return distribution::normal;
    if (key == "value") return distribution::constant;
    if (key == "low" || key == "high") return distribution::integers;
    return std::nullopt;
}

option_list read_options_map(const reader& r, const YAML::Node& n, const std::string& path) {
    r.require_map(n, path, "a map of option names to values, like {level: 6}");
    r.check_keys(n, path, nullptr);
    option_list out;
    for (const auto& pair : n) {
        const std::string p = child_path(path, pair.first.Scalar());
        out.emplace_back(pair.first.Scalar(), r.single_string(pair.second, p, "a single value"));
    }
    return out;
}

std::filesystem::path relative_to_study(const std::string& source_file, const std::string& path) {
    std::filesystem::path p(path);
    if (p.is_absolute() || source_file.empty()) return p;
    return (std::filesystem::path(source_file).parent_path() / p).lexically_normal();
}

dataset_entry read_dataset(const reader& r, const YAML::Node& n, const std::string& path,
                           const std::string& source_file) {
    dataset_entry e;
    e.node = n;
    e.path = path;
    r.require_map(n, path, "a dataset (a map with keys like dtype, count and distribution)");
    static const auto keys = detail::dataset_keys();
    r.check_keys(n, path, &keys);
    e.base.origin = r.where(n, path);

    const YAML::Node from_file = n["from_file"];
    std::set<distribution> dists;
    for (const auto& pair : n) {
        const YAML::Node key_node = pair.first;
        const std::string key = key_node.Scalar();
        const YAML::Node v = pair.second;
        const std::string p = child_path(path, key);
        if (from_file.IsDefined() && key != "from_file" && key != "name" && key != "dtype" && key != "count")
            r.fail(
                key_node, path,
                fmt::format("'{}' describes generated data and does not apply to a from_file dataset", key));
        if (key == "name") {
            e.name = r.single_string(v, p, "a name for the dataset");
        } else if (const field<dataset_spec>* f = find_field(dataset_fields(), key)) {
            e.axes.push_back(r.field_axis(v, p, *f));
            if (key == "distribution")
                for (auto& apply : e.axes.back().apply) {
                    dataset_spec probe;
                    apply(probe);
                    dists.insert(probe.dist);
                }
        } else if (key == "shape") {
            if (!v.IsSequence() || v.size() == 0 || v.size() > FB_MAX_NDIM)
                r.fail(v, p,
                       fmt::format("expected a list of 1 to {} extents, row-major, e.g. [64, 128, 256]",
                                   FB_MAX_NDIM));
            std::uint64_t product = 1;
            for (std::size_t k = 0; k < v.size(); ++k) {
                const std::string at = fmt::format("{}[{}]", p, k);
                const std::optional<std::uint64_t> x =
                    v[k].IsScalar() ? syntaxes::count.parse(v[k].Scalar()) : std::nullopt;
                if (!x || *x == 0) r.fail(v[k], at, "expected a whole number of elements, 1 or more");
                if (product > UINT64_MAX / *x) r.fail(v, p, "the shape has more elements than 64 bits count");
                product *= *x;
                e.base.shape.push_back(*x);
            }
            e.shape_node = v;
        } else if (key == "from_file") {
            r.require_map(v, p, "a map with path, plugin and options");
            r.check_keys(v, p, &detail::from_file_keys);
            const YAML::Node file = v["path"];
            const YAML::Node plugin = v["plugin"];
            if (!file.IsDefined()) r.fail(v, p, "missing required key 'path' (the file to read)");
            if (!plugin.IsDefined())
                r.fail(v, p, "missing required key 'plugin' (the plugin that reads the file)");
            e.base.file =
                relative_to_study(source_file, r.single_string(file, p + ".path", "a file path")).string();
            e.base.file_plugin = r.single_string(plugin, p + ".plugin", "a plugin id");
            if (const YAML::Node o = v["options"]; o.IsDefined())
                e.base.file_options = read_options_map(r, o, p + ".options");
        }
        if (parameter_owner(key)) e.given[key] = key_node;
    }
    if (from_file.IsDefined() && !n["count"].IsDefined())
        r.fail(n, path, "a from_file dataset needs 'count' (the number of elements to read from the file)");
    // With a shape, count is its product: given, it must agree.
    if (!e.base.shape.empty() && !n["count"].IsDefined()) {
        std::uint64_t product = 1;
        for (std::uint64_t x : e.base.shape)
            product *= x;
        e.base.count = product;
    }
    if (dists.empty()) dists.insert(distribution::uniform);
    for (const auto& [key, key_node] : e.given) {
        distribution owner = *parameter_owner(key);
        if (!dists.count(owner))
            r.fail(key_node, path,
                   fmt::format("'{}' applies only to distribution {}; this dataset's distribution is {}", key,
                               to_string(owner), to_string(*dists.begin())));
    }
    return e;
}

// The value range a dtype holds, for checks of integer ranges: compared as
// integers, since a double cannot tell 2^63 - 1 from 2^63.
bool fits(dtype d, std::int64_t v) {
    switch (d) {
    case FB_DTYPE_U8: return v >= 0 && v <= 255;
    case FB_DTYPE_I32:
        return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
    default: return true; // i64 holds every int64; floats take any value, rounded
    }
}

// The same for a constant, which the study gives as a number.
bool fits(dtype d, double v) {
    switch (d) {
    case FB_DTYPE_U8: return v >= 0 && v <= 255;
    case FB_DTYPE_I32:
        return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
    case FB_DTYPE_I64: return v >= -9.2233720368547758e18 && v < 9.2233720368547758e18;
    default: return true;
    }
}

bool is_integer_dtype(dtype d) {
    return d == FB_DTYPE_U8 || d == FB_DTYPE_I32 || d == FB_DTYPE_I64;
}

std::string derived_dataset_name(const dataset_spec& d) {
    std::string what = d.file.empty() ? to_string(d.dist) : std::filesystem::path(d.file).stem().string();
    if (!d.shape.empty()) { // f64-smooth-64x128x256
        std::string extents;
        for (std::uint64_t x : d.shape)
            extents += (extents.empty() ? "" : "x") + std::to_string(x);
        return fmt::format("{}-{}-{}", dtype_name(d.type), what, extents);
    }
    return fmt::format("{}-{}-{}", dtype_name(d.type), what, detail::short_count(d.count));
}

// Expands one dataset entry and checks what only the combined values show.
std::vector<dataset_spec> expand_dataset(const reader& r, const dataset_entry& e) {
    std::vector<detail::expanded<dataset_spec>> all;
    try {
        all = detail::cartesian(e.base, e.axes, "dataset");
    } catch (const config_error&) {
        throw;
    } catch (const usage_error& err) {
        r.fail(e.node, e.path, err.what());
    }
    std::vector<dataset_spec> out;
    for (auto& x : all) {
        dataset_spec d = std::move(x.spec);
        // A derived name already shows dtype, distribution and count.
        d.name = e.name.empty() ? derived_dataset_name(d) : e.name;
        for (const auto& [key, text] : x.swept)
            if (!e.name.empty() || (key != "dtype" && key != "distribution" && key != "count"))
                d.name += fmt::format(" {}={}", key, text);
        if (!d.shape.empty()) {
            std::uint64_t product = 1;
            for (std::uint64_t x : d.shape)
                product *= x;
            if (product != d.count)
                r.fail(e.shape_node, e.path + ".shape",
                       fmt::format("shape {} holds {} elements, but count is {}; give one of them, or make "
                                   "them agree",
                                   shape_text(d.shape), product, d.count));
        }
        // Every byte count of a case derives from the payload: it must fit.
        if (const std::uint64_t size = dtype_size(d.type); d.count > UINT64_MAX / size)
            r.fail(e.node, e.path,
                   fmt::format("count {} of {} is more bytes than 64 bits can count ({} values at most)",
                               d.count, dtype_name(d.type), UINT64_MAX / size));
        if (d.file.empty()) {
            if (d.dist == distribution::integers) {
                if (d.low > d.high)
                    r.fail(e.node, e.path, fmt::format("low ({}) is above high ({})", d.low, d.high));
                if (is_integer_dtype(d.type) && (!fits(d.type, d.low) || !fits(d.type, d.high)))
                    r.fail(e.node, e.path,
                           fmt::format("the integer range [{}, {}] does not fit dtype {}", d.low, d.high,
                                       dtype_name(d.type)));
            }
            if (d.dist == distribution::normal && d.stddev < 0)
                r.fail(e.node, e.path, fmt::format("stddev must not be negative, got {}", d.stddev));
            if (d.dist == distribution::constant && is_integer_dtype(d.type) &&
                (!fits(d.type, d.value) || d.value != std::floor(d.value)))
                r.fail(e.node, e.path,
                       fmt::format("value {} is not representable in dtype {}", d.value, dtype_name(d.type)));
        }
        out.push_back(std::move(d));
    }
    return out;
}

// ---- formats -----------------------------------------------------------------

struct format_entry {
    YAML::Node node;
    std::string path;  // "formats[1]"
    std::string label; // explicit label or ""
    format_spec base;
    std::vector<axis<format_spec>> axes;
    std::map<std::string, axis<run_params>> run_overrides;
};

format_entry read_format(const reader& r, const YAML::Node& n, const std::string& path) {
    using fs = format_spec;
    format_entry e;
    e.node = n;
    e.path = path;
    e.base.origin = r.where(n, path);
    static const syntax<std::string> plugin_syntax{[](const std::string& s) -> std::optional<std::string> {
                                                       if (s.empty()) return std::nullopt;
                                                       return s;
                                                   },
                                                   "a plugin id like raw or zlib"};
    // `- raw` is shorthand for `- plugin: raw`.
    if (n.IsScalar()) {
        e.axes.push_back(
            r.make_axis<fs>(n, path, "plugin", plugin_syntax, [](fs& s, std::string x) { s.plugin = x; }));
        return e;
    }
    r.require_map(n, path, "a format (a map with plugin, label, options), or a plugin id");
    const auto keys = detail::format_keys();
    r.check_keys(n, path, &keys);
    const YAML::Node plugin = n["plugin"];
    if (!plugin.IsDefined())
        r.fail(n, path, "missing required key 'plugin' (a plugin id, see `formatbench plugins`)");
    e.axes.push_back(r.make_axis<fs>(plugin, path + ".plugin", "plugin", plugin_syntax,
                                     [](fs& s, std::string x) { s.plugin = x; }));
    if (const YAML::Node label = n["label"]; label.IsDefined()) {
        e.label = r.single_string(label, path + ".label", "a label (a single string)");
        if (e.label.empty()) r.fail(label, path + ".label", "the label must not be empty");
    }
    if (const YAML::Node optional = n["optional"]; optional.IsDefined())
        e.base.optional = r.single(optional, path + ".optional", syntaxes::boolean);
    if (const YAML::Node tolerance = n["tolerance"]; tolerance.IsDefined()) {
        const std::string p = path + ".tolerance";
        r.require_map(tolerance, p, "a map with abs, rel or both, like {abs: 1e-6} or {rel: 1e-4}");
        r.check_keys(tolerance, p, &detail::tolerance_keys);
        static const syntax<double> bound{[](const std::string& t) -> std::optional<double> {
                                              auto v = detail::parse_real(t);
                                              if (!v || !(*v >= 0) || !std::isfinite(*v)) return std::nullopt;
                                              return v;
                                          },
                                          "a number of 0 or more, like 1e-6"};
        if (const YAML::Node v = tolerance["abs"]; v.IsDefined())
            e.base.tolerance.abs = r.single(v, p + ".abs", bound);
        if (const YAML::Node v = tolerance["rel"]; v.IsDefined())
            e.base.tolerance.rel = r.single(v, p + ".rel", bound);
        if (!e.base.tolerance.given()) r.fail(tolerance, p, "give abs, rel or both, like {abs: 1e-6}");
    }
    if (const YAML::Node options = n["options"]; options.IsDefined()) {
        const std::string p = path + ".options";
        r.require_map(options, p, "a map of option names to values (or lists of values), like {level: 6}");
        r.check_keys(options, p, nullptr);
        static const syntax<std::string> option_syntax{
            [](const std::string& s) { return std::optional<std::string>(s); }, "an option value"};
        for (const auto& pair : options) {
            const std::string name = pair.first.Scalar();
            e.axes.push_back(
                r.make_axis<fs>(pair.second, child_path(p, name), name, option_syntax,
                                [name](fs& s, std::string x) { s.options.emplace_back(name, x); }));
        }
    }
    read_run_params(r, n, path, e.run_overrides);
    return e;
}

// ---- top level ---------------------------------------------------------------

std::vector<output_spec> read_outputs(const reader& r, const YAML::Node& n) {
    const std::string path = "outputs";
    if (!n.IsSequence())
        r.fail(n, path, "expected a list of outputs like [{format: json, path: results.json}]");
    // Any name here: the output table (report/outputs.hpp) checks it, with
    // this position, before anything runs.
    static const syntax<std::string> format_syntax{[](const std::string& s) -> std::optional<std::string> {
                                                       if (s.empty()) return std::nullopt;
                                                       return s;
                                                   },
                                                   "an output format such as json or csv"};
    std::vector<output_spec> out;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const YAML::Node item = n[i];
        const std::string p = fmt::format("{}[{}]", path, i);
        output_spec o;
        if (item.IsScalar()) {
            // `- console` is shorthand for `- {format: console}`.
            o.format = r.single(item, p, format_syntax);
            o.origin = r.where(item, p);
        } else {
            r.require_map(item, p, "an output (a map with format and path), or a format name");
            r.check_keys(item, p, &detail::output_keys);
            const YAML::Node format = item["format"];
            if (!format.IsDefined()) r.fail(item, p, "missing required key 'format' (json, csv, ...)");
            o.format = r.single(format, p + ".format", format_syntax);
            o.origin = r.where(format, p + ".format");
            if (const YAML::Node path_node = item["path"]; path_node.IsDefined())
                o.path = r.single_string(path_node, p + ".path", "a file path ('-' for standard output)");
        }
        out.push_back(std::move(o));
    }
    return out;
}

// ---- workload ----------------------------------------------------------------

// One phase of `workload:`: a weight, or (a write may be) a map with
// `weight` and the work keys of its side, one value each.
workload_phase read_workload_phase(const reader& r, const YAML::Node& n, const std::string& path,
                                   bool write) {
    static const syntax<double> weight{[](const std::string& t) -> std::optional<double> {
                                           auto v = detail::parse_real(t);
                                           if (!v || !(*v >= 0) || !std::isfinite(*v)) return std::nullopt;
                                           return v;
                                       },
                                       "a weight, 0 or more, like 1 or 1e4 (how many times the phase runs)"};
    workload_phase w;
    w.origin = r.where(n, path);
    if (write && n.IsScalar()) {
        w.weight = r.single(n, path, weight);
        return w;
    }
    r.require_map(n, path,
                  write ? "a weight like 1, or a map like {weight: 1, chunk: 64KiB}"
                        : "a map like {access: random, access_block: 4KiB, weight: 1000}");
    const std::vector<std::string> allowed = detail::workload_phase_keys(write);
    for (const auto& pair : n) {
        const std::string key = pair.first.IsScalar() ? pair.first.Scalar() : "";
        const field<run_params>* f = find_field(run_fields(), key);
        if (write && f && f->read_side)
            r.fail(pair.first, path,
                   fmt::format("'{}' changes only the read phase; name it in a read of workload.reads", key));
        if (f && !contains(allowed, key))
            r.fail(pair.first, path,
                   fmt::format("'{}' says how many samples to take, not what work a phase does; the keys "
                               "here are: {}",
                               key, join(allowed)));
    }
    r.check_keys(n, path, &allowed);
    const YAML::Node wn = n["weight"];
    if (!wn.IsDefined())
        r.fail(n, path, "missing required key 'weight' (how many times the phase runs, like 1000)");
    w.weight = r.single(wn, child_path(path, "weight"), weight);
    for (const auto& f : run_fields()) {
        const YAML::Node v = n[f.key];
        if (!v.IsDefined()) continue;
        if (v.IsSequence())
            r.fail(v, child_path(path, f.key),
                   "a workload phase names one value; give each value its own read with its weight");
        r.single_field(v, child_path(path, f.key), f, w.params);
        w.keys.push_back(f.key);
    }
    return w;
}

// `workload: {write: W, reads: [{...}, ...]}`: at least one phase with a
// weight above 0.
workload_spec read_workload(const reader& r, const YAML::Node& n) {
    static const std::string example =
        "a map like {write: 1, reads: [{access: random, access_block: 4KiB, weight: 1000}]}";
    r.require_map(n, "workload", example);
    r.check_keys(n, "workload", &detail::workload_keys);
    workload_spec w;
    w.given = true;
    if (const YAML::Node v = n["write"]; v.IsDefined())
        w.write = read_workload_phase(r, v, "workload.write", true);
    if (const YAML::Node v = n["reads"]; v.IsDefined()) {
        if (!v.IsSequence() || v.size() == 0)
            r.fail(v, "workload.reads",
                   "expected a non-empty list of reads, like [{access: plane, weight: 100}]");
        for (std::size_t i = 0; i < v.size(); ++i)
            w.reads.push_back(read_workload_phase(r, v[i], fmt::format("workload.reads[{}]", i), false));
    }
    bool any = w.write.weight > 0;
    for (const workload_phase& p : w.reads)
        any |= p.weight > 0;
    if (!any) r.fail(n, "workload", "every weight is 0: give the write or a read a weight above 0");
    return w;
}

// Fills in what the study left to defaults, so the record shows every
// value the run used.
std::string resolved_text(const YAML::Node& root, const study& s) {
    YAML::Node out = YAML::Clone(root);
    if (!out.IsMap()) out.reset(YAML::Node(YAML::NodeType::Map));
    if (!out["name"].IsDefined()) out["name"] = s.name;
    YAML::Node defaults = out["defaults"];
    if (!defaults.IsMap()) {
        out["defaults"] = YAML::Node(YAML::NodeType::Map);
        defaults.reset(out["defaults"]);
    }
    const run_params p;
    for (const auto& f : run_fields())
        if (!defaults[f.key].IsDefined()) defaults[f.key] = f.text(p);
    // Study-wide settings as the run used them (the older `interleave` key
    // becomes the schedule it stood for).
    out.remove("interleave");
    for (const auto& f : study_fields())
        if (!out[f.key].IsDefined() || f.key == "schedule") out[f.key] = f.text(s);
    YAML::Emitter e;
    e << out;
    return std::string(e.c_str()) + "\n";
}

study read_study(YAML::Node root, const std::string& source, const std::string& source_file,
                 const std::vector<std::string>& sets) {
    auto overrides = detail::apply_sets(root, sets, source);
    reader r(source, overrides);
    // Only const lookups from here: yaml-cpp's non-const operator[] inserts
    // missing keys.
    const YAML::Node& study_root = root;
    if (!study_root.IsDefined() || study_root.IsNull())
        r.fail(study_root, "", "the study is empty; expected a map with at least 'datasets' and 'formats'");
    r.require_map(study_root, "", "the study to be a map of keys (name, datasets, formats, ...)");
    static const auto top_keys = detail::top_keys();
    r.check_keys(study_root, "", &top_keys);

    study s;
    s.source = source;
    if (const YAML::Node n = study_root["name"]; n.IsDefined())
        s.name = r.single_string(n, "name", "a study name");
    if (s.name.empty())
        s.name = source_file.empty() ? source : std::filesystem::path(source_file).stem().string();
    if (const YAML::Node n = study_root["description"]; n.IsDefined())
        s.description = r.single_string(n, "description", "a text");
    for (const auto& f : study_fields())
        if (const YAML::Node n = study_root[f.key]; n.IsDefined()) r.single_field(n, f.key, f, s);
    if (const YAML::Node n = study_root["interleave"]; n.IsDefined()) {
        static const syntax<bool> legacy{[](const std::string& t) { return detail::parse_bool(t); },
                                         "true or false (or use schedule: interleave)"};
        if (study_root["schedule"].IsDefined())
            r.fail(n, "interleave", "give either 'schedule' or the older 'interleave', not both");
        if (r.single(n, "interleave", legacy)) s.schedule = schedule_mode::interleave;
    }
    if (const YAML::Node n = study_root["outputs"]; n.IsDefined()) s.outputs = read_outputs(r, n);
    if (const YAML::Node n = study_root["plugin_path"]; n.IsDefined()) {
        std::vector<YAML::Node> items;
        if (n.IsSequence())
            for (const auto& item : n)
                items.push_back(item);
        else
            items.push_back(n);
        for (std::size_t i = 0; i < items.size(); ++i)
            s.plugin_path.push_back(
                relative_to_study(source_file, r.single_string(items[i], fmt::format("plugin_path[{}]", i),
                                                               "a folder path"))
                    .string());
    }

    // Run parameters for every case; formats override them key by key.
    std::map<std::string, axis<run_params>> defaults;
    if (const YAML::Node n = study_root["defaults"]; n.IsDefined()) {
        r.require_map(n, "defaults", "a map of run parameters like {repeat: 5, chunk: whole}");
        static const auto run_keys = detail::run_param_keys();
        r.check_keys(n, "defaults", &run_keys);
        read_run_params(r, n, "defaults", defaults);
    }

    const YAML::Node datasets = study_root["datasets"];
    if (!datasets.IsDefined())
        r.fail(study_root, "",
               "missing required key 'datasets' (a list of data sets, e.g. [{dtype: f64, count: 1e6}])");
    if (!datasets.IsSequence() || datasets.size() == 0)
        r.fail(datasets, "datasets",
               "expected a non-empty list of datasets, got " +
                   (datasets.IsSequence() ? std::string("an empty list") : describe(datasets)));
    const YAML::Node formats = study_root["formats"];
    if (!formats.IsDefined())
        r.fail(study_root, "", "missing required key 'formats' (a list of formats, e.g. [{plugin: raw}])");
    if (!formats.IsSequence() || formats.size() == 0)
        r.fail(formats, "formats",
               "expected a non-empty list of formats, got " +
                   (formats.IsSequence() ? std::string("an empty list") : describe(formats)));

    // Datasets, expanded, with unique names.
    std::vector<dataset_spec> all_datasets;
    std::map<std::string, std::string> dataset_at; // name -> path of its first entry
    for (std::size_t i = 0; i < datasets.size(); ++i) {
        const std::string path = fmt::format("datasets[{}]", i);
        auto entry = read_dataset(r, datasets[i], path, source_file);
        for (auto& d : expand_dataset(r, entry)) {
            auto [at, inserted] = dataset_at.emplace(d.name, path);
            if (!inserted)
                r.fail(
                    entry.node, path,
                    fmt::format("dataset name '{}' is already used by {}; give each dataset its own 'name'",
                                d.name, at->second));
            all_datasets.push_back(std::move(d));
        }
    }

    // Formats, expanded, with unique labels; each keeps its run-parameter axes.
    struct expanded_format {
        format_spec spec;
        std::vector<axis<run_params>> params;
        const format_entry* entry;
    };
    std::vector<format_entry> format_entries;
    format_entries.reserve(formats.size());
    for (std::size_t i = 0; i < formats.size(); ++i)
        format_entries.push_back(read_format(r, formats[i], fmt::format("formats[{}]", i)));
    std::vector<expanded_format> all_formats;
    std::map<std::string, std::string> label_at;
    std::set<std::string> base_labels;
    for (const auto& entry : format_entries) {
        std::vector<detail::expanded<format_spec>> variants;
        try {
            variants = detail::cartesian(entry.base, entry.axes, "format");
        } catch (const config_error&) {
            throw;
        } catch (const usage_error& err) {
            r.fail(entry.node, entry.path, err.what());
        }
        std::map<std::string, axis<run_params>> merged = defaults;
        for (const auto& [key, a] : entry.run_overrides)
            merged[key] = a;
        std::vector<axis<run_params>> params;
        for (const auto& f : run_fields())
            if (auto it = merged.find(f.key); it != merged.end()) params.push_back(it->second);
        for (auto& v : variants) {
            format_spec f = std::move(v.spec);
            // A label names the format as the user knows it; swept values are
            // appended so that every variant has its own ("zlib level=1").
            f.base_label = entry.label.empty() ? f.plugin : entry.label;
            f.label = f.base_label;
            for (const auto& [key, text] : v.swept)
                if (!entry.label.empty() || key != "plugin") f.label += fmt::format(" {}={}", key, text);
            auto [at, inserted] = label_at.emplace(f.label, entry.path);
            if (!inserted)
                r.fail(
                    entry.node, entry.path,
                    fmt::format("format label '{}' is already used by {}; give one of them its own 'label'",
                                f.label, at->second));
            base_labels.insert(f.base_label);
            all_formats.push_back({std::move(f), params, &entry});
        }
    }

    // A label of a format (before or after expansion), or an error listing them.
    auto check_label = [&](const YAML::Node& n, const std::string& path, const std::string& label) {
        if (label_at.count(label) || base_labels.count(label)) return;
        std::vector<std::string> labels;
        for (const auto& f : all_formats)
            labels.push_back(f.spec.label);
        r.fail(n, path,
               fmt::format("no format is labelled '{}'{}; the labels are: {}", label,
                           did_you_mean(label, labels), join(labels)));
    };
    if (const YAML::Node n = study_root["baseline"]; n.IsDefined()) {
        // One label, or a list: the first whose format runs (optional formats).
        if (n.IsSequence()) {
            if (n.size() == 0) r.fail(n, "baseline", "an empty list names no baseline; give a format label");
            for (std::size_t i = 0; i < n.size(); ++i)
                s.baseline_choices.push_back(
                    r.single_string(n[i], fmt::format("baseline[{}]", i), "a format label"));
        } else {
            s.baseline_choices.push_back(
                r.single_string(n, "baseline", "a format label, or a list of them in order of preference"));
        }
        for (std::size_t i = 0; i < s.baseline_choices.size(); ++i)
            check_label(n.IsSequence() ? n[i] : n,
                        n.IsSequence() ? fmt::format("baseline[{}]", i) : "baseline", s.baseline_choices[i]);
        s.baseline = s.baseline_choices.front();
    }
    // `format` and `against` of a published speed-up or a pair: two format labels.
    auto read_labels = [&](const YAML::Node& item, const std::string& p) {
        format_pair labels;
        for (const char* key : {"format", "against"}) {
            const YAML::Node v = item[key];
            if (!v.IsDefined())
                r.fail(item, p, fmt::format("missing required key '{}' (a format label)", key));
            std::string& label = std::string(key) == "format" ? labels.format : labels.against;
            label = r.single_string(v, p + "." + key, "a format label");
            check_label(v, p + "." + key, label);
        }
        return labels;
    };
    if (const YAML::Node n = study_root["published"]; n.IsDefined()) {
        if (!n.IsSequence())
            r.fail(n, "published",
                   "expected a list of published speed-ups, like [{format: raw, against: ascii, write: 62.5, "
                   "read: 325, source: the tip}], got " +
                       describe(n));
        static const syntax<double> factor{[](const std::string& t) -> std::optional<double> {
                                               auto v = detail::parse_real(t);
                                               if (!v || !(*v > 0) || !std::isfinite(*v)) return std::nullopt;
                                               return v;
                                           },
                                           "a speed-up factor more than 0, like 62.5"};
        for (std::size_t i = 0; i < n.size(); ++i) {
            const std::string p = fmt::format("published[{}]", i);
            const YAML::Node item = n[i];
            r.require_map(item, p, "a map with format, against, write and/or read, source");
            r.check_keys(item, p, &detail::published_keys);
            published_speedup e;
            const format_pair labels = read_labels(item, p);
            e.format = labels.format;
            e.against = labels.against;
            if (const YAML::Node v = item["write"]; v.IsDefined())
                e.write = r.single(v, p + ".write", factor);
            if (const YAML::Node v = item["read"]; v.IsDefined()) e.read = r.single(v, p + ".read", factor);
            if (!std::isfinite(e.write) && !std::isfinite(e.read))
                r.fail(item, p, "give the published speed-up of 'write', 'read' or both");
            if (const YAML::Node v = item["source"]; v.IsDefined())
                e.source = r.single_string(v, p + ".source", "a text saying who measured it");
            s.published.push_back(std::move(e));
        }
    }

    if (const YAML::Node n = study_root["pairs"]; n.IsDefined()) {
        if (!n.IsSequence())
            r.fail(n, "pairs",
                   "expected a list of format pairs, like [{format: py-h5py, against: hdf5}], got " +
                       describe(n));
        for (std::size_t i = 0; i < n.size(); ++i) {
            const std::string p = fmt::format("pairs[{}]", i);
            const YAML::Node item = n[i];
            r.require_map(item, p, "a map with format and against (format labels)");
            r.check_keys(item, p, &detail::pair_keys);
            format_pair e = read_labels(item, p);
            if (e.format == e.against) r.fail(item, p, "a pair of one format with itself: name two formats");
            s.pairs.push_back(std::move(e));
        }
    }

    if (const YAML::Node n = study_root["workload"]; n.IsDefined()) s.workload = read_workload(r, n);

    // Cases: datasets outermost, then formats, then run parameters.
    std::vector<const format_entry*> entry_of; // by case index, for messages
    for (const auto& d : all_datasets) {
        for (const auto& f : all_formats) {
            std::vector<detail::expanded<run_params>> runs;
            try {
                runs = detail::cartesian(run_params{}, f.params, "run parameters");
            } catch (const usage_error& err) {
                r.fail(f.entry->node, f.entry->path, err.what());
            }
            for (auto& run : runs) {
                case_spec c;
                c.index = s.cases.size();
                c.dataset = d;
                c.format = f.spec;
                c.params = run.spec;
                s.cases.push_back(std::move(c));
                entry_of.push_back(f.entry);
                if (s.cases.size() > detail::max_cases)
                    r.fail(study_root, "",
                           fmt::format("the study expands to more than {} cases", detail::max_cases));
            }
        }
    }
    assign_identities(s.cases);
    // Cases with one key are one measurement: kept once where they differ
    // only in keys that do not apply to them, a mistake otherwise.
    std::map<std::string, std::size_t> key_at;
    std::vector<case_spec> kept;
    for (case_spec& c : s.cases) {
        auto [at, inserted] = key_at.emplace(c.key, kept.size());
        if (!inserted) {
            const case_spec& first = kept[at->second];
            if (differ_only_where_void(first.params, c.params)) continue;
            r.fail(entry_of[c.index]->node, entry_of[c.index]->path,
                   fmt::format("cases {} and {} are the same measurement (a sweep lists one value twice?)",
                               first.index, c.index));
        }
        kept.push_back(std::move(c));
    }
    const bool dropped = kept.size() != s.cases.size();
    s.cases = std::move(kept);
    if (dropped) {
        for (std::size_t i = 0; i < s.cases.size(); ++i)
            s.cases[i].index = i;
        assign_identities(s.cases); // what varies among the cases kept
    }
    check_workload(s);
    s.resolved_yaml = resolved_text(root, s);
    return s;
}

// YAML (1.2) study files are UTF-8; yaml-cpp would pass invalid bytes
// through plain scalars but replace them when the study is written back
// (resolved_yaml), so the record would not name what the file said.
void check_sets_utf8(const std::vector<std::string>& sets) {
    for (const auto& set : sets)
        if (first_invalid_utf8(set) != std::string_view::npos)
            throw usage_error(fmt::format("--set: not valid UTF-8: '{}'", set));
}

// YAML 1.2 (5.4) reads CR LF, CR and LF alike as a line break and normalises
// them to LF; yaml-cpp does so only where a CR is followed by LF, and keeps a
// lone CR (at the end of the file, or a file saved with CR line ends) inside a
// plain scalar. Written back (resolved_yaml), that CR is followed by LF and
// read as a line break, so the record would name another study. Normalising
// first makes both reads agree (found by fuzz_study).
std::string normalize_line_breaks(std::string text) {
    if (text.find('\r') == std::string::npos) return text;
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r') {
            out += text[i];
        } else {
            out += '\n';
            if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
        }
    }
    return out;
}

std::vector<std::string> normalize_line_breaks(std::vector<std::string> sets) {
    for (auto& set : sets)
        set = normalize_line_breaks(std::move(set));
    return sets;
}

YAML::Node parse_study_yaml(const std::string& raw_text, const std::string& source) {
    const std::string text = normalize_line_breaks(raw_text);
    if (std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
        std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + bad, '\n'));
        std::size_t line_start = text.rfind('\n', bad == 0 ? 0 : bad - 1);
        std::size_t column = bad - (line_start == std::string::npos || bad == 0 ? 0 : line_start + 1) + 1;
        throw config_error(fmt::format("{}:{}:{}: not valid UTF-8 (byte 0x{:02x}); save the study as UTF-8",
                                       source, line, column, static_cast<unsigned char>(text[bad])));
    }
    try {
        return YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw config_error(
            fmt::format("{}:{}:{}: invalid YAML: {}", source, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
}

} // namespace

study load_study_text(const std::string& text, const std::string& source,
                      const std::vector<std::string>& sets) {
    check_sets_utf8(sets);
    return read_study(parse_study_yaml(text, source), source, "", normalize_line_breaks(sets));
}

study load_study_file(const std::string& path, const std::vector<std::string>& sets) {
    const std::string text = read_text_file(path, max_study_bytes, "study");
    check_sets_utf8(sets);
    return read_study(parse_study_yaml(text, path), path, path, normalize_line_breaks(sets));
}

void set_study_setting(study& s, const std::string& key, const std::string& value, const std::string& flag) {
    const field<study>* f = find_field(study_fields(), key);
    if (!f) throw usage_error(fmt::format("{}: '{}' is not a study setting", flag, key));
    auto set = f->parse(value);
    if (!set) throw usage_error(fmt::format("{}: expected {}, got '{}'", flag, f->expected, value));
    (*set)(s);
    YAML::Node resolved = YAML::Load(s.resolved_yaml);
    if (!resolved.IsMap()) resolved = YAML::Node(YAML::NodeType::Map);
    resolved[key] = f->text(s);
    YAML::Emitter e;
    e << resolved;
    s.resolved_yaml = std::string(e.c_str()) + "\n";
}

} // namespace formatbench

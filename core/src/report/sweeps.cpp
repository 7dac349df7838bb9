// Sweep detection and faceting (sweeps.hpp).
#include "report/sweeps.hpp"

#include "base/dtype.hpp"
#include "report/facets.hpp"
#include "report/units.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace formatbench {
namespace {

bool parse_number(const std::string& text, double& out) {
    if (text.empty()) return false;
    std::size_t used = 0;
    try {
        out = std::stod(text, &used);
    } catch (const std::exception&) {
        return false;
    }
    return used == text.size() && std::isfinite(out);
}

struct attribute {
    std::string name;     // "record", "format", "option level", "dtype", "data", "count", run field keys
    std::string exact;    // identifies the value ("65536")
    svg::rich_text shown; // as people read it ("chunk 64 KiB")
};

// One case: its attributes in a fixed order, and those that are numbers.
struct described {
    const sweep_case* source = nullptr;
    std::vector<attribute> attributes;
    std::map<std::string, double> numeric; // parameter -> value
};

described describe(const sweep_case& s, const std::vector<std::string>& record_names) {
    described d;
    d.source = &s;
    const case_spec& spec = s.c->spec;
    const dataset_spec& ds = spec.dataset;
    auto add = [&](std::string name, std::string exact, svg::rich_text shown) {
        d.attributes.push_back({std::move(name), std::move(exact), std::move(shown)});
    };
    add("record", std::to_string(s.record), s.record < record_names.size() ? record_names[s.record] : "");
    const std::string format = !spec.format.base_label.empty() ? spec.format.base_label : spec.format.plugin;
    add("format", format, format);
    for (const auto& [k, v] : spec.format.options) {
        add("option " + k, v, k + "=" + v);
        if (double x = 0; parse_number(v, x)) d.numeric["option " + k] = x;
    }
    add("dtype", dtype_name(ds.type), dtype_name(ds.type));
    const std::string data = ds.file.empty() ? fmt::format("{} seed={}", to_string(ds.dist), ds.seed)
                                             : fmt::format("{} via {}", ds.file, ds.file_plugin);
    add("data", data, data);
    add("count", std::to_string(ds.count),
        "count " + svg::format_value(static_cast<double>(ds.count), svg::quantity::count));
    d.numeric["count"] = static_cast<double>(ds.count);
    const run_params& p = spec.params;
    for (const auto& f : run_fields()) {
        if (f.identity == identity_never) continue;
        const std::string exact = f.identity_text ? f.identity_text(p) : f.text(p);
        if (f.key == "chunk") {
            add(f.key, exact, "chunk " + (p.chunk_bytes ? detail::format_chunk(p.chunk_bytes) : "whole"));
            if (p.chunk_bytes > 0) d.numeric["chunk"] = static_cast<double>(p.chunk_bytes);
        } else {
            add(f.key, exact, f.label_prefix + f.text(p));
        }
    }
    return d;
}

std::string parameter_title(const std::string& p) {
    if (p == "chunk") return "chunk size";
    if (p.starts_with("option ")) return p.substr(7);
    return p;
}

bool compared(const std::string& name) {
    return name == "record" || name == "format" || name.starts_with("option ");
}

// A family of cases that differ only in the swept parameter.
struct family {
    std::vector<const described*> cases;
    std::vector<const attribute*> attributes; // all but the parameter
};

// One style per line key, the same in every chart, different among the
// lines of a chart: greedy colouring of the graph of keys that share a
// chart, keys in order of first appearance, so each chart starts from the
// first (solid, most distinct) styles.
void assign_styles(std::vector<sweep_chart>& charts) {
    std::vector<std::string> order;
    std::map<std::string, std::set<std::string>> neighbours;
    for (const sweep_chart& c : charts)
        for (const sweep_line& l : c.lines) {
            if (!neighbours.count(l.key)) order.push_back(l.key);
            auto& n = neighbours[l.key];
            for (const sweep_line& m : c.lines)
                if (m.key != l.key) n.insert(m.key);
        }
    std::map<std::string, std::size_t> styles;
    for (const std::string& key : order) {
        std::set<std::size_t> taken;
        for (const std::string& n : neighbours[key])
            if (styles.count(n)) taken.insert(styles[n]);
        std::size_t s = 0;
        while (taken.count(s))
            ++s;
        styles[key] = s;
    }
    for (sweep_chart& c : charts)
        for (sweep_line& l : c.lines)
            l.style = styles[l.key];
}

sweep make_sweep(const std::string& p, const std::vector<family>& families, bool several) {
    sweep sw;
    sw.parameter = p;
    sw.title = parameter_title(p);
    sw.quantity = p == "count"   ? svg::quantity::count
                  : p == "chunk" ? svg::quantity::bytes
                                 : svg::quantity::plain;
    double lo = INFINITY, hi = -INFINITY;
    for (const family& f : families)
        for (const described* d : f.cases)
            lo = std::min(lo, d->numeric.at(p)), hi = std::max(hi, d->numeric.at(p));
    if (lo > 0 && p == "chunk")
        sw.scale = svg::scale_kind::log2;
    else if (lo > 0 && hi / lo >= 10)
        sw.scale = svg::scale_kind::log10;

    std::vector<facet_attributes> lines;
    for (const family& f : families) {
        facet_attributes a;
        for (const attribute* at : f.attributes)
            a.emplace_back(at->name, at->exact);
        lines.push_back(std::move(a));
    }
    const facet_plan plan = plan_facets(lines, compared, max_lines_per_chart);
    const std::set<std::string> series(plan.series.begin(), plan.series.end());

    for (const facet_chart& fc : plan.charts) {
        sweep_chart chart;
        chart.part = fc.part;
        chart.parts = fc.parts;
        nlohmann::json facet_json = nlohmann::json::object();
        const family& first = families[fc.lines.front()];
        for (const auto& [name, exact] : fc.fixed) {
            const std::string& wanted = name; // clang 14 cannot capture a structured binding
            const auto it = std::find_if(first.attributes.begin(), first.attributes.end(),
                                         [&](const attribute* a) { return a->name == wanted; });
            const svg::rich_text shown = it != first.attributes.end() ? (*it)->shown : svg::rich_text(exact);
            if (!chart.facet.empty()) chart.facet += ", ";
            chart.facet += shown;
            if (!chart.id.empty()) chart.id += '-';
            chart.id += shown.plain();
            facet_json[name] = exact;
        }
        chart.facet_json = facet_json.dump();
        for (std::size_t i : fc.lines) {
            const family& f = families[i];
            svg::rich_text record, name;
            for (const attribute* a : f.attributes) {
                if (a->name == "record") {
                    if (several) record = a->shown + ": ";
                } else if (a->name == "format") {
                    name = a->shown + name;
                } else if (a->name.starts_with("option ")) {
                    name += " " + a->shown;
                } else if (series.count(a->name)) {
                    name += ", " + a->shown;
                }
            }
            sweep_line line;
            line.name = record + name;
            line.key = line.name.plain();
            for (const described* d : f.cases)
                line.points.push_back({d->numeric.at(p), d->source});
            std::stable_sort(line.points.begin(), line.points.end(),
                             [](const sweep_point& a, const sweep_point& b) { return a.x < b.x; });
            chart.lines.push_back(std::move(line));
        }
        sw.charts.push_back(std::move(chart));
    }
    assign_styles(sw.charts);
    return sw;
}

} // namespace

std::vector<sweep> find_sweeps(const std::vector<sweep_case>& cases,
                               const std::vector<std::string>& record_names) {
    std::vector<described> all;
    for (const sweep_case& s : cases)
        all.push_back(describe(s, record_names));
    std::set<std::string> params;
    for (const described& d : all)
        for (const auto& [k, v] : d.numeric)
            params.insert(k);
    std::vector<sweep> out;
    for (const std::string& p : params) {
        std::map<std::string, std::size_t> index;
        std::vector<family> families;
        for (const described& d : all) {
            if (!d.numeric.count(p)) continue;
            std::string identity;
            std::vector<const attribute*> rest;
            for (const attribute& a : d.attributes)
                if (a.name != p) {
                    identity += a.name + "=" + a.exact + ";";
                    rest.push_back(&a);
                }
            const auto [it, added] = index.emplace(identity, families.size());
            if (added) families.push_back({{}, rest});
            families[it->second].cases.push_back(&d);
        }
        std::vector<family> swept;
        for (family& f : families) {
            std::set<double> values;
            for (const described* d : f.cases)
                values.insert(d->numeric.at(p));
            if (values.size() >= 2) swept.push_back(std::move(f));
        }
        if (!swept.empty()) out.push_back(make_sweep(p, swept, record_names.size() > 1));
    }
    return out;
}

} // namespace formatbench

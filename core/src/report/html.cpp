// The HTML report (see html.hpp). Every figure comes from the records through
// the same helpers as the console and Markdown tables (table.hpp), so the
// report never disagrees with them:
//  - throughput = payload bytes / 10^6 / median time (MB/s); its error bar
//    spans the per-repetition throughputs (min..max);
//  - speed-up = baseline median / case median, per phase (table.hpp);
//  - round-trip throughput (scatter) = payload / 10^6 / (write median + read
//    median); a point is on the Pareto front when no other case of the same
//    data set and record has both a higher-or-equal size ratio and a
//    higher-or-equal round-trip throughput (one of them strictly);
//  - sweeps: a numeric parameter (count, chunk size, a numeric plugin option)
//    is a sweep where cases that agree on everything else take two or more
//    values of it; each such family is one line of time vs parameter.
// Output is XHTML-compatible (every element closed, text escaped), so an XML
// parser reads it; the tests do exactly that.
#include "report/html.hpp"

#include "report/svg.hpp"
#include "report/table.hpp"
#include "report/units.hpp"
#include "results/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace formatbench {
namespace {

using svg::escape;

constexpr const char* style = R"css(
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.1em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.context { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; font-size: 0.9em; }
dl.context dt { font-weight: bold; } dl.context dd { margin: 0; }
figure { margin: 1em 0; overflow-x: auto; } figcaption { font-size: 0.85em; color: #555; }
.note { font-size: 0.85em; color: #555; } .bad { color: #a00; }
ul.legend-text { font-size: 0.85em; color: #444; }
)css";

struct entry {
    const report_input* input;
    std::size_t file_index;
    const case_result* c;
    std::string row; // row label within its data set (table.hpp)
};

double median_of(const std::vector<double>& v) {
    return v.empty() ? not_a_number : summarize(v).median;
}

// min..max of the per-repetition throughputs of a phase.
std::pair<double, double> throughput_range(const std::vector<double>& times, std::uint64_t payload) {
    double lo = not_a_number, hi = not_a_number;
    for (double t : times) {
        const double v = throughput_mb_s(payload, t);
        if (!std::isfinite(v)) continue;
        lo = std::isfinite(lo) ? std::min(lo, v) : v;
        hi = std::isfinite(hi) ? std::max(hi, v) : v;
    }
    return {lo, hi};
}

// A chart id safe as a file name and unique in the report.
class id_maker {
public:
    std::string make(const std::string& text) {
        std::string id;
        for (char ch : text) {
            const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                            (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_';
            id += ok ? ch : '_';
        }
        if (id.size() > 80) id.resize(80);
        std::string unique = id;
        for (int n = 2; !used_.insert(unique).second; ++n)
            unique = fmt::format("{}-{}", id, n);
        return unique;
    }

private:
    std::set<std::string> used_;
};

bool wide_range(const std::vector<double>& values, double factor) {
    double lo = INFINITY, hi = 0;
    for (double v : values)
        if (std::isfinite(v) && v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
    return hi > 0 && hi / lo >= factor;
}

bool all_positive(const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return !std::isfinite(v) || v > 0; });
}

// --- sweeps ------------------------------------------------------------------

struct sweep_case {
    const entry* e;
    std::map<std::string, double> numeric;    // parameter -> value
    std::map<std::string, std::string> ident; // every other attribute (and the numeric ones, as text)
};

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

sweep_case describe_for_sweeps(const entry& e) {
    sweep_case s;
    s.e = &e;
    const case_spec& spec = e.c->spec;
    const dataset_spec& d = spec.dataset;
    s.ident["record"] = std::to_string(e.file_index);
    s.ident["dtype"] = dtype_name(d.type);
    s.ident["data"] = d.file.empty() ? fmt::format("{} seed={}", to_string(d.dist), d.seed)
                                     : fmt::format("{} via {}", d.file, d.file_plugin);
    s.ident["format"] = !spec.format.base_label.empty() ? spec.format.base_label : spec.format.plugin;
    s.ident["plugin"] = spec.format.plugin;
    s.ident["cache"] = to_string(spec.params.cache);
    s.ident["sync"] = to_string(spec.params.sync);
    s.ident["read"] = to_string(spec.params.read);
    s.ident["align"] = std::to_string(spec.params.align_offset);
    s.numeric["count"] = static_cast<double>(d.count);
    if (spec.params.chunk_bytes > 0)
        s.numeric["chunk"] = static_cast<double>(spec.params.chunk_bytes);
    else
        s.ident["chunk"] = "whole";
    for (const auto& [k, v] : spec.format.options) {
        double x = 0;
        if (parse_number(v, x))
            s.numeric["option " + k] = x;
        else
            s.ident["option " + k] = v;
    }
    return s;
}

// The identity of a case with parameter p left out.
std::string identity_without(const sweep_case& s, const std::string& p) {
    std::string out;
    for (const auto& [k, v] : s.ident)
        out += k + "=" + v + ";";
    for (const auto& [k, v] : s.numeric)
        if (k != p) out += fmt::format("{}={:.17g};", k, v);
    return out;
}

struct sweep_line {
    std::vector<const sweep_case*> cases;
};

std::string parameter_title(const std::string& p) {
    if (p == "count") return "count";
    if (p == "chunk") return "chunk size";
    return p; // "option level"
}

std::string parameter_unit(const std::string& p) {
    if (p == "count") return "elements";
    if (p == "chunk") return "bytes";
    return "";
}

// --- HTML pieces ----------------------------------------------------------------

std::string html_table(const detail::results_table& t) {
    std::string out = "<table class=\"summary\">\n<thead><tr>";
    for (const auto& h : t.header)
        out += "<th>" + escape(h) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
        out += "<tr>";
        for (std::size_t i = 0; i < row.size(); ++i)
            out += fmt::format("<td{}>{}</td>", t.numeric[i] ? " class=\"num\"" : "", escape(row[i]));
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table>\n";
}

std::string context_block(const report_input& in) {
    const run_context& c = in.result.context;
    const study& s = in.result.spec;
    std::vector<std::pair<std::string, std::string>> items = {
        {"record", in.name},
        {"study", s.name + (s.source.empty() ? "" : " (" + s.source + ")")},
        {"description", s.description},
        {"date", c.date},
        {"host", c.host},
        {"CPU", c.cpu_model + (c.cores ? fmt::format(", {} cores", c.cores) : "")},
        {"memory", c.memory_bytes ? detail::format_bytes(c.memory_bytes) : ""},
        {"system", c.os + (c.kernel.empty() ? "" : ", kernel " + c.kernel)},
        {"data directory", c.data_directory + (c.filesystem.empty() ? "" : " (" + c.filesystem + ")")},
        {"formatbench", c.formatbench_version + (c.compiler.empty() ? "" : ", " + c.compiler) +
                            (c.build_type.empty() ? "" : ", " + c.build_type)},
        {"baseline", s.baseline},
    };
    std::string plugins;
    for (const auto& p : c.plugins)
        plugins += (plugins.empty() ? "" : ", ") + p.id + " " + p.version;
    items.emplace_back("plugins", plugins);
    std::string out = "<dl class=\"context\">\n";
    for (const auto& [k, v] : items)
        if (!v.empty()) out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", escape(k), escape(v));
    return out + "</dl>\n";
}

class builder {
public:
    explicit builder(const std::vector<report_input>& inputs) : inputs_(inputs) {
        for (std::size_t f = 0; f < inputs.size(); ++f)
            for (const dataset_group& g : group_by_dataset(inputs[f].result.cases))
                for (const case_result* c : g.cases)
                    entries_.push_back({&inputs[f], f, c, row_label(*c, g)});
        for (const entry& e : entries_)
            if (std::find(datasets_.begin(), datasets_.end(), e.c->spec.dataset.name) == datasets_.end())
                datasets_.push_back(e.c->spec.dataset.name);
    }

    html_report build(const std::string& title_arg) {
        std::string title = title_arg;
        if (title.empty()) {
            std::vector<std::string> names;
            for (const auto& in : inputs_)
                if (std::find(names.begin(), names.end(), in.result.spec.name) == names.end())
                    names.push_back(in.result.spec.name);
            title = "formatbench report";
            for (std::size_t i = 0; i < names.size(); ++i)
                title += (i ? ", " : ": ") + names[i];
        }
        std::string& h = out_.html;
        h += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
             "<meta charset=\"utf-8\"/>\n";
        h += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n", escape(title), style);
        h += fmt::format("<h1>{}</h1>\n", escape(title));
        h += fmt::format(
            "<p class=\"note\">{} record(s). Throughput is MB/s = 10<sup>6</sup> bytes of payload "
            "(count &#215; element size) per second at the median time; error bars span the "
            "throughputs of the individual repetitions (min..max). Charts with a wide range use "
            "log axes (marked on the axis).</p>\n",
            inputs_.size());
        h += "<h2 id=\"context\">Context</h2>\n";
        for (const auto& in : inputs_)
            h += context_block(in);
        h += "<h2 id=\"summary\">Summary</h2>\n";
        for (const auto& in : inputs_)
            summary(in);
        for (const std::string& d : datasets_)
            dataset_section(d);
        sweeps();
        h += "</body>\n</html>\n";
        return std::move(out_);
    }

private:
    const std::vector<report_input>& inputs_;
    std::vector<entry> entries_;
    std::vector<std::string> datasets_;
    html_report out_;
    id_maker ids_;

    bool several() const { return inputs_.size() > 1; }

    void figure(const std::string& svg_text, const std::string& id, const std::string& caption) {
        out_.html += "<figure>\n" + svg_text;
        if (!caption.empty()) out_.html += "<figcaption>" + escape(caption) + "</figcaption>\n";
        out_.html += "</figure>\n";
        out_.charts.emplace_back(id, std::string(svg::standalone_header) + svg_text);
    }

    void summary(const report_input& in) {
        std::string& h = out_.html;
        if (several()) h += fmt::format("<h3>{}</h3>\n", escape(in.name));
        if (in.result.cases.empty()) {
            h += "<p>No case ran.</p>\n";
            return;
        }
        for (const dataset_group& g : group_by_dataset(in.result.cases)) {
            h += fmt::format("<p><b>{}</b>: {}</p>\n", escape(g.dataset->name),
                             escape(detail::describe_dataset(*g.dataset, g.cases.front()->payload_bytes)));
            const detail::results_table t = detail::dataset_table(in.result, g);
            h += html_table(t);
            if (const detail::results_table m = detail::metrics_table(g); !m.rows.empty()) {
                h += "<p class=\"note\">The plugins' own figures (median per repetition):</p>\n";
                h += html_table(m);
            }
            if (!t.failures.empty()) {
                h += "<ul class=\"bad\">\n";
                for (const auto& f : t.failures)
                    h += "<li>" + escape(f) + "</li>\n";
                h += "</ul>\n";
            }
        }
        h += "<ul class=\"legend-text\">\n";
        for (const auto& l : detail::legend(in.result))
            h += "<li>" + escape(l) + "</li>\n";
        h += "</ul>\n";
    }

    std::vector<const entry*> of_dataset(const std::string& d) const {
        std::vector<const entry*> v;
        for (const entry& e : entries_)
            if (e.c->spec.dataset.name == d) v.push_back(&e);
        return v;
    }

    std::string series_name(std::size_t file, const std::string& what) const {
        if (!several()) return what;
        return what.empty() ? inputs_[file].name : inputs_[file].name + ": " + what;
    }

    void dataset_section(const std::string& d) {
        const std::vector<const entry*> es = of_dataset(d);
        std::vector<std::string> rows;
        for (const entry* e : es)
            if (std::find(rows.begin(), rows.end(), e->row) == rows.end()) rows.push_back(e->row);
        out_.html += fmt::format("<h2>Data set {}</h2>\n", escape(d));
        out_.html += fmt::format(
            "<p>{}</p>\n",
            escape(detail::describe_dataset(es.front()->c->spec.dataset, es.front()->c->payload_bytes)));

        for (const char* phase : {"write", "read"}) {
            const bool is_write = phase[0] == 'w';
            svg::bar_chart chart;
            chart.categories = rows;
            chart.y = {fmt::format("{} throughput", phase), "MB/s", false};
            std::vector<double> all;
            for (std::size_t f = 0; f < inputs_.size(); ++f) {
                svg::bar_series s;
                s.name = series_name(f, phase);
                s.values.assign(rows.size(), not_a_number);
                s.lo.assign(rows.size(), not_a_number);
                s.hi.assign(rows.size(), not_a_number);
                bool any = false;
                for (const entry* e : es) {
                    if (e->file_index != f) continue;
                    const std::size_t k =
                        static_cast<std::size_t>(std::find(rows.begin(), rows.end(), e->row) - rows.begin());
                    const std::vector<double> t = is_write ? write_times(*e->c) : read_times(*e->c);
                    s.values[k] = throughput_mb_s(e->c->payload_bytes, median_of(t));
                    std::tie(s.lo[k], s.hi[k]) = throughput_range(t, e->c->payload_bytes);
                    all.push_back(s.values[k]);
                    all.push_back(s.lo[k]);
                    any = true;
                }
                if (any) chart.series.push_back(std::move(s));
            }
            chart.y.log = wide_range(all, 50);
            chart.id = ids_.make(fmt::format("throughput-{}-{}", phase, d));
            chart.title = fmt::format("{} throughput, data set {}", is_write ? "Write" : "Read", d);
            chart.subtitle = "bar: median; error bar: min..max over repetitions; higher is better";
            figure(svg::render(chart), chart.id, "");
        }

        // Speed-up against each record's baseline.
        svg::bar_chart sp;
        sp.categories = rows;
        sp.y = {"speed-up vs baseline", "x", false};
        sp.reference = 1;
        std::vector<double> all;
        std::string baselines;
        for (std::size_t f = 0; f < inputs_.size(); ++f) {
            const study_result& r = inputs_[f].result;
            if (r.spec.baseline.empty()) continue;
            if (baselines.find(r.spec.baseline) == std::string::npos)
                baselines += (baselines.empty() ? "" : ", ") + r.spec.baseline;
            for (const char* phase : {"write", "read"}) {
                const bool is_write = phase[0] == 'w';
                svg::bar_series s;
                s.name = series_name(f, phase);
                s.values.assign(rows.size(), not_a_number);
                bool any = false;
                for (const entry* e : es) {
                    if (e->file_index != f) continue;
                    const case_result* base = find_baseline(r.cases, *e->c, r.spec.baseline);
                    if (!base) continue;
                    const std::size_t k =
                        static_cast<std::size_t>(std::find(rows.begin(), rows.end(), e->row) - rows.begin());
                    s.values[k] = is_write ? speedup(write_times(*base), write_times(*e->c))
                                           : speedup(read_times(*base), read_times(*e->c));
                    all.push_back(s.values[k]);
                    any = true;
                }
                if (any) sp.series.push_back(std::move(s));
            }
        }
        if (!sp.series.empty()) {
            sp.y.log = wide_range(all, 20);
            sp.id = ids_.make("speedup-" + d);
            sp.title = fmt::format("Speed-up against baseline {}, data set {}", baselines, d);
            sp.subtitle =
                "baseline median time / case median time; dashed line: 1 (the baseline); above is faster";
            figure(svg::render(sp), sp.id, "");
        }

        // Size ratio vs round-trip throughput with the Pareto front.
        svg::xy_chart sc;
        sc.x = {"size ratio payload / file", "", false};
        sc.y = {"round-trip throughput", "MB/s", false};
        sc.front_name = "Pareto front";
        std::vector<double> ys, xs;
        for (std::size_t f = 0; f < inputs_.size(); ++f) {
            svg::xy_series s;
            s.name = series_name(f, "");
            if (s.name.empty()) s.name = "cases";
            s.lines = false;
            for (const entry* e : es) {
                if (e->file_index != f || e->c->status != case_status::ok) continue;
                const double ratio = size_ratio(*e->c);
                const double total = median_of(write_times(*e->c)) + median_of(read_times(*e->c));
                const double mb_s = throughput_mb_s(e->c->payload_bytes, total);
                if (!std::isfinite(ratio) || !std::isfinite(mb_s)) continue;
                s.points.push_back({ratio, mb_s, e->row, false});
                xs.push_back(ratio);
                ys.push_back(mb_s);
            }
            for (auto& p : s.points) {
                p.on_front = std::none_of(s.points.begin(), s.points.end(), [&](const svg::xy_point& q) {
                    return q.x >= p.x && q.y >= p.y && (q.x > p.x || q.y > p.y);
                });
            }
            if (!s.points.empty()) sc.series.push_back(std::move(s));
        }
        if (!sc.series.empty()) {
            sc.y.log = wide_range(ys, 20);
            sc.x.log = wide_range(xs, 20) && all_positive(xs);
            sc.id = ids_.make("pareto-" + d);
            sc.title = fmt::format("File size vs speed, data set {}", d);
            sc.subtitle =
                "x: payload / file bytes (right = smaller file); y: payload / (write + read median); "
                "up and right is better";
            figure(svg::render(sc), sc.id,
                   "Cases that leave no file (e.g. memory) have no size ratio and are not shown.");
        }
    }

    void sweeps() {
        std::vector<sweep_case> cases;
        for (const entry& e : entries_)
            if (e.c->status == case_status::ok && !e.c->samples.empty())
                cases.push_back(describe_for_sweeps(e));
        std::set<std::string> params;
        for (const auto& s : cases)
            for (const auto& [k, v] : s.numeric)
                params.insert(k);
        bool heading = false;
        for (const std::string& p : params) {
            std::map<std::string, sweep_line> lines;
            std::vector<std::string> order;
            for (const auto& s : cases) {
                if (!s.numeric.count(p)) continue;
                const std::string id = identity_without(s, p);
                if (!lines.count(id)) order.push_back(id);
                lines[id].cases.push_back(&s);
            }
            std::vector<const sweep_line*> swept;
            for (const std::string& id : order) {
                std::set<double> values;
                for (const sweep_case* s : lines[id].cases)
                    values.insert(s->numeric.at(p));
                if (values.size() >= 2) swept.push_back(&lines[id]);
            }
            if (swept.empty()) continue;
            if (!heading) {
                out_.html +=
                    "<h2 id=\"sweeps\">Sweeps</h2>\n<p class=\"note\">One chart per swept parameter and "
                    "phase: the median time (cost) against the parameter (work), one line per family of "
                    "cases that differ only in that parameter.</p>\n";
                heading = true;
            }
            // Name each line by what tells it apart from the other lines.
            std::set<std::string> varying;
            for (const sweep_line* l : swept)
                for (const sweep_line* m : swept)
                    for (const auto& [k, v] : l->cases.front()->ident)
                        if (!m->cases.front()->ident.count(k) || m->cases.front()->ident.at(k) != v)
                            varying.insert(k);
            for (const sweep_line* l : swept)
                for (const sweep_line* m : swept)
                    for (const auto& [k, v] : l->cases.front()->numeric)
                        if (k != p &&
                            (!m->cases.front()->numeric.count(k) || m->cases.front()->numeric.at(k) != v))
                            varying.insert(k);
            varying.erase("record");
            for (const char* phase : {"write", "read"}) {
                const bool is_write = phase[0] == 'w';
                svg::xy_chart ch;
                ch.x = {parameter_title(p), parameter_unit(p), false};
                ch.y = {fmt::format("{} time (median)", phase), "s", false};
                std::vector<double> xs, ys;
                for (const sweep_line* l : swept) {
                    const sweep_case& first = *l->cases.front();
                    std::string name = first.ident.at("format");
                    for (const std::string& k : varying) {
                        if (k == "format") continue;
                        if (first.ident.count(k))
                            name += " " + k + "=" + first.ident.at(k);
                        else if (first.numeric.count(k))
                            name += fmt::format(" {}={:g}", k, first.numeric.at(k));
                    }
                    svg::xy_series s;
                    s.name = several() ? inputs_[first.e->file_index].name + ": " + name : name;
                    for (const sweep_case* c : l->cases) {
                        const double t = median_of(is_write ? write_times(*c->e->c) : read_times(*c->e->c));
                        s.points.push_back({c->numeric.at(p), t, c->e->row, false});
                        xs.push_back(c->numeric.at(p));
                        ys.push_back(t);
                    }
                    ch.series.push_back(std::move(s));
                }
                ch.x.log = all_positive(xs) && wide_range(xs, 10);
                ch.y.log = all_positive(ys);
                ch.id = ids_.make(fmt::format("sweep-{}-{}", p, phase));
                ch.title = fmt::format("{} time vs {}", is_write ? "Write" : "Read", parameter_title(p));
                ch.subtitle = "median wall time per case; lower is better";
                figure(svg::render(ch), ch.id, "");
            }
        }
    }
};

} // namespace

html_report render_html_report(const std::vector<report_input>& inputs, const std::string& title) {
    return builder(inputs).build(title);
}

} // namespace formatbench

// The HTML report (see html.hpp). Every figure comes from the records through
// the same helpers as the console and Markdown tables (table.hpp), so the
// report never disagrees with them:
//  - throughput = payload bytes / 10^6 / median time (MB/s; MiB/s: 2^20); its error bar
//    spans the per-repetition throughputs (min..max);
//  - speed-up = baseline median / case median, per phase (table.hpp);
//  - round-trip throughput (scatter) = payload / 10^6 / (write median + read
//    median), for the cases that read the whole file back; a point is on the Pareto front when no other case
//    of the same data set and record has both a higher-or-equal size ratio and a higher-or-equal round-trip
//    throughput (one of them strictly);
//  - size vs error (the lossy cases: verified against a tolerance, with an
//    error): size ratio against the max abs error, on the front when no
//    other lossy case has a higher-or-equal ratio and a lower-or-equal
//    error (one of them strictly);
//  - sweeps (sweeps.hpp): one line of median time against a numeric
//    parameter per family of cases that differ only in it, drawn as small
//    multiples: one chart per facet and phase, the facets of a parameter
//    on shared axes;
//  - read latency CDFs (access patterns): a line per case through its
//    percentiles, markers at p50 and p99 only;
//  - several records: compare's ratios (results/compare.hpp), each record
//    against the first.
// The page leads with the answer, right under the title: for one record,
// per data set the workload's recommendation (report/recommend.hpp) or,
// without a workload, the verdict's sentences (report/verdict.hpp), the
// text the terminal prints; for several records, each against the first
// as `compare` says it (report/compare_output.hpp), never a verdict per
// record. Then a line of links; then the charts that carry the answer: the
// time-against-count sweep first when there is one, then per data set its
// heading, its verdict sentences (with a workload; the records' ratio chart
// with several records) and its charts; then the other sweeps and the MPI
// scaling charts; the full tables (the console's summary, plugin metrics,
// cost model, compare's table) and each record's context come last, linked
// from the top and from each data set.
// Charts are laid out side by side in rows (two on a 1200 px page) and
// scale down to narrower pages; the print style sheet keeps each chart on
// one page and the text black on white.
// Output is XHTML-compatible (every element closed, text escaped), so an XML
// parser reads it; the tests do exactly that.
#include "report/html.hpp"
#include "report/compare_output.hpp"
#include "report/rank_scaling.hpp"
#include "report/recommend.hpp"
#include "report/verdict.hpp"

#include "report/svg.hpp"
#include "report/sweeps.hpp"
#include "report/table.hpp"
#include "report/units.hpp"
#include "results/compare.hpp"
#include "results/stats.hpp"
#include "results/summary.hpp"

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
.table-box { max-width: 100%; overflow-x: auto; margin: 0.5em 0 1em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.context { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; font-size: 0.9em; }
dl.context dt { font-weight: bold; } dl.context dd { margin: 0; }
.charts { display: flex; flex-wrap: wrap; gap: 1.2em 24px; align-items: flex-start; margin: 1em 0; }
figure { margin: 0; max-width: 100%; } figcaption { font-size: 0.85em; color: #555; max-width: 560px; }
svg.chart { display: block; max-width: 100%; height: auto; }
.note { font-size: 0.85em; color: #555; } .bad { color: #a00; }
nav.toc { font-size: 0.9em; } nav.toc a { margin-right: 0.8em; white-space: nowrap; }
p.verdict, p.comparison { margin: 0.3em 0; padding: 0.25em 0.7em; border-left: 4px solid #0072B2; background: #f2f7fb; max-width: 60em; }
p.recommendation { margin: 0.3em 0; padding: 0.4em 0.8em; border-left: 6px solid #009E73; background: #eef8f3; max-width: 60em; font-size: 1.1em; }
div.answer { margin: 0.5em 0 1em; } div.answer h3 { font-size: 1em; margin: 0.8em 0 0.2em; }
div.answer-sets { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(28em, 100%), 1fr)); gap: 0 1.5em; }
div.answer-sets p.verdict, div.answer-sets p.recommendation { font-size: 0.9em; margin: 0.15em 0; padding: 0.1em 0.6em; }
ul.changes { font-size: 0.9em; max-width: 60em; margin: 0.3em 0; }
p.tables-link { font-size: 0.85em; margin: 0 0 0.5em; }
ul.legend-text { font-size: 0.85em; color: #444; }
@media print {
  @page { margin: 15mm; }
  body { max-width: none; margin: 0; padding: 0; color: #000; background: #fff; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  figure, tr, dl.context { break-inside: avoid; page-break-inside: avoid; }
  .charts { gap: 0.8em 16px; }
  .note, figcaption, ul.legend-text { color: #000; }
  p.verdict, p.comparison, p.recommendation { background: #fff; break-inside: avoid; page-break-inside: avoid; }
  th { background: #fff; }
  .table-box { overflow: visible; }
  table { font-size: 7pt; } th, td { padding: 0.1em 0.3em; }
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
)css";

struct entry {
    const report_input* input;
    std::size_t file_index;
    const case_result* c;
    std::string row;     // row label within its data set (table.hpp)
    std::string dataset; // the section it belongs to (builder::section_of)
};

// A data set's definition (the data set part of a case key: name, dtype,
// count, distribution, seed, shape...): records are matched by it, so two
// records whose data sets share a name but not a definition stay apart.
std::string definition_of(const case_result& c) {
    const std::size_t bar = c.spec.key.find('|');
    return bar == std::string::npos ? c.spec.dataset.name : c.spec.key.substr(0, bar);
}

// A case's estimate of one phase, from its summary.
double median_of(const case_result& c, bool write) {
    return (write ? c.figures.write : c.figures.read).median_s;
}

// min..max of the per-repetition throughputs of a phase.
std::pair<double, double> throughput_range(const std::vector<double>& times, std::uint64_t payload,
                                           rate_unit units) {
    double lo = not_a_number, hi = not_a_number;
    for (double t : times) {
        const double v = detail::throughput_in(units, payload, t);
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

svg::scale_kind log_if(bool log) {
    return log ? svg::scale_kind::log10 : svg::scale_kind::linear;
}

// --- HTML pieces ----------------------------------------------------------------

// A table in a box that scrolls sideways on a narrow screen (the page never
// does); on paper the table shrinks instead (print style sheet).
std::string html_table(const detail::results_table& t) {
    std::string out = "<div class=\"table-box\"><table class=\"summary\">\n<thead><tr>";
    for (const auto& h : t.header)
        out += "<th>" + escape(h) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
        out += "<tr>";
        for (std::size_t i = 0; i < row.size(); ++i)
            out += fmt::format("<td{}>{}</td>", t.numeric[i] ? " class=\"num\"" : "", escape(row[i]));
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table></div>\n";
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
    builder(const std::vector<report_input>& inputs, rate_unit units) : inputs_(inputs), units_(units) {
        // One section per data set definition, titled by its name, and by
        // its description too when another definition has the same name.
        std::vector<std::pair<std::string, const case_result*>> definitions;
        for (const report_input& in : inputs)
            for (const case_result& c : in.result.cases)
                if (std::none_of(definitions.begin(), definitions.end(),
                                 [&](const auto& d) { return d.first == definition_of(c); }))
                    definitions.emplace_back(definition_of(c), &c);
        for (const auto& [definition, c] : definitions) {
            const bool shared = std::count_if(definitions.begin(), definitions.end(), [&](const auto& d) {
                                    return d.second->spec.dataset.name == c->spec.dataset.name;
                                }) > 1;
            const std::string title =
                shared ? fmt::format("{} ({})", c->spec.dataset.name,
                                     detail::describe_dataset(c->spec.dataset, c->payload_bytes))
                       : c->spec.dataset.name;
            section_.emplace(definition, title);
            datasets_.push_back(title);
        }
        for (std::size_t f = 0; f < inputs.size(); ++f)
            for (const dataset_group& g : group_by_dataset(inputs[f].result.cases))
                for (const case_result* c : g.cases)
                    entries_.push_back({&inputs[f], f, c, row_label(*c, g), section_of(*c)});
        // Several records: each against the first, as `compare` computes it.
        for (std::size_t f = 1; f < inputs.size(); ++f) {
            comparison c = compare_results(inputs[0].result, inputs[f].result, compare_options{});
            c.base_source = inputs[0].name;
            c.new_source = inputs[f].name;
            comparisons_.push_back(std::move(c));
        }
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
        name_anchors();
        answer();
        h += fmt::format("<p class=\"note\">{} record(s). Throughput is {} = {} bytes of payload "
                         "(count &#215; element size) per second at the median time; whiskers span the "
                         "throughputs of the individual repetitions (min..max). Charts with a wide range use "
                         "log axes (marked on the axis).</p>\n",
                         inputs_.size(), detail::rate_unit_name(units_),
                         units_ == rate_unit::iec ? "2<sup>20</sup>" : "10<sup>6</sup>");
        // The time-against-count sweep carries a count sweep's answer: it
        // comes first, the other sweeps after the data sets.
        std::vector<sweep> by_count, other_sweeps;
        for (sweep& sw : find_sweeps_of_entries())
            (sw.parameter == "count" ? by_count : other_sweeps).push_back(std::move(sw));
        const std::vector<rank_chart> ranks = find_rank_charts();
        contents(!by_count.empty(), !other_sweeps.empty(), !ranks.empty());
        sweeps(by_count, "sweeps-count", "Time against count", false);
        for (const std::string& d : datasets_)
            dataset_section(d);
        sweeps(other_sweeps, "sweeps", "Sweeps", true);
        rank_scaling(ranks);
        h += fmt::format("<h2 id=\"summary\">Tables</h2>\n<p class=\"note\">The figures behind the charts: "
                         "each record's results table per data set (the console's), the plugins' own figures "
                         "and the cost model{}.</p>\n",
                         several() ? ", then each record against the first as `formatbench compare` shows it"
                                   : "");
        for (std::size_t f = 0; f < inputs_.size(); ++f)
            summary(f);
        for (std::size_t k = 0; k < comparisons_.size(); ++k)
            comparison_tables(k);
        h += "<h2 id=\"context\">Context</h2>\n";
        for (const auto& in : inputs_)
            h += context_block(in);
        h += "</body>\n</html>\n";
        return std::move(out_);
    }

private:
    const std::vector<report_input>& inputs_;
    const rate_unit units_;
    std::vector<entry> entries_;
    std::vector<std::string> datasets_;          // section titles, in order
    std::map<std::string, std::string> section_; // data set definition -> section title
    html_report out_;
    id_maker ids_;
    std::map<std::string, std::string> dataset_anchor_;                       // data set -> id of its section
    std::map<std::pair<std::size_t, std::string>, std::string> table_anchor_; // (record, data set) -> id
    std::vector<sweep_case> sweep_cases_;
    std::vector<comparison> comparisons_; // record k + 1 against record 0

    bool several() const { return inputs_.size() > 1; }
    const std::string& section_of(const case_result& c) const { return section_.at(definition_of(c)); }

    // The ids the links point to, made before any chart's (their prefixes
    // differ from the charts', so no chart id changes).
    void name_anchors() {
        for (const std::string& d : datasets_)
            dataset_anchor_[d] = ids_.make("dataset-" + d);
        for (std::size_t f = 0; f < inputs_.size(); ++f)
            for (const dataset_group& g : group_by_dataset(inputs_[f].result.cases))
                table_anchor_[{f, g.dataset->name}] =
                    ids_.make(several() ? fmt::format("tables-{}-{}", f + 1, g.dataset->name)
                                        : "tables-" + g.dataset->name);
    }

    // A line of links under the answer: the time against count, each data
    // set's charts, the sweeps, the scaling over ranks, then the tables and
    // the context at the end.
    void contents(bool with_count, bool with_sweeps, bool with_ranks) {
        std::string& h = out_.html;
        h += "<nav class=\"toc\"><p>";
        if (with_count) h += "<a href=\"#sweeps-count\">Time against count</a> ";
        for (const std::string& d : datasets_)
            h += fmt::format("<a href=\"#{}\">Data set {}</a> ", escape(dataset_anchor_.at(d)), escape(d));
        if (with_sweeps) h += "<a href=\"#sweeps\">Sweeps</a> ";
        if (with_ranks) h += "<a href=\"#ranks\">Scaling over MPI ranks</a> ";
        h += "<a href=\"#summary\">Tables</a> <a href=\"#context\">Context</a></p></nav>\n";
    }

    void paragraphs(const std::vector<std::string>& lines, const char* cls) {
        for (const std::string& l : lines)
            out_.html += fmt::format("<p class=\"{}\">{}</p>\n", cls, escape(l));
    }

    // The answer, first under the title. One record: per data set (named
    // when there are several) the workload's recommendation when the study
    // states one (<p class="recommendation">), else the verdict's sentences
    // (<p class="verdict">: per group of like work the fastest, by how much
    // against the baseline and the next with its 95% interval and
    // significance, the trade-off of size against time), then what the
    // machine's load did to the figures; the terminal prints the same text.
    // Several records: each against the first (compare_answer).
    void answer() {
        std::string& h = out_.html;
        h += "<div class=\"answer\" id=\"answer\">\n";
        if (several()) {
            for (std::size_t k = 0; k < comparisons_.size(); ++k)
                compare_answer(k);
            h += "</div>\n";
            return;
        }
        const study_result& r = inputs_.front().result;
        const std::vector<dataset_group> groups = group_by_dataset(r.cases);
        const bool workload = r.spec.workload.given;
        // Several data sets: side by side where the page is wide enough,
        // so that the charts after them stay near the top.
        const bool sets = groups.size() > 1;
        if (sets) h += "<div class=\"answer-sets\">\n";
        bool any = false;
        for (const dataset_group& g : groups) {
            const std::vector<std::string> lines =
                workload ? detail::recommendation_lines(r, g) : detail::verdict_lines(r, g);
            if (lines.empty()) continue;
            any = true;
            if (sets)
                h += fmt::format("<div><h3>Data set <a href=\"#{}\">{}</a></h3>\n",
                                 escape(dataset_anchor_.at(section_of(*g.cases.front()))),
                                 escape(section_of(*g.cases.front())));
            paragraphs(lines, workload ? "recommendation" : "verdict");
            if (sets) h += "</div>\n";
        }
        if (sets) h += "</div>\n";
        if (!any)
            h += "<p class=\"note\">No verdict: no data set has two formats that ran and keep a file.</p>\n";
        else if (const auto line = machine_state_line(summarize_machine(r)))
            h += "<p class=\"note\">" + escape(*line) + "</p>\n";
        h += "</div>\n";
    }

    // Record k + 1 against the first, as `formatbench compare FIRST RECORD`
    // says it (compare_output.hpp): the geometric means of the ratios, the
    // count of significant slowdowns, the run-to-run spread, the RESULT
    // line, then each case whose change is called, with its change and 95%
    // interval; the table follows the charts (#compare-N).
    void compare_answer(std::size_t k) {
        const comparison& c = comparisons_[k];
        std::string& h = out_.html;
        h += fmt::format("<h3>{} against {} (<a href=\"#{}\">table</a>)</h3>\n", escape(c.new_source),
                         escape(c.base_source), compare_anchor(k));
        paragraphs(comparison_lines(c, false), "comparison");
        const std::vector<std::string> changes = comparison_changes(c);
        constexpr std::size_t most = 12;
        if (changes.empty()) return;
        h += "<ul class=\"changes\">\n";
        for (std::size_t i = 0; i < changes.size() && i < most; ++i)
            h += "<li>" + escape(changes[i]) + "</li>\n";
        if (changes.size() > most)
            h += fmt::format("<li>and {} more (<a href=\"#{}\">table</a>)</li>\n", changes.size() - most,
                             compare_anchor(k));
        h += "</ul>\n";
    }

    static std::string compare_anchor(std::size_t k) { return fmt::format("compare-{}", k + 2); }

    // Compare's table of record k + 1 against the first, its unmatched
    // cases and what the columns mean.
    void comparison_tables(std::size_t k) {
        const comparison& c = comparisons_[k];
        std::string& h = out_.html;
        h += fmt::format("<h3 id=\"{}\">{} against {}</h3>\n", compare_anchor(k), escape(c.new_source),
                         escape(c.base_source));
        h += html_table(comparison_table(c));
        h += "<ul class=\"legend-text\">\n";
        for (const std::string& l : comparison_lines(c, true))
            h += "<li>" + escape(l) + "</li>\n";
        for (const std::string& l : comparison_legend(c))
            h += "<li>" + escape(l) + "</li>\n";
        h += "</ul>\n";
    }

    // A chart in the current row of charts (open_charts .. close_charts).
    void figure(const std::string& svg_text, const std::string& id, const std::string& caption) {
        out_.html += "<figure>\n" + svg_text;
        if (!caption.empty()) out_.html += "<figcaption>" + escape(caption) + "</figcaption>\n";
        out_.html += "</figure>\n";
        out_.charts.emplace_back(id, std::string(svg::standalone_header) + svg_text);
    }
    void open_charts() { out_.html += "<div class=\"charts\">\n"; }
    void close_charts() { out_.html += "</div>\n"; }
    void summary(std::size_t f) {
        const report_input& in = inputs_[f];
        std::string& h = out_.html;
        if (several()) h += fmt::format("<h3>{}</h3>\n", escape(in.name));
        if (in.result.cases.empty()) {
            h += "<p>No case ran.</p>\n";
            return;
        }
        for (const dataset_group& g : group_by_dataset(in.result.cases)) {
            h += fmt::format("<p id=\"{}\"><b>{}</b>: {} (<a href=\"#{}\">charts</a>)</p>\n",
                             escape(table_anchor_.at({f, g.dataset->name})), escape(g.dataset->name),
                             escape(detail::describe_dataset(*g.dataset, g.cases.front()->payload_bytes)),
                             escape(dataset_anchor_.at(section_of(*g.cases.front()))));
            const detail::results_table t = detail::dataset_table(in.result, g, units_);
            h += html_table(t);
            if (const detail::results_table m = detail::metrics_table(g); !m.rows.empty()) {
                h += "<p class=\"note\">The plugins' own figures (median per repetition):</p>\n";
                h += html_table(m);
            }
        }
        if (const auto fits = fit_cost_models(in.result.cases); !fits.empty()) {
            h += "<p class=\"note\">" + escape(std::string(detail::cost_model_title)) + ":</p>\n";
            h += html_table(detail::cost_model_table(fits));
            for (const auto& l : detail::crossover_lines(find_crossovers(fits), fits))
                h += "<p class=\"note\">" + escape(l) + "</p>\n";
        }
        h += "<ul class=\"legend-text\">\n";
        for (const auto& l : detail::legend(in.result, units_))
            h += "<li>" + escape(l) + "</li>\n";
        h += "</ul>\n";
    }

    std::vector<const entry*> of_dataset(const std::string& d) const {
        std::vector<const entry*> v;
        for (const entry& e : entries_)
            if (e.dataset == d) v.push_back(&e);
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
        out_.html +=
            fmt::format("<h2 id=\"{}\">Data set {}</h2>\n", escape(dataset_anchor_.at(d)), escape(d));
        out_.html += fmt::format(
            "<p>{}</p>\n",
            escape(detail::describe_dataset(es.front()->c->spec.dataset, es.front()->c->payload_bytes)));
        // With a workload, the verdict's sentences behind the recommendation
        // (the answer at the top holds the verdict of a study without one,
        // and the comparison of several records); then the cases that did
        // not end ok (they have no bar), then links to the record's tables
        // of this data set.
        std::string links, failed;
        for (std::size_t f = 0; f < inputs_.size(); ++f)
            for (const dataset_group& g : group_by_dataset(inputs_[f].result.cases)) {
                if (g.dataset->name != d) continue;
                const std::string record = several() ? inputs_[f].name : "";
                if (!several() && inputs_[f].result.spec.workload.given)
                    paragraphs(detail::verdict_lines(inputs_[f].result, g, false), "verdict");
                for (const std::string& l : detail::dataset_table(inputs_[f].result, g, units_).failures)
                    failed += "<li>" + escape(record.empty() ? l : record + ": " + l) + "</li>\n";
                links += fmt::format("{}<a href=\"#{}\">{}</a>", links.empty() ? "" : ", ",
                                     escape(table_anchor_.at({f, d})),
                                     escape(record.empty() ? "results table" : record));
            }
        if (!failed.empty()) out_.html += "<ul class=\"bad\">\n" + failed + "</ul>\n";
        out_.html += "<p class=\"tables-link\">Figures in the tables: " + links + "</p>\n";
        open_charts();
        auto row_of = [&](const entry* e) {
            return static_cast<std::size_t>(std::find(rows.begin(), rows.end(), e->row) - rows.begin());
        };
        ratio_chart(d, rows);

        for (const char* phase : {"write", "read"}) {
            const bool is_write = phase[0] == 'w';
            svg::bar_chart chart;
            chart.categories = rows;
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
                    const std::size_t k = row_of(e);
                    const std::vector<double> t = is_write ? write_times(*e->c) : read_times(*e->c);
                    const phase_figures& pf = is_write ? e->c->figures.write : e->c->figures.read;
                    const std::uint64_t bytes = pf.bytes;
                    s.values[k] = detail::throughput_in(units_, bytes, pf.median_s);
                    std::tie(s.lo[k], s.hi[k]) = throughput_range(t, bytes, units_);
                    all.push_back(s.values[k]);
                    all.push_back(s.lo[k]);
                    any = true;
                }
                if (any) chart.series.push_back(std::move(s));
            }
            chart.value = {fmt::format("{} throughput", phase), detail::rate_unit_name(units_),
                           log_if(wide_range(all, 50)), svg::quantity::mb_s};
            chart.id = ids_.make(fmt::format("throughput-{}-{}", phase, d));
            chart.title = fmt::format("{} throughput, data set {}", is_write ? "Write" : "Read", d);
            chart.subtitle = "bar: median; whisker: min..max over repetitions; longer is better";
            chart.data = {{"dataset", d}, {"phase", phase}};
            figure(svg::render(chart), chart.id, "");
        }

        // Speed-up against each record's baseline.
        svg::bar_chart sp;
        sp.categories = rows;
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
                    if (!e->c->figures.baseline_index) continue;
                    const std::size_t k = row_of(e);
                    s.values[k] =
                        is_write ? e->c->figures.write_speedup.value : e->c->figures.read_speedup.value;
                    all.push_back(s.values[k]);
                    any = true;
                }
                if (any) sp.series.push_back(std::move(s));
            }
        }
        if (!sp.series.empty()) {
            sp.value = {"speed-up vs baseline", "", log_if(wide_range(all, 20)), svg::quantity::factor};
            sp.id = ids_.make("speedup-" + d);
            sp.title = fmt::format("Speed-up against baseline {}, data set {}", baselines, d);
            sp.subtitle = "baseline median time / case median time; dashed line: 1 (the baseline); "
                          "right of it is faster";
            sp.data = {{"dataset", d}};
            figure(svg::render(sp), sp.id, "");
        }
        scatter(d, es);
        latency_cdfs(d, es);
        close_charts();
    }

    // Several records: each case's time ratio against the first record, as
    // compare computes it (new median / base median per phase, whiskers its
    // 95% interval), one bar per record after the first and phase, the
    // first chart of the data set: it carries the comparison the answer
    // states.
    void ratio_chart(const std::string& d, const std::vector<std::string>& rows) {
        if (comparisons_.empty()) return;
        svg::bar_chart ch;
        ch.categories = rows;
        ch.reference = 1;
        std::vector<double> all;
        for (std::size_t k = 0; k < comparisons_.size(); ++k)
            for (const char* phase : {"write", "read"}) {
                const bool is_write = phase[0] == 'w';
                svg::bar_series s;
                s.name = series_name(k + 1, phase);
                s.values.assign(rows.size(), not_a_number);
                s.lo.assign(rows.size(), not_a_number);
                s.hi.assign(rows.size(), not_a_number);
                bool any = false;
                for (const case_comparison& c : comparisons_[k].cases) {
                    if (c.dataset != d || !c.comparable) continue;
                    const auto at = std::find(rows.begin(), rows.end(), c.label);
                    if (at == rows.end()) continue;
                    const std::size_t i = static_cast<std::size_t>(at - rows.begin());
                    const phase_comparison& p = is_write ? c.write : c.read;
                    s.values[i] = p.ratio;
                    s.lo[i] = p.ratio_low;
                    s.hi[i] = p.ratio_high;
                    for (double v : {p.ratio, p.ratio_low, p.ratio_high})
                        all.push_back(v);
                    any = true;
                }
                if (any) ch.series.push_back(std::move(s));
            }
        if (ch.series.empty()) return;
        ch.value = {"time ratio new / base", "", log_if(wide_range(all, 20) && all_positive(all)),
                    svg::quantity::factor};
        ch.id = ids_.make("ratio-" + d);
        ch.title = fmt::format("Time against {}, data set {}", inputs_[0].name, d);
        ch.subtitle = "median of the record / median of the first record (compare's ratio); whisker: its 95% "
                      "interval; dashed line: 1 (no change); right of it is slower";
        ch.data = {{"dataset", d}, {"base", inputs_[0].name}};
        figure(svg::render(ch), ch.id, "");
    }

    // Read latency CDFs (access patterns): one chart per pattern of the data
    // set, one line per case (and record) that read under it, x the latency
    // on a log axis (ns to µs and ms), y the percentile 0..100 %. A line is
    // the case's CDF, the median over its repetitions point by point
    // (figures.hpp's latency_medians), drawn without markers but at p50 and
    // p99 (a marker per percentile would hide the lines' dashes and so the
    // formats, where lines lie close).
    void latency_cdfs(const std::string& d, const std::vector<const entry*>& es) {
        std::vector<std::string> patterns; // chart order: first seen
        std::map<std::string, std::vector<std::pair<const entry*, latency_figures>>> by_pattern;
        for (const entry* e : es) {
            auto l = e->c->figures.latency;
            if (!l || l->cdf_ns.size() < 2) continue;
            const run_params& p = e->c->spec.params;
            const std::string pattern = fmt::format("{} {} B blocks", to_string(p.access), p.access_block);
            if (!by_pattern.count(pattern)) patterns.push_back(pattern);
            by_pattern[pattern].emplace_back(e, std::move(*l));
        }
        for (const std::string& pattern : patterns) {
            svg::xy_chart c;
            c.x = {"read latency", "", svg::scale_kind::log10, svg::quantity::seconds};
            c.y = {"operations at or below", "%", svg::scale_kind::linear, svg::quantity::plain};
            c.y_cover = {0, 100};
            const auto& lines = by_pattern[pattern];
            for (std::size_t k = 0; k < lines.size(); ++k) {
                const auto& [e, l] = lines[k];
                svg::xy_series s;
                s.name = series_name(e->file_index, e->row);
                s.legend = s.name;
                s.style = k;
                const std::size_t last = l.cdf_ns.size() - 1;
                const auto marked = [&](std::size_t i, int percentile) {
                    return i == static_cast<std::size_t>(std::lround(percentile / 100.0 * double(last)));
                };
                for (std::size_t i = 0; i < l.cdf_ns.size(); ++i) {
                    if (!(l.cdf_ns[i] > 0)) continue;
                    svg::xy_point p{
                        l.cdf_ns[i] * 1e-9, 100.0 * double(i) / double(last), e->row, false, {}, false};
                    for (const int percentile : {50, 99})
                        if (marked(i, percentile)) {
                            p.marked = true;
                            p.label = fmt::format("p{}", percentile);
                            p.data = {{"percentile", std::to_string(percentile)}};
                        }
                    s.points.push_back(std::move(p));
                }
                c.series.push_back(std::move(s));
            }
            c.title = svg::rich_text(fmt::format("Read latency CDF, data set {}: {}", d, pattern));
            c.subtitle =
                "per case the percentiles 0..100 of its read operations' latencies (median over "
                "the repetitions), a marker at p50 and at p99; left is faster, a long right tail is a "
                "slow p99";
            c.id = ids_.make(fmt::format("latency-cdf-{}-{}", d, pattern));
            c.data = {{"dataset", d}, {"pattern", pattern}, {"lines", std::to_string(lines.size())}};
            figure(svg::render(c), c.id, "");
        }
    }

    // A point of a Pareto chart: a case and its figures on the two axes.
    struct pareto_point {
        const entry* e;
        double x, y;
    };
    struct pareto_spec {
        svg::axis x, y;
        bool y_up; // a higher y is better (else a lower one); a higher x always is
        std::string id, title, subtitle, caption;
    };

    // One chart per record on shared axes, a colour per format (the same in
    // each); a point is on the front when no point of its record is at least
    // as good on both axes and better on one.
    void pareto_charts(const std::string& d, const std::vector<std::vector<pareto_point>>& per_record,
                       const pareto_spec& spec) {
        std::vector<std::string> formats; // style index = position
        std::vector<double> xs, ys;
        for (const auto& pts : per_record)
            for (const pareto_point& p : pts) {
                if (std::find(formats.begin(), formats.end(), p.e->c->spec.format.label) == formats.end())
                    formats.push_back(p.e->c->spec.format.label);
                xs.push_back(p.x);
                ys.push_back(p.y);
            }
        const auto better_or_equal = [&](const pareto_point& q, const pareto_point& p) {
            return q.x >= p.x && (spec.y_up ? q.y >= p.y : q.y <= p.y);
        };
        for (std::size_t f = 0; f < inputs_.size(); ++f) {
            const std::vector<pareto_point>& pts = per_record[f];
            if (pts.empty()) continue;
            svg::xy_chart sc;
            sc.x = spec.x;
            sc.y = spec.y;
            sc.x_cover = xs;
            sc.y_cover = ys;
            sc.front_name = "Pareto front";
            sc.plot_height = 250; // room for the y-axis title on one line
            for (std::size_t k = 0; k < formats.size(); ++k) {
                svg::xy_series s;
                s.name = series_name(f, formats[k]);
                s.legend = formats[k];
                s.style = k;
                s.lines = false;
                for (const pareto_point& p : pts) {
                    if (p.e->c->spec.format.label != formats[k]) continue;
                    const bool dominated = std::any_of(pts.begin(), pts.end(), [&](const pareto_point& q) {
                        return better_or_equal(q, p) && !better_or_equal(p, q);
                    });
                    s.points.push_back({p.x, p.y, p.e->row, !dominated, {}});
                }
                if (!s.points.empty()) sc.series.push_back(std::move(s));
            }
            sc.id = ids_.make(spec.id + "-" + d + (several() ? "-" + inputs_[f].name : ""));
            sc.title =
                fmt::format("{}, data set {}{}", spec.title, d, several() ? ", " + inputs_[f].name : "");
            sc.subtitle = spec.subtitle;
            sc.data = {{"dataset", d}};
            if (several()) sc.data.emplace_back("record", inputs_[f].name);
            figure(svg::render(sc), sc.id, spec.caption);
        }
    }

    // Size ratio vs round-trip throughput, the cases that read the whole
    // file back; and for the lossy
    // cases (verified against a tolerance) size ratio vs max abs error.
    void scatter(const std::string& d, const std::vector<const entry*>& es) {
        std::vector<std::vector<pareto_point>> speed(inputs_.size()), error(inputs_.size());
        std::vector<double> xs, ys, lossy_xs, errors;
        for (const entry* e : es) {
            if (e->c->status != case_status::ok) continue;
            const double ratio = e->c->figures.size_ratio;
            const double total = median_of(*e->c, true) + median_of(*e->c, false);
            const double mb_s = detail::throughput_in(units_, e->c->payload_bytes, total);
            if (!std::isfinite(ratio)) continue;
            // A pattern reads part of the file: payload / (write + read) is no round trip.
            if (std::isfinite(mb_s) && e->c->spec.params.access == access_mode::whole) {
                speed[e->file_index].push_back({e, ratio, mb_s});
                xs.push_back(ratio);
                ys.push_back(mb_s);
            }
            const verification& v = e->c->verify;
            if (v.checked && !v.lossless_expected && std::isfinite(v.max_abs_error) && v.max_abs_error > 0) {
                error[e->file_index].push_back({e, ratio, v.max_abs_error});
                lossy_xs.push_back(ratio);
                errors.push_back(v.max_abs_error);
            }
        }
        pareto_charts(d, speed,
                      {{"size ratio payload / file", "", log_if(wide_range(xs, 20) && all_positive(xs)),
                        svg::quantity::ratio},
                       {"round-trip throughput", detail::rate_unit_name(units_), log_if(wide_range(ys, 20)),
                        svg::quantity::mb_s},
                       true,
                       "pareto",
                       "File size vs speed",
                       "x: payload / file bytes (right = smaller file); y: payload / (write + read median); "
                       "up and right is better",
                       "Cases that leave no file (e.g. memory) have no size ratio, and cases that read an "
                       "access pattern read part of the file: neither is shown."});
        pareto_charts(
            d, error,
            {{"size ratio payload / file", "", log_if(wide_range(lossy_xs, 20)), svg::quantity::ratio},
             {"max abs error", "", log_if(wide_range(errors, 20)), svg::quantity::plain},
             false,
             "error-front",
             "File size vs error",
             "x: payload / file bytes (right = smaller file); y: the largest |read - written| "
             "(down = more exact); down and right is better",
             "The lossy cases (verified against a tolerance) with an error; lossless ones are exact and "
             "not shown."});
    }

    // The sweeps' points refer to sweep_cases_, which lives as long as the builder.
    std::vector<sweep> find_sweeps_of_entries() {
        for (const entry& e : entries_)
            if (e.c->status == case_status::ok && !e.c->samples.empty())
                sweep_cases_.push_back({e.file_index, e.c, e.row});
        std::vector<std::string> names;
        for (const auto& in : inputs_)
            names.push_back(in.name);
        return find_sweeps(sweep_cases_, names);
    }

    // The sweeps under a heading of their own (id, text), each sweep under
    // a heading "Sweep of ..." when `each_headed`.
    void sweeps(const std::vector<sweep>& found, const char* id, const char* heading, bool each_headed) {
        if (found.empty()) return;
        out_.html += fmt::format(
            "<h2 id=\"{}\">{}</h2>\n<p class=\"note\">For each swept parameter, the median time "
            "(cost) against the parameter (work): one line per family of cases that differ only in that "
            "parameter, one small chart per combination of the other attributes that vary (write and read "
            "side by side), at most {} lines per chart. The charts of a parameter share their axes and "
            "give each line the same colour and marker.</p>\n",
            id, heading, max_lines_per_chart);
        for (const sweep& sw : found) {
            if (each_headed)
                out_.html +=
                    fmt::format("<h3>Sweep of {}{}</h3>\n",
                                sw.parameter.starts_with("option ") ? "option " : "", escape(sw.title));
            open_charts();
            std::vector<double> xs, write_ys, read_ys;
            for (const sweep_chart& ch : sw.charts)
                for (const sweep_line& l : ch.lines)
                    for (const sweep_point& p : l.points) {
                        xs.push_back(p.x);
                        write_ys.push_back(median_of(*p.source->c, true));
                        read_ys.push_back(median_of(*p.source->c, false));
                    }
            for (const sweep_chart& ch : sw.charts)
                for (const char* phase : {"write", "read"}) {
                    const bool is_write = phase[0] == 'w';
                    svg::xy_chart c;
                    c.x = {sw.title, "", sw.scale, sw.quantity};
                    c.y = {fmt::format("{} time", phase), "",
                           all_positive(is_write ? write_ys : read_ys) ? svg::scale_kind::log10
                                                                       : svg::scale_kind::linear,
                           svg::quantity::seconds};
                    c.x_cover = xs;
                    c.y_cover = is_write ? write_ys : read_ys;
                    for (const sweep_line& l : ch.lines) {
                        svg::xy_series s;
                        s.name = l.key;
                        s.legend = l.name;
                        s.style = l.style;
                        for (const sweep_point& p : l.points) {
                            const double t = median_of(*p.source->c, is_write);
                            s.points.push_back({p.x,
                                                t,
                                                p.source->row,
                                                false,
                                                {{"dataset", p.source->c->spec.dataset.name}}});
                        }
                        c.series.push_back(std::move(s));
                    }
                    c.title =
                        svg::rich_text(fmt::format("{} time vs {}", is_write ? "Write" : "Read", sw.title));
                    if (!ch.facet.empty()) c.title += ": " + ch.facet;
                    if (ch.parts > 1) c.title += fmt::format(" ({} of {})", ch.part, ch.parts);
                    c.subtitle = "median wall time per case; lower is better";
                    c.id = ids_.make(
                        fmt::format("sweep-{}-{}{}{}", sw.parameter, phase, ch.id.empty() ? "" : "-", ch.id) +
                        (ch.parts > 1 ? fmt::format("-{}", ch.part) : ""));
                    c.data = {{"parameter", sw.parameter}, {"phase", phase}, {"facet", ch.facet_json}};
                    figure(svg::render(c), c.id, "");
                }
            close_charts();
        }
    }

    // Records of different MPI rank counts (docs/mpi.md): aggregate
    // bandwidth against ranks, one line per case the records share.
    std::vector<rank_chart> find_rank_charts() const {
        std::vector<rank_record> records(inputs_.size());
        for (std::size_t f = 0; f < inputs_.size(); ++f)
            records[f].ranks = inputs_[f].result.context.ranks;
        for (const entry& e : entries_)
            records[e.file_index].cases.emplace_back(e.c, e.row);
        return find_rank_scaling(records);
    }

    void rank_scaling(const std::vector<rank_chart>& charts) {
        if (charts.empty()) return;
        out_.html +=
            "<h2 id=\"ranks\">Scaling over MPI ranks</h2>\n<p class=\"note\">Aggregate throughput (the "
            "payload "
            "of all ranks per second of the phase's aggregate time, from the first rank's start to the last "
            "rank's end) against the number of ranks, from records run on different rank counts: one line "
            "per "
            "case the records share. Higher is better; a line that stays flat did not scale.</p>\n";
        std::vector<double> xs, write_ys, read_ys;
        for (const rank_chart& ch : charts)
            for (const rank_line& l : ch.lines)
                for (const rank_point& p : l.points) {
                    xs.push_back(p.ranks);
                    write_ys.push_back(p.write_mb_s);
                    read_ys.push_back(p.read_mb_s);
                }
        open_charts();
        for (const rank_chart& ch : charts)
            for (const char* phase : {"write", "read"}) {
                const bool is_write = phase[0] == 'w';
                const std::vector<double>& ys = is_write ? write_ys : read_ys;
                svg::xy_chart c;
                c.x = {"MPI ranks", "", svg::scale_kind::log2, svg::quantity::plain};
                c.y = {fmt::format("aggregate {} throughput", phase), "MB/s", log_if(wide_range(ys, 30)),
                       svg::quantity::mb_s};
                c.x_cover = xs;
                c.y_cover = ys;
                for (std::size_t k = 0; k < ch.lines.size(); ++k) {
                    svg::xy_series s;
                    s.name = ch.lines[k].row;
                    s.style = k;
                    for (const rank_point& p : ch.lines[k].points)
                        s.points.push_back({double(p.ranks),
                                            is_write ? p.write_mb_s : p.read_mb_s,
                                            ch.lines[k].row,
                                            false,
                                            {{"dataset", ch.dataset}, {"record", inputs_[p.record].name}}});
                    c.series.push_back(std::move(s));
                }
                c.title =
                    svg::rich_text(fmt::format("Aggregate {} throughput vs ranks: {}", phase, ch.dataset));
                if (ch.parts > 1) c.title += fmt::format(" ({} of {})", ch.part, ch.parts);
                c.subtitle = "median aggregate time; higher is better";
                c.id = ids_.make(fmt::format("ranks-{}-{}", ch.dataset, phase) +
                                 (ch.parts > 1 ? fmt::format("-{}", ch.part) : ""));
                c.data = {{"parameter", "ranks"}, {"phase", phase}, {"dataset", ch.dataset}};
                figure(svg::render(c), c.id, "");
            }
        close_charts();
    }
};

} // namespace

html_report render_html_report(const std::vector<report_input>& inputs, const std::string& title,
                               rate_unit units) {
    return builder(inputs, units).build(title);
}

} // namespace formatbench

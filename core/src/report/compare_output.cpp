// Renderings of a comparison (results/compare.hpp): an aligned table, JSON
// and Markdown, for `formatbench compare` (docs/compare.md).
#include "report/compare_output.hpp"

#include "base/text.hpp"

#include "base/error.hpp"
#include "report/table.hpp"
#include "report/table_layout.hpp"
#include "report/terminal_text.hpp"
#include "report/units.hpp"
#include "results/figures.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace formatbench {
namespace {

using detail::format_duration;

// --- renderings -------------------------------------------------------------

std::string format_p(double p) {
    if (!std::isfinite(p)) return "-";
    return p < 0.001 ? fmt::format("{:.1e}", p) : fmt::format("{:.3f}", p);
}

std::string format_change(double ratio) {
    if (!std::isfinite(ratio)) return "-";
    return fmt::format("{:+.1f}%", (ratio - 1) * 100);
}

std::string format_ratio(double ratio) {
    return std::isfinite(ratio) ? fmt::format("{:.3f}", ratio) : "-";
}

std::string verdict(const case_comparison& c) {
    if (!c.comparable) return "not comparable";
    std::vector<std::string> parts;
    if (c.write.slower) parts.emplace_back("write SLOWER");
    if (c.read.slower) parts.emplace_back("read SLOWER");
    if (c.write.faster) parts.emplace_back("write faster");
    if (c.read.faster) parts.emplace_back("read faster");
    std::string v = parts.empty() ? "no significant change" : "";
    for (std::size_t i = 0; i < parts.size(); ++i)
        v += (i ? ", " : "") + parts[i];
    if (c.write.disturbed || c.read.disturbed)
        v += fmt::format(" ({} disturbed: judged net of it)", c.write.disturbed && c.read.disturbed
                                                                  ? "write and read"
                                                              : c.write.disturbed ? "write"
                                                                                  : "read");
    if (c.unreliable) v += " (unreliable: few repetitions)";
    return v;
}

std::string threshold_text(const compare_options& o) {
    return o.threshold ? fmt::format("{:g}%", *o.threshold * 100) : "none (no gate)";
}

nlohmann::json number(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json phase_json(const phase_comparison& p) {
    return {{"n_base", p.n_base},
            {"n_new", p.n_new},
            {"base_median_s", number(p.base_median_s)},
            {"new_median_s", number(p.new_median_s)},
            {"ratio", number(p.ratio)},
            {"change_percent", number((p.ratio - 1) * 100)},
            {"ratio_ci_low", number(p.ratio_low)},
            {"ratio_ci_high", number(p.ratio_high)},
            {"disturbed", p.disturbed},
            {"slower_net_low", number(p.slower_low)},
            {"faster_net_high", number(p.faster_high)},
            {"p", number(p.p)},
            {"slower", p.slower},
            {"faster", p.faster}};
}

void write_json(const comparison& c, std::ostream& out) {
    nlohmann::json j;
    j["base"] = c.base_source;
    j["new"] = c.new_source;
    j["alpha"] = c.options.alpha;
    j["threshold"] = c.options.threshold ? nlohmann::json(*c.options.threshold) : nlohmann::json(nullptr);
    j["reliable_repetitions"] = c.options.reliable_repetitions;
    j["cases"] = nlohmann::json::array();
    for (const case_comparison& k : c.cases) {
        nlohmann::json e = {{"key", k.key},
                            {"dataset", k.dataset},
                            {"label", k.label},
                            {"match", k.kind == match_kind::key ? "key" : "options_differ"},
                            {"comparable", k.comparable},
                            {"unreliable", k.unreliable},
                            {"slower", k.slower()},
                            {"verdict", verdict(k)},
                            {"write", phase_json(k.write)},
                            {"read", phase_json(k.read)}};
        if (std::isfinite(k.base_p99_ns) && std::isfinite(k.new_p99_ns))
            e["read_p99"] = {{"base_ns", number(k.base_p99_ns)},
                             {"new_ns", number(k.new_p99_ns)},
                             {"ratio", number(k.p99_ratio)}};
        if (!k.note.empty()) e["note"] = k.note;
        if (!k.comparable) e["reason"] = k.not_comparable_reason;
        j["cases"].push_back(std::move(e));
    }
    auto unmatched = [](const std::vector<unmatched_case>& v) {
        nlohmann::json a = nlohmann::json::array();
        for (const unmatched_case& u : v)
            a.push_back({{"key", u.key},
                         {"dataset", u.dataset},
                         {"label", u.label},
                         {"status", to_string(u.status)}});
        return a;
    };
    j["only_base"] = unmatched(c.only_base);
    j["only_new"] = unmatched(c.only_new);
    j["geomean_write_ratio"] = number(c.geomean_write);
    j["geomean_read_ratio"] = number(c.geomean_read);
    j["comparable"] = c.comparable_count();
    j["significantly_slower"] = c.slower_count();
    j["run_spread"] = number(c.run_spread);
    j["phases"] = c.phases;
    j["base_disturbed_phases"] = c.base_disturbed;
    j["new_disturbed_phases"] = c.new_disturbed;
    j["unreliable"] = c.unreliable_count();
    j["gate_fails"] = c.gate_fails();
    out << j.dump(2) << '\n';
}

std::vector<std::string> row(const case_comparison& k);

// Whether some matched case has a p99 on both sides: only then do the
// tables show the p99 columns (so comparisons without a pattern look as
// they did).
bool with_p99(const comparison& c) {
    return std::any_of(c.cases.begin(), c.cases.end(),
                       [](const case_comparison& k) { return std::isfinite(k.p99_ratio); });
}

std::vector<std::string> header(bool p99) {
    std::vector<std::string> h = {"dataset",     "format",       "write base",  "write new",
                                  "write ratio", "write change", "write p",     "read base",
                                  "read new",    "read ratio",   "read change", "read p"};
    if (p99) h.insert(h.end(), {"p99 base", "p99 new", "p99 ratio"});
    h.emplace_back("verdict");
    return h;
}

std::vector<std::string> row(const case_comparison& k, bool p99) {
    std::vector<std::string> r = row(k);
    if (p99) {
        const bool both = std::isfinite(k.base_p99_ns) && std::isfinite(k.new_p99_ns) && k.comparable;
        r.insert(r.end() - 1, {both ? format_duration(k.base_p99_ns * 1e-9) : "-",
                               both ? format_duration(k.new_p99_ns * 1e-9) : "-",
                               both ? fmt::format("{:.2f}", k.p99_ratio) : "-"});
    }
    return r;
}

constexpr const char* p99_note = "p99 ratio = new / base of the read operations' 99th-percentile latency "
                                 "(median over the repetitions; access patterns only; above 1: the slow "
                                 "tail got slower; not part of the verdict)";

// "+2.3% [-1.0, +5.1]": the change and its 95% interval.
std::string change_with_interval(const phase_comparison& p) {
    const std::string change = format_change(p.ratio);
    if (!std::isfinite(p.ratio_low) || !std::isfinite(p.ratio_high) || p.ratio_low == p.ratio_high)
        return change;
    auto bound = [](double r) {
        const std::string t = format_change(r);
        return t.substr(0, t.size() - 1); // without the %
    };
    return fmt::format("{} [{}, {}]", change, bound(p.ratio_low), bound(p.ratio_high));
}

std::vector<std::string> row(const case_comparison& k) {
    const auto& w = k.write;
    const auto& r = k.read;
    std::string label = k.label + (k.note.empty() ? "" : " (" + k.note + ")");
    if (!k.comparable)
        return {k.dataset,
                label,
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "not comparable: " + k.not_comparable_reason};
    return {k.dataset,
            label,
            format_duration(w.base_median_s),
            format_duration(w.new_median_s),
            format_ratio(w.ratio),
            change_with_interval(w),
            format_p(w.p),
            format_duration(r.base_median_s),
            format_duration(r.new_median_s),
            format_ratio(r.ratio),
            change_with_interval(r),
            format_p(r.p),
            verdict(k)};
}

void write_table(const comparison& c, std::ostream& out, std::size_t width) {
    for (const std::string& l : detail::wrap_words(
             fmt::format("compare: base {} -> new {} (alpha {:g}, threshold {})", escape_line(c.base_source),
                         escape_line(c.new_source), c.options.alpha, threshold_text(c.options)),
             width, "  "))
        out << l << '\n';
    out << '\n';
    detail::results_table t = comparison_table(c);
    // Labels, options and errors come from the records: escaped, so no
    // escape sequence reaches the terminal and no newline forges a row.
    for (auto& r : t.rows)
        for (std::string& cell : r)
            cell = escape_line(cell);
    std::vector<std::vector<std::string>> rows = {t.header};
    rows.insert(rows.end(), t.rows.begin(), t.rows.end());
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i + 1 < r.size(); ++i)
            widths[i] = std::max(widths[i], detail::display_width(r[i]));
    std::size_t whole = detail::display_width(rows.front().back());
    for (const auto& r : rows)
        whole = std::max(whole, detail::display_width(r.back()));
    for (std::size_t i = 0; i + 1 < widths.size(); ++i)
        whole += widths[i] + 2;
    if (width > 0 && whole > width) {
        // Too wide: split as run's plain tables are (table_layout.hpp),
        // every table starting with the format (shortened in the middle as
        // far as it must be) and the data set; the verdict, a sentence,
        // follows the tables, one wrapped line per case.
        detail::results_table split;
        split.key_columns = 2;
        auto figures = [](std::vector<std::string> r) {
            std::swap(r[0], r[1]);
            r.pop_back();
            return r;
        };
        split.header = figures(t.header);
        for (std::size_t i = 0; i < split.header.size(); ++i)
            split.numeric.push_back(i >= 2);
        for (const auto& r : t.rows)
            split.rows.push_back(figures(r));
        const auto tables = detail::lay_out_plain(split, width);
        for (std::size_t i = 0; i < tables.size(); ++i) {
            if (i) out << '\n';
            for (const std::string& l : detail::table_lines(tables[i], {}))
                out << l << '\n';
        }
        out << "\n verdict:\n";
        for (const auto& r : t.rows)
            for (const std::string& l :
                 detail::wrap_words(fmt::format("  {} ({}): {}", r[1], r[0], r.back()), width, "    "))
                out << l << '\n';
    } else {
        for (const auto& r : rows) {
            std::string line;
            for (std::size_t i = 0; i < r.size(); ++i) {
                const std::size_t pad = i + 1 < r.size() ? widths[i] - detail::display_width(r[i]) : 0;
                line += t.numeric[i] ? std::string(pad, ' ') + r[i] : r[i] + std::string(pad, ' ');
                if (i + 1 < r.size()) line += "  ";
            }
            out << line << '\n';
        }
    }
    out << '\n';
    for (const std::string& l : comparison_lines(c))
        for (const std::string& w : detail::wrap_words(escape_line(l), width, "  "))
            out << w << '\n';
    for (const std::string& l : comparison_legend(c))
        for (const std::string& w : detail::wrap_words(l, width, "  "))
            out << w << '\n';
}

std::string md_cell(const std::string& s) {
    return markdown_text(s);
}

void write_markdown(const comparison& c, std::ostream& out) {
    out << fmt::format("# formatbench compare\n\nBase {}, new {}; alpha {:g}, threshold {}.\n\n",
                       md_cell(c.base_source), md_cell(c.new_source), c.options.alpha,
                       threshold_text(c.options));
    const detail::results_table t = comparison_table(c);
    std::string line = "|", align = "|";
    for (std::size_t i = 0; i < t.header.size(); ++i) {
        line += fmt::format(" {} |", t.header[i]);
        align += t.numeric[i] ? " --: |" : " :-- |";
    }
    out << line << '\n' << align << '\n';
    for (const auto& r : t.rows) {
        std::string l = "|";
        for (const std::string& cell : r)
            l += fmt::format(" {} |", md_cell(cell));
        out << l << '\n';
    }
    out << '\n';
    for (const std::string& l : comparison_lines(c))
        out << "- " << md_cell(l) << '\n';
    for (const std::string& l : comparison_legend(c))
        out << "- " << l << '\n';
}

} // namespace

detail::results_table comparison_table(const comparison& c) {
    detail::results_table t;
    const bool p99 = with_p99(c);
    t.header = header(p99);
    // The data set, the format and the verdict are text, the rest numbers.
    for (std::size_t i = 0; i < t.header.size(); ++i)
        t.numeric.push_back(i >= 2 && i + 1 < t.header.size());
    for (const case_comparison& k : c.cases)
        t.rows.push_back(row(k, p99));
    t.key_columns = 2;
    return t;
}

std::vector<std::string> comparison_lines(const comparison& c, bool each_unmatched) {
    std::vector<std::string> lines;
    lines.push_back(
        fmt::format("geometric mean of ratios (new/base) over {} comparable case(s): write {} ({}), "
                    "read {} ({})",
                    c.comparable_count(), format_ratio(c.geomean_write), format_change(c.geomean_write),
                    format_ratio(c.geomean_read), format_change(c.geomean_read)));
    lines.push_back(fmt::format(
        "significantly slower (95% interval above 1 + threshold, p < {:g}, beyond the run-to-run spread, "
        "undisturbed; threshold {}): {} case(s)",
        c.options.alpha, threshold_text(c.options), c.slower_count()));
    lines.push_back(
        c.run_spread > 0
            ? fmt::format("run-to-run spread of the ratios: {:.1f}% (robust, over {} phases): a change "
                          "smaller than {:.1f}% either way is not called",
                          (std::exp(c.run_spread) - 1) * 100, 2 * c.comparable_count(),
                          (std::exp(3 * c.run_spread) - 1) * 100)
            : fmt::format("run-to-run spread: not estimated (fewer than {} phases compared)",
                          run_spread_min_phases));
    if (c.base_disturbed + c.new_disturbed > 0)
        lines.push_back(fmt::format(
            "disturbed: {} of {} phases of base and {} of new rest on samples something else took the CPU "
            "from; a change is called there only beyond what that lost time explains (a quieter machine "
            "tells more)",
            c.base_disturbed, c.phases, c.new_disturbed));
    if (c.unreliable_count() > 0)
        lines.push_back(fmt::format(
            "warning: {} case(s) have fewer than {} repetitions on a side: their p-values "
            "are unreliable (few possible rank orders); use repeat: {} or more",
            c.unreliable_count(), c.options.reliable_repetitions, c.options.reliable_repetitions));
    if (each_unmatched) {
        for (const unmatched_case& u : c.only_base)
            lines.push_back(fmt::format("only in base: {} / {} ({}) key {}", u.dataset, u.label,
                                        to_string(u.status), u.key));
        for (const unmatched_case& u : c.only_new)
            lines.push_back(fmt::format("only in new: {} / {} ({}) key {}", u.dataset, u.label,
                                        to_string(u.status), u.key));
    } else if (!c.only_base.empty() || !c.only_new.empty()) {
        lines.push_back(fmt::format("unmatched: {} case(s) only in base, {} only in new", c.only_base.size(),
                                    c.only_new.size()));
    }
    if (c.cases.empty()) lines.emplace_back("no case matched: the records are of different studies?");
    if (c.gate_fails())
        lines.emplace_back("RESULT: significantly slower beyond the threshold (exit status 1)");
    else if (c.slower_count() == 0)
        lines.emplace_back("RESULT: no significant slowdown");
    else
        lines.emplace_back("RESULT: significantly slower case(s), no threshold given (exit status 0)");
    return lines;
}

std::vector<std::string> comparison_legend(const comparison& c) {
    std::vector<std::string> lines = {
        "ratio = new median / base median (above 1: slower); change [interval: the quotient of the two "
        "medians' 95% intervals]; p: two-sided Mann-Whitney U over the samples each median rests on"};
    if (with_p99(c)) lines.emplace_back(p99_note);
    return lines;
}

std::vector<std::string> comparison_changes(const comparison& c) {
    std::vector<std::string> lines;
    for (const case_comparison& k : c.cases)
        if (k.comparable && (k.write.slower || k.write.faster || k.read.slower || k.read.faster))
            lines.push_back(fmt::format("{} / {}: {}; write {}, read {}", k.dataset, k.label, verdict(k),
                                        change_with_interval(k.write), change_with_interval(k.read)));
    return lines;
}

void write_comparison(const comparison& c, std::string_view format, std::ostream& out, std::size_t width) {
    if (format == "table")
        write_table(c, out, width);
    else if (format == "json")
        write_json(c, out);
    else if (format == "markdown")
        write_markdown(c, out);
    else
        throw usage_error(fmt::format("--format: unknown '{}'; expected table, json or markdown", format));
}

} // namespace formatbench

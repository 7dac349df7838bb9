// Comparison of two results records (see compare.hpp, docs/compare.md).
//
// Matching: first by case key (the stable identity of docs/config.md: data
// set, format label, plugin, options, chunk, cache, sync...). A case left
// over on both sides whose key differs only in the format's options is then
// paired when that identity is unique on each side: a plugin option changed
// under the same label (e.g. a planted slowdown) is still the same row of
// the study, and the note says what changed. Everything else is listed as
// unmatched, never dropped.
#include "results/compare.hpp"

#include "base/error.hpp"
#include "report/table.hpp"
#include "report/units.hpp"
#include "results/json.hpp"
#include "results/stats.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace formatbench {
namespace {

using detail::not_a_number;

// The key without the format's options: "DATA|label/plugin/options|run"
// becomes "DATA|label/plugin|run". Keys that do not have that shape are
// returned unchanged (they then only match exactly).
std::string key_without_options(const std::string& key) {
    const auto bar1 = key.find('|');
    const auto bar2 = key.rfind('|');
    if (bar1 == std::string::npos || bar2 == bar1) return key;
    const std::string format = key.substr(bar1 + 1, bar2 - bar1 - 1);
    const auto slash = format.rfind('/');
    if (slash == std::string::npos) return key;
    return key.substr(0, bar1 + 1) + format.substr(0, slash) + key.substr(bar2);
}

std::string options_text(const option_list& o) {
    option_list sorted = o;
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    for (const auto& [k, v] : sorted)
        out += (out.empty() ? "" : ",") + k + "=" + v;
    return out.empty() ? "(none)" : out;
}

// Row labels as the console table names them (format label plus the run
// parameters that tell cases of the same data set apart), by case position.
std::vector<std::string> row_labels(const study_result& r) {
    std::vector<std::string> labels(r.cases.size());
    for (const detail::dataset_group& g : detail::group_by_dataset(r.cases))
        for (const case_result* c : g.cases)
            labels[static_cast<std::size_t>(c - r.cases.data())] = detail::row_label(*c, g);
    return labels;
}

phase_comparison compare_phase(const std::vector<double>& base, const std::vector<double>& next,
                               const compare_options& o) {
    phase_comparison p;
    p.n_base = base.size();
    p.n_new = next.size();
    p.base_median_s = summarize(base).median;
    p.new_median_s = summarize(next).median;
    p.ratio = p.base_median_s > 0 ? p.new_median_s / p.base_median_s : not_a_number;
    p.p = mann_whitney_p(base, next);
    const double limit = 1 + o.threshold.value_or(0.0);
    const bool significant = p.p < o.alpha && std::isfinite(p.ratio);
    p.slower = significant && p.ratio > limit;
    p.faster = significant && p.ratio < 1 / limit;
    return p;
}

std::string not_comparable(const case_result& c, const char* side) {
    if (c.status != case_status::ok)
        return fmt::format("{} {}{}", side, to_string(c.status), c.error.empty() ? "" : ": " + c.error);
    if (c.samples.empty()) return fmt::format("{} has no samples", side);
    return "";
}

case_comparison compare_case(const case_result& b, const case_result& n, const std::string& label,
                             const compare_options& o) {
    case_comparison c;
    c.key = b.spec.key;
    c.dataset = b.spec.dataset.name;
    c.label = label;
    std::string reason = not_comparable(b, "base");
    const std::string new_reason = not_comparable(n, "new");
    if (!new_reason.empty()) reason += (reason.empty() ? "" : "; ") + new_reason;
    if (b.payload_bytes != n.payload_bytes && reason.empty())
        reason = fmt::format("payload differs ({} vs {} bytes)", b.payload_bytes, n.payload_bytes);
    c.comparable = reason.empty();
    c.not_comparable_reason = reason;
    c.write = compare_phase(write_times(b), write_times(n), o);
    c.read = compare_phase(read_times(b), read_times(n), o);
    if (!c.comparable) {
        c.write.slower = c.write.faster = c.read.slower = c.read.faster = false;
    } else {
        c.unreliable = std::min(b.samples.size(), n.samples.size()) < o.reliable_repetitions;
    }
    return c;
}

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
    j["unreliable"] = c.unreliable_count();
    j["gate_fails"] = c.gate_fails();
    out << j.dump(2) << '\n';
}

std::vector<std::string> header() {
    return {"dataset",   "format",   "write base", "write new",   "write ratio", "write change", "write p",
            "read base", "read new", "read ratio", "read change", "read p",      "verdict"};
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
            detail::format_duration(w.base_median_s),
            detail::format_duration(w.new_median_s),
            format_ratio(w.ratio),
            format_change(w.ratio),
            format_p(w.p),
            detail::format_duration(r.base_median_s),
            detail::format_duration(r.new_median_s),
            format_ratio(r.ratio),
            format_change(r.ratio),
            format_p(r.p),
            verdict(k)};
}

std::vector<std::string> summary_lines(const comparison& c) {
    std::vector<std::string> lines;
    lines.push_back(
        fmt::format("geometric mean of ratios (new/base) over {} comparable case(s): write {} ({}), "
                    "read {} ({})",
                    c.comparable_count(), format_ratio(c.geomean_write), format_change(c.geomean_write),
                    format_ratio(c.geomean_read), format_change(c.geomean_read)));
    lines.push_back(
        fmt::format("significantly slower (p < {:g} and ratio > 1 + threshold, threshold {}): {} case(s)",
                    c.options.alpha, threshold_text(c.options), c.slower_count()));
    if (c.unreliable_count() > 0)
        lines.push_back(fmt::format(
            "warning: {} case(s) have fewer than {} repetitions on a side: their p-values "
            "are unreliable (few possible rank orders); use repeat: {} or more",
            c.unreliable_count(), c.options.reliable_repetitions, c.options.reliable_repetitions));
    for (const unmatched_case& u : c.only_base)
        lines.push_back(
            fmt::format("only in base: {} / {} ({}) key {}", u.dataset, u.label, to_string(u.status), u.key));
    for (const unmatched_case& u : c.only_new)
        lines.push_back(
            fmt::format("only in new: {} / {} ({}) key {}", u.dataset, u.label, to_string(u.status), u.key));
    if (c.cases.empty()) lines.emplace_back("no case matched: the records are of different studies?");
    if (c.gate_fails())
        lines.emplace_back("RESULT: significantly slower beyond the threshold (exit status 1)");
    else if (c.slower_count() == 0)
        lines.emplace_back("RESULT: no significant slowdown");
    else
        lines.emplace_back("RESULT: significantly slower case(s), no threshold given (exit status 0)");
    return lines;
}

void write_table(const comparison& c, std::ostream& out) {
    out << fmt::format("compare: base {} -> new {} (alpha {:g}, threshold {})\n\n", c.base_source,
                       c.new_source, c.options.alpha, threshold_text(c.options));
    std::vector<std::vector<std::string>> rows = {header()};
    for (const case_comparison& k : c.cases)
        rows.push_back(row(k));
    // Display width: count UTF-8 lead bytes only (µs, ±).
    auto width = [](const std::string& s) {
        std::size_t w = 0;
        for (unsigned char ch : s)
            w += (ch & 0xC0) != 0x80;
        return w;
    };
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i + 1 < r.size(); ++i)
            widths[i] = std::max(widths[i], width(r[i]));
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::size_t pad = i + 1 < r.size() ? widths[i] - width(r[i]) : 0;
            const bool left = i < 2 || i + 1 == r.size();
            line += left ? r[i] + std::string(pad, ' ') : std::string(pad, ' ') + r[i];
            if (i + 1 < r.size()) line += "  ";
        }
        out << line << '\n';
    }
    out << '\n';
    for (const std::string& l : summary_lines(c))
        out << l << '\n';
    out << "ratio = new median / base median (above 1: slower); p: two-sided Mann-Whitney U over all "
           "samples\n";
}

std::string md_cell(const std::string& s) {
    std::string out;
    for (char ch : s)
        out += ch == '|' ? std::string("\\|") : std::string(1, ch == '\n' ? ' ' : ch);
    return out;
}

void write_markdown(const comparison& c, std::ostream& out) {
    out << fmt::format("# formatbench compare\n\nBase `{}`, new `{}`; alpha {:g}, threshold {}.\n\n",
                       c.base_source, c.new_source, c.options.alpha, threshold_text(c.options));
    const auto h = header();
    std::string line = "|", align = "|";
    for (std::size_t i = 0; i < h.size(); ++i) {
        line += fmt::format(" {} |", h[i]);
        align += (i < 2 || i + 1 == h.size()) ? " :-- |" : " --: |";
    }
    out << line << '\n' << align << '\n';
    for (const case_comparison& k : c.cases) {
        std::string l = "|";
        for (const std::string& cell : row(k))
            l += fmt::format(" {} |", md_cell(cell));
        out << l << '\n';
    }
    out << '\n';
    for (const std::string& l : summary_lines(c))
        out << "- " << md_cell(l) << '\n';
    out << "- ratio = new median / base median (above 1: slower); p: two-sided Mann-Whitney U over all "
           "samples\n";
}

} // namespace

double geometric_mean(const std::vector<double>& values) {
    double log_sum = 0;
    std::size_t n = 0;
    for (double v : values)
        if (std::isfinite(v) && v > 0) log_sum += std::log(v), ++n;
    return n ? std::exp(log_sum / static_cast<double>(n)) : not_a_number;
}

std::size_t comparison::comparable_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return c.comparable; }));
}
std::size_t comparison::slower_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return c.slower(); }));
}
std::size_t comparison::unreliable_count() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return c.unreliable; }));
}
bool comparison::gate_fails() const noexcept {
    return options.threshold.has_value() && slower_count() > 0;
}

comparison compare_results(const study_result& base, const study_result& next,
                           const compare_options& options) {
    comparison out;
    out.options = options;
    const std::vector<std::string> base_labels = row_labels(base), new_labels = row_labels(next);

    std::map<std::string, std::size_t> new_by_key;
    for (std::size_t i = 0; i < next.cases.size(); ++i)
        new_by_key.emplace(next.cases[i].spec.key, i);
    std::vector<bool> base_used(base.cases.size(), false), new_used(next.cases.size(), false);
    std::vector<std::size_t> partner(base.cases.size(), 0);
    for (std::size_t i = 0; i < base.cases.size(); ++i) {
        auto it = new_by_key.find(base.cases[i].spec.key);
        if (it != new_by_key.end() && !new_used[it->second]) {
            base_used[i] = new_used[it->second] = true;
            partner[i] = it->second;
        }
    }
    // Fallback: same identity but for the options, unique on both sides.
    std::map<std::string, std::vector<std::size_t>> base_loose, new_loose;
    for (std::size_t i = 0; i < base.cases.size(); ++i)
        if (!base_used[i]) base_loose[key_without_options(base.cases[i].spec.key)].push_back(i);
    for (std::size_t i = 0; i < next.cases.size(); ++i)
        if (!new_used[i]) new_loose[key_without_options(next.cases[i].spec.key)].push_back(i);
    std::vector<std::string> notes(base.cases.size());
    for (const auto& [k, bs] : base_loose) {
        auto it = new_loose.find(k);
        if (bs.size() != 1 || it == new_loose.end() || it->second.size() != 1) continue;
        const std::size_t b = bs.front(), n = it->second.front();
        base_used[b] = new_used[n] = true;
        partner[b] = n;
        notes[b] = fmt::format("options: {} -> {}", options_text(base.cases[b].spec.format.options),
                               options_text(next.cases[n].spec.format.options));
    }

    std::vector<double> write_ratios, read_ratios;
    for (std::size_t i = 0; i < base.cases.size(); ++i) {
        const case_result& b = base.cases[i];
        if (!base_used[i]) {
            out.only_base.push_back({b.spec.key, b.spec.dataset.name, base_labels[i], b.status});
            continue;
        }
        case_comparison c = compare_case(b, next.cases[partner[i]], base_labels[i], options);
        if (!notes[i].empty()) {
            c.kind = match_kind::options_differ;
            c.note = notes[i];
        }
        if (c.comparable) {
            write_ratios.push_back(c.write.ratio);
            read_ratios.push_back(c.read.ratio);
        }
        out.cases.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < next.cases.size(); ++i)
        if (!new_used[i])
            out.only_new.push_back({next.cases[i].spec.key, next.cases[i].spec.dataset.name, new_labels[i],
                                    next.cases[i].status});
    out.geomean_write = geometric_mean(write_ratios);
    out.geomean_read = geometric_mean(read_ratios);
    return out;
}

study_result load_results_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw usage_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw usage_error(fmt::format(
            "{}: not a JSON results record (write one with `formatbench run --json`): {}", path, e.what()));
    }
    try {
        return study_result_from_json(j, path);
    } catch (const usage_error&) {
        throw;
    } catch (const std::exception& e) {
        throw usage_error(fmt::format("{}: not a results record: {}", path, e.what()));
    }
}

double parse_threshold(std::string_view text) {
    std::string s(text);
    const bool percent = !s.empty() && s.back() == '%';
    if (percent) s.pop_back();
    double v = 0;
    std::size_t used = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (s.empty() || used != s.size() || !std::isfinite(v))
        throw usage_error(fmt::format(
            "--threshold: expected a percentage like 5% or a fraction like 0.05, got '{}'", text));
    if (percent) v /= 100;
    if (v < 0 || v > 10) throw usage_error(fmt::format("--threshold: '{}' is outside 0% .. 1000%", text));
    return v;
}

void write_comparison(const comparison& c, std::string_view format, std::ostream& out) {
    if (format == "table")
        write_table(c, out);
    else if (format == "json")
        write_json(c, out);
    else if (format == "markdown")
        write_markdown(c, out);
    else
        throw usage_error(fmt::format("--format: unknown '{}'; expected table, json or markdown", format));
}

} // namespace formatbench

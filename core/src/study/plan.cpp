// Shows an expanded study: one line per case (describe_case) and the table
// `formatbench plan` prints (laid out by report/plan_output.cpp). Expansion itself happens while the study
// is read (reader.cpp, sweep.hpp), so that errors keep their position. The
// run-parameter columns come from the field table (fields.hpp).
#include "study/plan.hpp"
#include "base/suggest.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace formatbench {
namespace {

std::string options_text(const option_list& options) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : options)
        parts.push_back(k + "=" + v);
    return parts.empty() ? "-" : join(parts, " ");
}

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

} // namespace

std::string describe_case(const case_spec& c) {
    const auto& f = run_fields();
    std::string text = fmt::format("{} | {} | chunk {} | {} | sync {}", c.dataset.name, c.format.label,
                                   find_field(f, "chunk")->text(c.params), to_string(c.params.cache),
                                   to_string(c.params.sync));
    // The parameters that join the identity only when set (read view,
    // access pattern, direct, ...), so that two cases never read the same here.
    const run_params defaults;
    for (const auto& field : f)
        if ((field.identity & identity_when_set) && field.applies(c.params) &&
            !field.same(c.params, defaults))
            text.append(" | ").append(field.key).append(" ").append(field.text(c.params));
    return text;
}

plan_table make_plan_table(const study& s, const std::vector<bool>& selected,
                           const std::vector<plan_column>& extra) {
    plan_table t;
    std::set<std::string> datasets, formats;
    for (const auto& c : s.cases) {
        datasets.insert(c.dataset.name);
        formats.insert(c.format.label);
    }
    t.heading.push_back(fmt::format("study {} ({}): {} case{} from {} dataset{} x {} format{}", s.name,
                                    s.source, s.cases.size(), s.cases.size() == 1 ? "" : "s", datasets.size(),
                                    datasets.size() == 1 ? "" : "s", formats.size(),
                                    formats.size() == 1 ? "" : "s"));
    if (!s.description.empty()) t.heading.push_back("  " + s.description);
    std::size_t n_selected = 0;
    for (std::size_t i = 0; i < s.cases.size(); ++i)
        n_selected += selected.empty() || selected[i];
    if (!selected.empty())
        t.heading.push_back(
            fmt::format("  {} of {} cases selected by --filter/--exclude (numbers as in the full plan)",
                        n_selected, s.cases.size()));

    // Run parameters: a column each when the table names one or when the
    // cases differ in it; otherwise one note under the table.
    std::vector<const field<run_params>*> columns, notes;
    for (const auto& f : run_fields()) {
        bool varies = false;
        for (const auto& c : s.cases)
            varies |= !f.same(c.params, s.cases.front().params);
        (f.column.empty() && !varies ? notes : columns).push_back(&f);
    }
    t.header = {"#", "DATASET", "DTYPE", "COUNT", "FORMAT", "PLUGIN", "OPTIONS"};
    for (const auto* f : columns)
        t.header.push_back(f->column.empty() ? upper(f->key) : f->column);
    for (const auto& e : extra)
        t.header.push_back(e.header);
    for (const auto& c : s.cases) {
        if (!selected.empty() && !selected.at(c.index)) continue;
        std::string count = c.dataset.file.empty() ? std::to_string(c.dataset.count)
                                                   : std::to_string(c.dataset.count) + " (file)";
        std::vector<std::string> r = {
            std::to_string(c.index), c.dataset.name,  dtype_name(c.dataset.type),    count,
            c.format.label,          c.format.plugin, options_text(c.format.options)};
        for (const auto* f : columns) // "-": the parameter does not apply (access_axis of a random read)
            r.push_back(f->applies(c.params) ? f->text(c.params) : "-");
        for (const auto& e : extra)
            r.push_back(c.index < e.cells.size() ? e.cells[c.index] : "");
        t.rows.push_back(std::move(r));
    }
    // Numbers read best right-aligned: the index, the count, repetitions.
    const std::size_t first_extra = t.header.size() - extra.size();
    for (std::size_t i = 0; i < t.header.size(); ++i)
        t.right.push_back(i == 0 || i == 3 || t.header[i] == "REPEAT" || t.header[i] == "WARMUP" ||
                          i >= first_extra);

    // Settings that apply to every case.
    t.settings.push_back(
        "directory: " + (s.directory.empty() ? std::string("a fresh folder under $TMPDIR") : s.directory) +
        (s.keep_files ? " (files kept)" : ""));
    if (!s.baseline.empty()) t.settings.push_back("baseline: " + s.baseline);
    t.settings.push_back(
        fmt::format("isolation: {}, schedule: {}{}", to_string(s.isolation), to_string(s.schedule),
                    s.schedule == schedule_mode::shuffle ? fmt::format(" (seed {})", s.shuffle_seed) : ""));
    if (!s.cases.empty() && !notes.empty()) {
        std::vector<std::string> parts;
        for (const auto* f : notes)
            parts.push_back(f->key + ": " + f->text(s.cases.front().params));
        t.settings.push_back(join(parts));
    }
    if (!s.outputs.empty()) {
        std::vector<std::string> outs;
        for (const auto& o : s.outputs)
            outs.push_back(o.path.empty() ? o.format : o.format + " -> " + o.path);
        t.settings.push_back("outputs: " + join(outs));
    }
    return t;
}

} // namespace formatbench

// Shows an expanded study: one line per case (describe_case) and the aligned
// table `formatbench plan` prints. Expansion itself happens while the study
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

// Columns on a terminal: UTF-8 code points (fmt pads by them too; "µs").
std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
        n += (ch & 0xC0) != 0x80;
    return n;
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
        if ((field.identity & identity_when_set) && field.applies(c.params) && !field.same(c.params, defaults))
            text.append(" | ").append(field.key).append(" ").append(field.text(c.params));
    return text;
}

void print_plan(const study& s, std::ostream& out, const std::vector<bool>& selected,
                const std::vector<plan_column>& extra) {
    std::set<std::string> datasets, formats;
    for (const auto& c : s.cases) {
        datasets.insert(c.dataset.name);
        formats.insert(c.format.label);
    }
    out << fmt::format("study {} ({}): {} case{} from {} dataset{} x {} format{}\n", s.name, s.source,
                       s.cases.size(), s.cases.size() == 1 ? "" : "s", datasets.size(),
                       datasets.size() == 1 ? "" : "s", formats.size(), formats.size() == 1 ? "" : "s");
    if (!s.description.empty()) out << "  " << s.description << "\n";
    std::size_t n_selected = 0;
    for (std::size_t i = 0; i < s.cases.size(); ++i)
        n_selected += selected.empty() || selected[i];
    if (!selected.empty())
        out << fmt::format("  {} of {} cases selected by --filter/--exclude (numbers as in the full plan)\n",
                           n_selected, s.cases.size());
    out << "\n";

    // Run parameters: a column each when the table names one or when the
    // cases differ in it; otherwise one note under the table.
    std::vector<const field<run_params>*> columns, notes;
    for (const auto& f : run_fields()) {
        bool varies = false;
        for (const auto& c : s.cases)
            varies |= !f.same(c.params, s.cases.front().params);
        (f.column.empty() && !varies ? notes : columns).push_back(&f);
    }
    using row = std::vector<std::string>;
    std::vector<row> rows{{"#", "DATASET", "DTYPE", "COUNT", "FORMAT", "PLUGIN", "OPTIONS"}};
    for (const auto* f : columns)
        rows[0].push_back(f->column.empty() ? upper(f->key) : f->column);
    for (const auto& e : extra)
        rows[0].push_back(e.header);
    for (const auto& c : s.cases) {
        if (!selected.empty() && !selected.at(c.index)) continue;
        std::string count = c.dataset.file.empty() ? std::to_string(c.dataset.count)
                                                   : std::to_string(c.dataset.count) + " (file)";
        row r = {std::to_string(c.index), c.dataset.name,  dtype_name(c.dataset.type),    count,
                 c.format.label,          c.format.plugin, options_text(c.format.options)};
        for (const auto* f : columns) // "-": the parameter does not apply (access_axis of a random read)
            r.push_back(f->applies(c.params) ? f->text(c.params) : "-");
        for (const auto& e : extra)
            r.push_back(c.index < e.cells.size() ? e.cells[c.index] : "");
        rows.push_back(std::move(r));
    }
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], display_width(r[i]));
    // Numbers read best right-aligned: the index, the count, repetitions.
    const std::size_t first_extra = rows[0].size() - extra.size();
    auto right = [&](std::size_t i) {
        return i == 0 || i == 3 || rows[0][i] == "REPEAT" || rows[0][i] == "WARMUP" || i >= first_extra;
    };
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (i) line += "  ";
            line += right(i) ? fmt::format("{:>{}}", r[i], width[i]) : fmt::format("{:<{}}", r[i], width[i]);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << "\n";
    }

    // Settings that apply to every case.
    std::vector<std::string> lines;
    lines.push_back(
        "directory: " + (s.directory.empty() ? std::string("a fresh folder under $TMPDIR") : s.directory) +
        (s.keep_files ? " (files kept)" : ""));
    if (!s.baseline.empty()) lines.push_back("baseline: " + s.baseline);
    lines.push_back(
        fmt::format("isolation: {}, schedule: {}{}", to_string(s.isolation), to_string(s.schedule),
                    s.schedule == schedule_mode::shuffle ? fmt::format(" (seed {})", s.shuffle_seed) : ""));
    if (!s.cases.empty() && !notes.empty()) {
        std::vector<std::string> parts;
        for (const auto* f : notes)
            parts.push_back(f->key + ": " + f->text(s.cases.front().params));
        lines.push_back(join(parts));
    }
    if (!s.outputs.empty()) {
        std::vector<std::string> outs;
        for (const auto& o : s.outputs)
            outs.push_back(o.path.empty() ? o.format : o.format + " -> " + o.path);
        lines.push_back("outputs: " + join(outs));
    }
    out << "\n";
    for (const auto& n : lines)
        out << "  " << n << "\n";
}

} // namespace formatbench

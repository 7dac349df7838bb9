// Shows an expanded study: one line per case (describe_case) and the aligned
// table `formatbench plan` prints. Expansion itself happens while the study
// is read (config.cpp, config_sweep.hpp), so that errors keep their position.
#include "study/plan.hpp"
#include "base/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace formatbench {
namespace {

// Exact, readable byte sizes: 65536 -> "64KiB", 1000 -> "1000", 0 -> "whole".
std::string chunk_text(std::uint64_t bytes) {
    if (bytes == 0) return "whole";
    static const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    std::string unit;
    std::uint64_t v = bytes;
    for (const char* u : units) {
        if (v % 1024 != 0) break;
        v /= 1024;
        unit = u;
    }
    return std::to_string(v) + unit;
}

std::string options_text(const option_list& options) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : options)
        parts.push_back(k + "=" + v);
    return parts.empty() ? "-" : join(parts, " ");
}

} // namespace

std::string describe_case(const case_spec& c) {
    return fmt::format("{} | {} | chunk {} | {} | sync {}{}", c.dataset.name, c.format.label,
                       chunk_text(c.params.chunk_bytes), to_string(c.params.cache), to_string(c.params.sync),
                       c.params.read == read_mode::view ? " | read view" : "");
}

void print_plan(const study& s, std::ostream& out) {
    std::set<std::string> datasets, formats;
    for (const auto& c : s.cases) {
        datasets.insert(c.dataset.name);
        formats.insert(c.format.label);
    }
    out << fmt::format("study {} ({}): {} case{} from {} dataset{} x {} format{}\n", s.name, s.source,
                       s.cases.size(), s.cases.size() == 1 ? "" : "s", datasets.size(),
                       datasets.size() == 1 ? "" : "s", formats.size(), formats.size() == 1 ? "" : "s");
    if (!s.description.empty()) out << "  " << s.description << "\n";
    out << "\n";

    constexpr std::size_t columns = 13;
    using row = std::array<std::string, columns>;
    std::vector<row> rows{{"#", "DATASET", "DTYPE", "COUNT", "FORMAT", "PLUGIN", "OPTIONS", "CHUNK", "CACHE",
                           "SYNC", "READ", "REPEAT", "WARMUP"}};
    for (const auto& c : s.cases) {
        std::string count = c.dataset.file.empty() ? std::to_string(c.dataset.count)
                                                   : std::to_string(c.dataset.count) + " (file)";
        rows.push_back({std::to_string(c.index), c.dataset.name, dtype_name(c.dataset.type), count,
                        c.format.label, c.format.plugin, options_text(c.format.options),
                        chunk_text(c.params.chunk_bytes), to_string(c.params.cache), to_string(c.params.sync),
                        to_string(c.params.read), std::to_string(c.params.repeat),
                        std::to_string(c.params.warmup)});
    }
    std::array<std::size_t, columns> width{};
    for (const auto& r : rows)
        for (std::size_t i = 0; i < columns; ++i)
            width[i] = std::max(width[i], r[i].size());
    // Numbers read best right-aligned: index, count, repeat, warm-up.
    auto right = [](std::size_t i) { return i == 0 || i == 3 || i == 10 || i == 11; };
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < columns; ++i) {
            if (i) line += "  ";
            line += right(i) ? fmt::format("{:>{}}", r[i], width[i]) : fmt::format("{:<{}}", r[i], width[i]);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << "\n";
    }

    // Settings that apply to every case and are not default.
    std::vector<std::string> notes;
    notes.push_back(
        "directory: " + (s.directory.empty() ? std::string("a fresh folder under $TMPDIR") : s.directory) +
        (s.keep_files ? " (files kept)" : ""));
    if (!s.baseline.empty()) notes.push_back("baseline: " + s.baseline);
    notes.push_back(std::string("isolation: ") + to_string(s.isolation) +
                    (s.interleave ? ", interleaved" : ""));
    if (!s.cases.empty()) {
        const run_params& p = s.cases.front().params;
        bool same = std::all_of(s.cases.begin(), s.cases.end(), [&](const case_spec& c) {
            return c.params.min_time == p.min_time && c.params.timeout == p.timeout &&
                   c.params.align_offset == p.align_offset;
        });
        if (same)
            notes.push_back(fmt::format("min_time: {}s, timeout: {}s, align_offset: {}", p.min_time,
                                        p.timeout, p.align_offset));
        else
            notes.push_back("min_time, timeout or align_offset differ between cases");
    }
    if (!s.outputs.empty()) {
        std::vector<std::string> outs;
        for (const auto& o : s.outputs)
            outs.push_back(o.path.empty() ? o.format : o.format + " -> " + o.path);
        notes.push_back("outputs: " + join(outs));
    }
    out << "\n";
    for (const auto& n : notes)
        out << "  " << n << "\n";
}

} // namespace formatbench

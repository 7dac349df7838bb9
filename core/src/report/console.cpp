// Console reporter: per dataset an aligned table in the spirit of the
// reference Fortran program's output (times, then "enhancement" factors
// against the baseline), with a header naming the study and the machine.
#include "base/colour.hpp"
#include "base/text.hpp"
#include "report/reporters.hpp"
#include "report/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace formatbench::detail {
namespace {

// Columns on a terminal: UTF-8 code points (µ and ± are one column each).
std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
        n += (ch & 0xC0) != 0x80;
    return n;
}

std::string pad(const std::string& s, std::size_t width, bool right) {
    const std::string fill(width - std::min(width, display_width(s)), ' ');
    return right ? fill + s : s + fill;
}

// Cells are escaped here (labels and messages come from studies and
// plugins); with `colour`, the status column's cells are painted after
// padding, so the escapes never count as width.
void print_table(results_table t, std::ostream& out, bool colour = false) {
    for (std::string& h : t.header)
        h = escape_text(h);
    for (auto& row : t.rows)
        for (std::string& c : row)
            c = escape_text(c);
    const auto status_column = std::find(t.header.begin(), t.header.end(), "status") - t.header.begin();
    std::vector<std::size_t> width(t.header.size());
    for (std::size_t i = 0; i < t.header.size(); ++i)
        width[i] = display_width(t.header[i]);
    for (const auto& row : t.rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], display_width(row[i]));
    auto line = [&](const std::vector<std::string>& cells, bool body) {
        std::string text = " ";
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i) text += "  ";
            std::string cell = pad(cells[i], width[i], t.numeric[i]);
            if (body && colour && static_cast<std::ptrdiff_t>(i) == status_column) {
                const std::string fill(cell.size() - cells[i].size(), ' ');
                const std::string painted = paint(cells[i] == "ok" ? tone::good : tone::bad, cells[i], true);
                cell = t.numeric[i] ? fill + painted : painted + fill;
            }
            text += cell;
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << '\n';
    };
    line(t.header, false);
    std::vector<std::string> rule;
    for (std::size_t w : width)
        rule.emplace_back(w, '-');
    line(rule, false);
    for (const auto& row : t.rows)
        line(row, true);
}

// A multi-line error message stays under its marker.
std::string indent_continuation(const std::string& text) {
    std::string out;
    for (char c : text)
        out += c == '\n' ? std::string("\n   ") : std::string(1, c);
    return out;
}

class console_reporter final : public reporter {
public:
    explicit console_reporter(const render_options& style) : style_(style) {}

    // For a terminal: labels and messages from studies and plugins may hold
    // control characters, which are escaped ("\x1b"), never sent raw; each
    // piece of text is escaped on its own, so that the colours (SGR escapes
    // this reporter adds) are the only control sequences.
    void write(const study_result& r, std::ostream& terminal) const override {
        std::ostringstream out;
        render(r, out);
        terminal << out.str();
    }

private:
    void render(const study_result& r, std::ostream& out) const {
        out << escape_text(fmt::format("study '{}'", r.spec.name));
        if (!r.spec.description.empty()) out << " - " << escape_text(r.spec.description);
        out << '\n';
        const std::string context = escape_text(context_line(r.context));
        if (!context.empty()) out << context << '\n';
        if (r.cases.empty()) {
            out << "\nno case ran\n";
            return;
        }
        for (const dataset_group& g : group_by_dataset(r.cases)) {
            out << escape_text(fmt::format("\ndataset '{}': {}\n\n", g.dataset->name,
                                           describe_dataset(*g.dataset, g.cases.front()->payload_bytes)));
            const results_table t = dataset_table(r, g, style_.units);
            print_table(t, out, style_.colour);
            if (const results_table m = metrics_table(g); !m.rows.empty()) {
                out << "\n plugin metrics (median per repetition):\n";
                print_table(m, out);
            }
            if (const results_table m = rank_table(g); !m.rows.empty()) {
                out << "\n rank times (each rank's own, median per repetition):\n";
                print_table(m, out);
            }
            if (t.baseline_missing)
                out << escape_text(fmt::format(" (baseline '{}' has no case for this dataset: no speed-up)\n",
                                               r.spec.baseline));
            for (const std::string& f : t.failures)
                out << paint(tone::bad, " !", style_.colour) << ' ' << escape_text(indent_continuation(f))
                    << '\n';
        }
        if (const auto fits = fit_cost_models(r.cases); !fits.empty()) {
            out << '\n' << cost_model_title << ":\n\n";
            print_table(cost_model_table(fits), out);
            for (const std::string& l : crossover_lines(find_crossovers(fits), fits))
                out << " " << l << '\n';
        }
        out << '\n';
        for (const std::string& l : legend(r, style_.units))
            out << escape_text(l) << '\n';
    }

    render_options style_;
};

} // namespace

std::unique_ptr<reporter> make_console_reporter(const render_options& style) {
    return std::make_unique<console_reporter>(style);
}

} // namespace formatbench::detail

// Console reporter: per dataset the tables laid out for the terminal's width
// (table_layout.hpp), in the spirit of the reference Fortran program's
// output (times, then "enhancement" factors against the baseline), then the
// verdict (verdict.hpp); a header naming the study and the machine first,
// the legend of the columns shown last.
#include "base/colour.hpp"
#include "base/text.hpp"
#include "report/reporters.hpp"
#include "report/table.hpp"
#include "report/table_layout.hpp"
#include "report/terminal_text.hpp"
#include "report/verdict.hpp"
#include "results/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace formatbench::detail {
namespace {

// Every prose line (titles, notes, the verdict, the legend) is wrapped at
// the table's width, continuation lines indented under their first word.
void print_prose(std::ostream& out, const std::string& text, std::size_t width, const std::string& lead = "",
                 const std::string& indent = "   ") {
    for (const std::string& l : wrap_words(lead + text, width, indent))
        out << l << '\n';
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
    void print(const laid_out_table& t, std::ostream& out) const {
        auto paint_status = [&](const std::string& id, const std::string& cell, const std::string& padded) {
            if (id != "status" || !style_.colour) return padded;
            const std::size_t at = padded.find(cell);
            return padded.substr(0, at) + paint(cell == "ok" ? tone::good : tone::bad, cell, true) +
                   padded.substr(at + cell.size());
        };
        for (const std::string& l : table_lines(t, paint_status))
            out << l << '\n';
    }

    void print_plain(const results_table& t, std::ostream& out) const {
        const auto tables = lay_out_plain(t, style_.width);
        for (std::size_t i = 0; i < tables.size(); ++i) {
            if (i) out << '\n';
            print(tables[i], out);
        }
    }

    void render(const study_result& r, std::ostream& out) const {
        const std::size_t width = style_.width;
        std::string title = escape_line(fmt::format("study '{}'", r.spec.name));
        if (!r.spec.description.empty()) title += " - " + escape_line(r.spec.description);
        print_prose(out, title, width);
        const std::string context = escape_line(context_line(r.context));
        if (!context.empty())
            for (const std::string& l : wrap_at(context, " | ", width, "  "))
                out << l << '\n';
        if (r.cases.empty()) {
            out << "\nno case ran\n";
            return;
        }
        std::set<std::string> shown; // the columns printed, for the legend
        bool machine_said = false;   // the busy machine's line, once, before the first verdict
        for (const dataset_group& g : group_by_dataset(r.cases)) {
            out << '\n';
            print_prose(
                out,
                escape_line(fmt::format("dataset '{}': {}", g.dataset->name,
                                        describe_dataset(*g.dataset, g.cases.front()->payload_bytes))),
                width);
            out << '\n';
            const results_table t = dataset_columns(r, g, style_.units);
            const auto tables = lay_out_dataset(t, {width, style_.columns});
            for (std::size_t i = 0; i < tables.size(); ++i) {
                if (i) out << '\n';
                print(tables[i], out);
                shown.insert(tables[i].ids.begin(), tables[i].ids.end());
            }
            if (const results_table m = metrics_table(g); !m.rows.empty()) {
                out << "\n plugin metrics (median per repetition):\n";
                print_plain(m, out);
            }
            if (const results_table m = rank_table(g); !m.rows.empty()) {
                out << "\n rank times (each rank's own, median per repetition):\n";
                print_plain(m, out);
            }
            if (t.baseline_missing)
                print_prose(
                    out,
                    escape_line(fmt::format("(baseline '{}' has no case for this dataset: no speed-up)",
                                            r.spec.baseline)),
                    width, " ");
            for (const std::string& f : t.failures) {
                const auto lines = wrap_words(escape_line(f), width > 3 ? width - 3 : 0, "");
                for (std::size_t i = 0; i < lines.size(); ++i)
                    out << (i ? "   " : paint(tone::bad, " !", style_.colour) + " ") << lines[i] << '\n';
            }
            if (const auto verdict = verdict_lines(r, g); !verdict.empty()) {
                out << '\n';
                if (!machine_said) {
                    machine_said = true;
                    if (const auto line = machine_state_line(summarize_machine(r)))
                        print_prose(out, escape_line(*line), width, " ", "   ");
                }
                for (const std::string& l : verdict)
                    print_prose(out, escape_line(l), width, " ", "   ");
            }
        }
        if (const auto fits = fit_cost_models(r.cases); !fits.empty()) {
            out << '\n';
            print_prose(out, std::string(cost_model_title) + ":", width);
            out << '\n';
            print_plain(cost_model_table(fits), out);
            for (const std::string& l : crossover_lines(find_crossovers(fits), fits))
                print_prose(out, l, width, " ");
        }
        out << '\n';
        for (const std::string& l : legend(r, style_.units, &shown))
            print_prose(out, escape_line(l), width, "", "  ");
    }

    render_options style_;
};

} // namespace

std::unique_ptr<reporter> make_console_reporter(const render_options& style) {
    return std::make_unique<console_reporter>(style);
}

} // namespace formatbench::detail

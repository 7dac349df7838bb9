// Markdown reporter: a GitHub table per dataset with the console's columns
// (table.hpp), the verdict (verdict.hpp) under it, a context line, and the
// unit definitions.
#include "base/text.hpp"
#include "report/reporters.hpp"
#include "report/table.hpp"
#include "report/verdict.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace formatbench::detail {
namespace {

// A table cell or a line of text: nothing in it is read as markup, ends
// the cell or the row (base/text.hpp).
std::string cell(const std::string& s) {
    return markdown_text(s);
}

// "| a | b |"
std::string row_text(const std::vector<std::string>& cells) {
    std::string line = "|";
    for (const std::string& c : cells) {
        line += ' ';
        line += cell(c);
        line += " |";
    }
    return line;
}

// Inline code that survives backticks in the text (a code span is
// literal; its control characters are escaped).
std::string code(const std::string& text) {
    const std::string s = escape_line(text);
    return s.find('`') == std::string::npos ? "`" + s + "`" : "`` " + s + " ``";
}

class markdown_reporter final : public reporter {
public:
    explicit markdown_reporter(const render_options& style) : units_(style.units) {}
    void write(const study_result& r, std::ostream& out) const override {
        out << "# formatbench: " << cell(r.spec.name) << "\n\n";
        if (!r.spec.description.empty()) out << cell(r.spec.description) << "\n\n";
        const std::string context = context_line(r.context);
        if (!context.empty()) out << "*" << cell(context) << "*\n\n";
        if (r.cases.empty()) {
            out << "No case ran.\n";
            return;
        }
        for (const dataset_group& g : group_by_dataset(r.cases)) {
            out << fmt::format("## Dataset {}\n\n{}\n\n", code(g.dataset->name),
                               describe_dataset(*g.dataset, g.cases.front()->payload_bytes));
            const results_table t = dataset_table(r, g, units_);
            std::string align = "|";
            for (std::size_t i = 0; i < t.header.size(); ++i)
                align += t.numeric[i] ? " --: |" : " :-- |";
            out << row_text(t.header) << '\n' << align << '\n';
            for (const auto& row : t.rows)
                out << row_text(row) << '\n';
            out << '\n';
            if (t.baseline_missing)
                out << fmt::format("Baseline {} has no case for this dataset: no speed-up.\n\n",
                                   code(r.spec.baseline));
            if (!t.failures.empty()) {
                out << "Cases not ok:\n\n";
                for (const std::string& f : t.failures)
                    out << "- " << cell(f) << '\n';
                out << '\n';
            }
            if (const auto verdict = verdict_lines(r, g); !verdict.empty()) {
                out << "Verdict:\n\n";
                for (const std::string& l : verdict)
                    out << "- " << cell(l) << '\n';
                out << '\n';
            }
        }
        for (const std::string& l : legend(r, units_))
            out << "- " << l << '\n';
    }

private:
    rate_unit units_;
};

} // namespace

std::unique_ptr<reporter> make_markdown_reporter(const render_options& style) {
    return std::make_unique<markdown_reporter>(style);
}

} // namespace formatbench::detail

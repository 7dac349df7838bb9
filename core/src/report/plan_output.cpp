// Plan's text for a width (plan_output.hpp).
#include "report/plan_output.hpp"

#include "base/text.hpp"
#include "report/table.hpp"
#include "report/table_layout.hpp"
#include "report/terminal_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace formatbench {
namespace {

// The leading spaces of `text`, as its indent, and the lines of the rest
// wrapped at `separator` (words when empty), later ones indented two more.
std::vector<std::string> wrapped(const std::string& text, std::size_t width, const std::string& separator) {
    const std::size_t lead = std::min(text.find_first_not_of(' '), text.size());
    const std::string indent(lead, ' ');
    const std::string rest = escape_line(text.substr(lead));
    const std::size_t room = width == 0 ? 0 : std::max<std::size_t>(20, width - std::min(width, lead));
    std::vector<std::string> lines = separator.empty() ? detail::wrap_words(rest, room, "  ")
                                                       : detail::wrap_at(rest, separator, room, "  ");
    for (auto& l : lines)
        l = indent + l;
    return lines;
}

// The table as plan always printed it: no leading space, columns two apart.
void print_whole(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right,
                 std::ostream& out) {
    std::vector<std::size_t> w(right.size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i)
            w[i] = std::max(w[i], detail::display_width(r[i]));
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (i) line += "  ";
            line += detail::pad_to(r[i], w[i], right[i]);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << "\n";
    }
}

std::size_t whole_width(const std::vector<std::vector<std::string>>& rows) {
    if (rows.empty()) return 0;
    std::vector<std::size_t> w(rows.front().size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size() && i < w.size(); ++i)
            w[i] = std::max(w[i], detail::display_width(r[i]));
    return std::accumulate(w.begin(), w.end(), std::size_t{0}) + 2 * (w.size() - 1);
}

} // namespace

void print_plan(const plan_table& t, std::ostream& out, std::size_t width) {
    for (const std::string& h : t.heading)
        for (const std::string& l : wrapped(h, width, ""))
            out << l << "\n";
    out << "\n";
    std::vector<std::vector<std::string>> rows{t.header};
    for (const auto& r : t.rows) {
        std::vector<std::string> cells;
        for (const std::string& c : r)
            cells.push_back(escape_line(c));
        rows.push_back(std::move(cells));
    }
    if (width == 0 || whole_width(rows) <= width) {
        print_whole(rows, t.right, out);
    } else {
        // Split for the width as run's plain tables are: the case number
        // and the format label start every table, so every row can be told
        // apart in each (the number is the column lay_out_plain may
        // shorten, which it never needs to).
        const auto format = static_cast<std::size_t>(std::find(t.header.begin(), t.header.end(), "FORMAT") -
                                                     t.header.begin());
        std::vector<std::size_t> order{0, format};
        for (std::size_t i = 1; i < t.header.size(); ++i)
            if (i != format) order.push_back(i);
        detail::results_table split;
        split.key_columns = 2;
        for (std::size_t i : order) {
            split.header.push_back(t.header[i]);
            split.numeric.push_back(t.right[i]);
        }
        for (std::size_t r = 1; r < rows.size(); ++r) {
            std::vector<std::string> cells;
            for (std::size_t i : order)
                cells.push_back(rows[r][i]);
            split.rows.push_back(std::move(cells));
        }
        const auto tables = detail::lay_out_plain(split, width);
        for (std::size_t i = 0; i < tables.size(); ++i) {
            if (i) out << "\n";
            for (const std::string& l : detail::table_lines(tables[i], {}))
                out << l << "\n";
        }
    }
    out << "\n";
    for (const std::string& s : t.settings)
        for (const std::string& l : wrapped("  " + s, width, ", "))
            out << l << "\n";
}

void print_plan_note(const std::string& note, std::ostream& out, std::size_t width) {
    for (const std::string& l : wrapped(note, width, ""))
        out << l << "\n";
}

} // namespace formatbench

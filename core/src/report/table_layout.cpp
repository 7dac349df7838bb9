// Lays out the console's tables for a width (table_layout.hpp).
#include "report/table_layout.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"
#include "report/terminal_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

namespace formatbench::detail {
namespace {

// Labels are never shortened below this many columns: below it, two rows
// that differ only in the middle of their labels could no longer be told
// apart.
constexpr std::size_t min_label_width = 12;
// The main table gives up its intervals before its labels go below this.
constexpr std::size_t roomy_label_width = 24;

// How labels are cut to a width: in the middle, or after `head` columns.
struct label_cut {
    std::size_t width;
    std::size_t head = middle;
    static constexpr std::size_t middle = static_cast<std::size_t>(-1);
    label_cut(std::size_t w, std::size_t h = middle) : width(w), head(h) {} // NOLINT: a width is a cut
    std::string operator()(const std::string& label) const {
        return head == middle ? shorten_middle(label, width) : shorten_at(label, width, head);
    }
};

// A printed column: its header and the source columns whose cells it joins
// (one, or a figure and its spread or interval: joined_cell).
struct display_column {
    std::string header;
    bool numeric = false;
    std::vector<std::size_t> parts;
};

std::size_t index_of(const results_table& t, const std::string& id) {
    return static_cast<std::size_t>(std::find(t.ids.begin(), t.ids.end(), id) - t.ids.begin());
}

bool has(const results_table& t, const std::string& id) {
    return index_of(t, id) < t.ids.size();
}

display_column column_of(const results_table& t, std::size_t i) {
    return {t.header[i], t.numeric[i], {i}};
}

// "write speed-up" over two lines: "write" above "speed-up"; a header of
// one word stays on the lower line.
std::pair<std::string, std::string> stack(const std::string& header) {
    const std::size_t space = header.find(' ');
    if (space == std::string::npos) return {"", header};
    return {header.substr(0, space), header.substr(space + 1)};
}

// The table of `columns` (column 0 is the label), labels shortened to
// `label_width`, headers stacked when `stacked`.
laid_out_table build(const results_table& t, const std::vector<display_column>& columns,
                     const label_cut& label_width, bool stacked) {
    laid_out_table out;
    for (const display_column& c : columns) {
        for (std::size_t part : c.parts)
            if (part < t.ids.size()) out.ids.push_back(t.ids[part]);
        out.column_ids.push_back(c.parts.front() < t.ids.size() ? t.ids[c.parts.front()] : "");
        const std::string header = escape_line(c.header);
        if (stacked) {
            auto [top, bottom] = stack(header);
            out.header_top.push_back(top);
            out.header.push_back(bottom);
        } else {
            out.header.push_back(header);
        }
        out.numeric.push_back(c.numeric);
    }
    for (const auto& src : t.rows) {
        std::vector<std::string> row;
        for (std::size_t k = 0; k < columns.size(); ++k) {
            std::string cell = src[columns[k].parts.front()];
            for (std::size_t p = 1; p < columns[k].parts.size(); ++p)
                cell = joined_cell(cell, src[columns[k].parts[p]]);
            cell = escape_line(cell);
            row.push_back(k == 0 ? label_width(cell) : cell);
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

std::vector<std::size_t> column_widths(const laid_out_table& t) {
    std::vector<std::size_t> w(t.header.size(), 0);
    for (std::size_t i = 0; i < w.size(); ++i) {
        w[i] = display_width(t.header[i]);
        if (t.stacked()) w[i] = std::max(w[i], display_width(t.header_top[i]));
    }
    for (const auto& row : t.rows)
        for (std::size_t i = 0; i < row.size() && i < w.size(); ++i)
            w[i] = std::max(w[i], display_width(row[i]));
    return w;
}

// The longest label of `t` (escaped), at least the header's width.
std::size_t natural_label_width(const results_table& t) {
    std::size_t w = display_width(t.header.empty() ? std::string() : t.header[0]);
    for (const auto& row : t.rows)
        if (!row.empty()) w = std::max(w, display_width(escape_line(row[0])));
    return w;
}

// How to cut labels to `label_width` so that rows whose labels differ are
// still told apart ("zstd-f…4KiB]" for four zstd-frames rows that differed
// in their middle): in the middle when that keeps them apart, else after
// fewer columns (keeping more of the end, where such labels differ), else
// in the middle at the least width that keeps them apart.
label_cut distinct_cut(const results_table& t, std::size_t label_width) {
    std::set<std::string> labels;
    for (const auto& row : t.rows)
        if (!row.empty()) labels.insert(escape_line(row[0]));
    auto apart = [&](const label_cut& cut) {
        std::set<std::string> shortened;
        for (const std::string& l : labels)
            shortened.insert(cut(l));
        return shortened.size() == labels.size();
    };
    if (apart(label_cut(label_width))) return label_width;
    for (std::size_t head = label_width / 2; head-- > 1;)
        if (apart(label_cut(label_width, head))) return {label_width, head};
    const std::size_t natural = natural_label_width(t);
    for (std::size_t w = label_width + 1; w < natural; ++w)
        if (apart(label_cut(w))) return w;
    return std::max(label_width, natural);
}

// The label width that brings `table` within `width`, not below `floor`
// (and never wider than the labels are).
std::size_t label_width_for(const laid_out_table& table, std::size_t label_width, std::size_t width,
                            std::size_t floor) {
    const std::size_t now = table.width();
    if (now <= width) return label_width;
    const std::size_t excess = now - width;
    return label_width > floor + excess ? label_width - excess : std::min(label_width, floor);
}

// Splits `columns` (label first) over tables of at most `width` columns,
// greedily, each repeating the label; a column too wide for any table still
// gets one of its own.
std::vector<laid_out_table> pack(const results_table& t, const std::vector<display_column>& columns,
                                 const label_cut& label_width, bool stacked, std::size_t width) {
    std::vector<laid_out_table> out;
    // The columns that tell the rows apart come first and start every table.
    const std::size_t keys = std::clamp<std::size_t>(t.key_columns, 1, columns.size());
    if (columns.size() <= keys) return out;
    const std::vector<display_column> key(columns.begin(),
                                          columns.begin() + static_cast<std::ptrdiff_t>(keys));
    std::vector<display_column> current = key;
    for (std::size_t i = keys; i < columns.size(); ++i) {
        std::vector<display_column> trial = current;
        trial.push_back(columns[i]);
        if (width > 0 && current.size() > keys && build(t, trial, label_width, stacked).width() > width) {
            out.push_back(build(t, current, label_width, stacked));
            current = key;
            current.push_back(columns[i]);
        } else {
            current = std::move(trial);
        }
    }
    out.push_back(build(t, current, label_width, stacked));
    return out;
}

// The default view (table_layout.hpp): the main table shrinks step by step
// until it fits, each step giving up less than the next: headers stacked
// on two lines, the speed-up intervals moved to the details table, labels
// shortened to roomy_label_width, the spreads moved, labels shortened to
// min_label_width. What the main table gives up is never lost: it moves to
// the details table.
std::vector<laid_out_table> default_view(const results_table& t, std::size_t width) {
    bool stacked = false, intervals_out = false, spreads_out = false;
    std::size_t label_width = natural_label_width(t);
    auto main_columns = [&] {
        std::vector<display_column> cols;
        for (const char* id :
             {"format", "write", "read", "write-speedup", "read-speedup", "check", "status"}) {
            if (!has(t, id)) continue;
            display_column c = column_of(t, index_of(t, id));
            const std::string sid = id;
            const bool interval = sid == "write-speedup" || sid == "read-speedup";
            const bool spread = sid == "write" || sid == "read";
            if ((interval && !intervals_out) || (spread && !spreads_out))
                for (const auto& [shown, part] : joined_columns())
                    if (shown == sid && has(t, part)) c.parts.push_back(index_of(t, part));
            cols.push_back(std::move(c));
        }
        return cols;
    };
    auto main_table = [&] { return build(t, main_columns(), label_width, stacked); };
    if (width > 0) {
        const std::vector<std::function<void()>> steps = {
            [&] { stacked = true; },
            [&] { intervals_out = has(t, "write-ci"); },
            [&] { label_width = label_width_for(main_table(), label_width, width, roomy_label_width); },
            [&] { spreads_out = true; },
            [&] { label_width = label_width_for(main_table(), label_width, width, min_label_width); },
        };
        for (const auto& step : steps) {
            if (main_table().width() <= width) break;
            step();
        }
    }
    const label_cut cut = distinct_cut(t, label_width);
    std::vector<laid_out_table> out = {build(t, main_columns(), cut, stacked)};
    std::vector<display_column> details = {column_of(t, 0)};
    std::vector<std::string> detail_ids = {"write-rate", "read-rate",    "file",     "ratio",
                                           "resident",   "read-latency", "read-iops"};
    if (spreads_out) detail_ids.insert(detail_ids.end(), {"write-cv", "read-cv"});
    if (intervals_out) detail_ids.insert(detail_ids.end(), {"write-ci", "read-ci"});
    for (const std::string& id : detail_ids)
        if (has(t, id)) details.push_back(column_of(t, index_of(t, id)));
    for (auto& d : pack(t, details, cut, stacked, width))
        out.push_back(std::move(d));
    return out;
}

} // namespace

std::size_t laid_out_table::width() const {
    const std::vector<std::size_t> w = column_widths(*this);
    std::size_t total = 1; // the leading space
    for (std::size_t i = 0; i < w.size(); ++i)
        total += w[i] + (i ? 2 : 0);
    return total;
}

const std::vector<std::string>& column_ids() {
    static const std::vector<std::string> ids = {
        "format",       "write",    "read",     "write-cv",     "read-cv",   "write-rate", "read-rate",
        "file",         "ratio",    "resident", "read-latency", "read-iops", "check",      "write-speedup",
        "read-speedup", "write-ci", "read-ci",  "status",       "all"};
    return ids;
}

void check_column_ids(const std::vector<std::string>& ids, const std::string& flag) {
    if (ids.empty()) throw usage_error(flag + ": expected a list of column ids, like format,write,read");
    std::set<std::string> seen;
    for (const std::string& id : ids) {
        if (std::find(column_ids().begin(), column_ids().end(), id) == column_ids().end())
            throw usage_error(fmt::format("{}: no column '{}'{}; the columns are: {}", flag, id,
                                          did_you_mean(id, column_ids()), join(column_ids())));
        if (!seen.insert(id).second)
            throw usage_error(fmt::format("{}: column '{}' is listed twice", flag, id));
    }
    if (seen.count("all") && ids.size() > 1)
        throw usage_error(flag + ": 'all' is every column; list it alone");
}

std::vector<laid_out_table> lay_out_dataset(const results_table& t, const table_view& view) {
    if (view.columns.empty()) return default_view(t, view.width);
    std::vector<display_column> cols;
    if (view.columns.front() == "all") {
        // The wide table (dataset_table): each figure with its spread or interval.
        for (std::size_t i = 0; i < t.ids.size(); ++i) {
            bool is_joined = false;
            for (const auto& [shown, part] : joined_columns())
                is_joined |= part == t.ids[i];
            if (is_joined) continue;
            display_column c = column_of(t, i);
            for (const auto& [shown, part] : joined_columns())
                if (shown == t.ids[i] && has(t, part)) c.parts.push_back(index_of(t, part));
            cols.push_back(std::move(c));
        }
    } else {
        cols.push_back(column_of(t, 0)); // the label always comes first
        for (const std::string& id : view.columns)
            if (id != "format" && has(t, id)) cols.push_back(column_of(t, index_of(t, id)));
    }
    std::size_t label_width = natural_label_width(t);
    if (view.width > 0)
        label_width =
            label_width_for(build(t, cols, label_width, false), label_width, view.width, min_label_width);
    return {build(t, cols, distinct_cut(t, label_width), false)};
}

std::vector<laid_out_table> lay_out_plain(const results_table& t, std::size_t width) {
    std::vector<display_column> cols;
    for (std::size_t i = 0; i < t.header.size(); ++i)
        cols.push_back(column_of(t, i));
    // The columns are split over tables, each repeating the label: the
    // label gives up only what the widest of those tables needs.
    std::size_t label_width = natural_label_width(t);
    if (width > 0 && !cols.empty()) {
        // Each table holds the key columns and at least one more.
        const std::size_t keys = std::clamp<std::size_t>(t.key_columns, 1, cols.size());
        std::size_t need = label_width;
        for (std::size_t i = keys; i < cols.size(); ++i) {
            std::vector<display_column> one(cols.begin(), cols.begin() + static_cast<std::ptrdiff_t>(keys));
            one.push_back(cols[i]);
            need = std::min(need, label_width_for(build(t, one, label_width, false), label_width, width,
                                                  min_label_width));
        }
        label_width = need;
    }
    return pack(t, cols, distinct_cut(t, label_width), false, width);
}

std::vector<std::string> table_lines(const laid_out_table& t,
                                     const std::function<std::string(const std::string&, const std::string&,
                                                                     const std::string&)>& paint_cell) {
    const std::vector<std::size_t> width = column_widths(t);
    std::vector<std::string> lines;
    auto line = [&](const std::vector<std::string>& cells, bool body) {
        std::string text = " ";
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i) text += "  ";
            const std::string padded = pad_to(cells[i], width[i], t.numeric[i]);
            text += body && paint_cell ? paint_cell(t.column_ids[i], cells[i], padded) : padded;
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        lines.push_back(text);
    };
    if (t.stacked()) line(t.header_top, false);
    line(t.header, false);
    std::vector<std::string> rule;
    for (std::size_t w : width)
        rule.emplace_back(w, '-');
    line(rule, false);
    for (const auto& row : t.rows)
        line(row, true);
    return lines;
}

} // namespace formatbench::detail

// The console's tables laid out for a terminal width (docs/cli.md, "The
// table"): which columns go in the main table and which in the details
// table under it, where a label is shortened with an ellipsis and where a
// header is stacked on two lines. The figures come from table.hpp; this
// file only decides where they go, so `--columns all` prints the same cells
// as the Markdown table.
#pragma once

#include "report/table.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace formatbench::detail {

// --width and --columns: width 0 is unlimited; columns empty is the default
// view (main + details table), {"all"} the one wide table of every column,
// otherwise the ids listed, in that order, in one table.
struct table_view {
    std::size_t width = 0;
    std::vector<std::string> columns;
};

// The ids --columns accepts (dataset_columns' ids), in the order of the
// wide table, and "all".
const std::vector<std::string>& column_ids();

// Throws usage_error naming `flag` for an id column_ids() lacks (with a
// "did you mean"), an empty list, or "all" beside other ids.
void check_column_ids(const std::vector<std::string>& ids, const std::string& flag);

// A table ready to print: cells escaped and shortened, every row as wide
// as the header. `header_top` is empty or the first line of stacked headers.
struct laid_out_table {
    std::vector<std::string> ids;        // the source columns shown, for the legend
    std::vector<std::string> column_ids; // per printed column, its figure's id ("" in plain tables)
    std::vector<std::string> header_top, header;
    std::vector<bool> numeric;
    std::vector<std::vector<std::string>> rows;
    bool stacked() const { return !header_top.empty(); }
    std::size_t width() const; // columns of its widest line, with the leading space
};

// One data set's tables (dataset_columns) for `view`: in the default view
// the main table (format, write, read, speed-ups, check, status) and the
// details table(s) (throughput, file, ratio, resident, and what the main
// table had to give up), each within view.width where that can be done;
// with --columns, one table.
std::vector<laid_out_table> lay_out_dataset(const results_table& columns, const table_view& view);

// Any other table (plugin metrics, rank times, cost model): its labels
// shortened and its columns split over as many tables as `width` needs,
// each repeating the table's key columns (results_table::key_columns).
std::vector<laid_out_table> lay_out_plain(const results_table& t, std::size_t width);

// The printed lines of a laid-out table, with a leading space; `paint_cell`
// (may be empty) colours a body cell of column id after padding.
std::vector<std::string>
table_lines(const laid_out_table& t,
            const std::function<std::string(const std::string& id, const std::string& cell,
                                            const std::string& padded)>& paint_cell);

} // namespace formatbench::detail

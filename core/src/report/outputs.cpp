// The output table (outputs.hpp): reporters that render the whole record
// when the run ends, and the JSON Lines log that grows as cases end.
#include "report/outputs.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "report/jsonl_log.hpp"
#include "report/output_file.hpp"
#include "report/reporters.hpp"

#include <fmt/format.h>

#include <set>
#include <sstream>

namespace formatbench {
namespace {

// Renders the whole record with a reporter when the run ends.
class render_at_end final : public observer {
public:
    render_at_end(std::string kind, std::unique_ptr<reporter> rep, std::string path)
        : kind_(std::move(kind)), rep_(std::move(rep)), path_(std::move(path)) {}
    std::string name() const override {
        return fmt::format("{} output '{}'", kind_, path_.empty() || path_ == "-" ? "-" : path_);
    }
    void end(const run_outcome& outcome) override {
        std::ostringstream text;
        rep_->write(outcome.result, text);
        write_output_file(path_, text.str());
    }

private:
    std::string kind_;
    std::unique_ptr<reporter> rep_;
    std::string path_;
};

template <std::unique_ptr<reporter> (*Make)(const render_options&)>
output_kind rendered(const char* name, const char* help) {
    return {name, help, true,
            [name](const std::string& path, const log_options&,
                   const render_options& style) -> std::unique_ptr<observer> {
                return std::make_unique<render_at_end>(name, Make(style), path);
            }};
}

} // namespace

const std::vector<output_kind>& output_kinds() {
    static const std::vector<output_kind> table = {
        rendered<detail::make_console_reporter>("console", "the results table, as printed by default"),
        rendered<detail::make_json_reporter>(
            "json", "the full JSON record (its schema: results-schema.json in the documentation folder)"),
        rendered<detail::make_csv_reporter>("csv", "a CSV summary, one row per case"),
        rendered<detail::make_markdown_reporter>("markdown", "Markdown tables, one per data set"),
        {"jsonl", "a JSON Lines log: each case appended as it ends (resume it with --resume)", false,
         [](const std::string& path, const log_options& log,
            const render_options&) -> std::unique_ptr<observer> { return make_jsonl_log(path, log); }},
    };
    return table;
}

const output_kind& output_kind_named(const std::string& name, const std::string& origin) {
    std::vector<std::string> names;
    for (const auto& k : output_kinds()) {
        if (k.name == name) return k;
        names.push_back(k.name);
    }
    throw usage_error(fmt::format("{}unknown output '{}'{}; the outputs are: {}",
                                  origin.empty() ? "" : origin + ": ", name, did_you_mean(name, names),
                                  join(names)));
}

void check_outputs(const std::vector<output_spec>& outputs) {
    std::set<std::string> files;
    std::string on_stdout;
    for (const auto& o : outputs) {
        const std::string where = o.origin.empty() ? "" : o.origin + ": ";
        const output_kind& k = output_kind_named(o.format, o.origin);
        const bool to_stdout = o.path.empty() || o.path == "-";
        if (to_stdout) {
            if (!k.may_be_stdout)
                throw usage_error(
                    fmt::format("{}output '{}' needs a file path, not standard output", where, o.format));
            if (!on_stdout.empty() && on_stdout != o.format)
                throw usage_error(
                    fmt::format("{}outputs '{}' and '{}' both go to standard output; give one of them a "
                                "file path",
                                where, on_stdout, o.format));
            on_stdout = o.format;
            continue;
        }
        if (!files.insert(o.path).second)
            throw usage_error(
                fmt::format("{}'{}' is named by two outputs; give each its own file", where, o.path));
        check_output_path(o.path, where + o.format + " output");
    }
}

void add_output_observers(const std::vector<output_spec>& outputs, const log_options& log,
                          const render_options& style, observer_list& to) {
    for (const auto& o : outputs)
        to.add(output_kind_named(o.format, o.origin).make(o.path, log, style));
}

} // namespace formatbench

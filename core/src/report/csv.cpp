// CSV reporter (RFC 4180): one header row, then one row per case with its
// summary figures. No preamble, CRLF line ends, fields quoted when they hold a
// comma, a double quote, CR or LF (quotes doubled). Numbers are plain SI
// values (seconds, bytes, 10^6 bytes/s) at full precision; a missing value
// (no samples, no file, no baseline) is an empty field.
#include "report/reporters.hpp"
#include "report/table.hpp"
#include "study/fields.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <cmath>
#include <string>
#include <vector>

namespace formatbench::detail {
namespace {

std::string field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

// Shortest text that reads back to the same double; "" for NaN/inf.
std::string num(double v) {
    return std::isfinite(v) ? fmt::format("{}", v) : "";
}

// The run parameters' columns come from the field table (fields.hpp), under
// their JSON names, in table order.
std::vector<std::string> columns() {
    std::vector<std::string> c = {"index", "key", "dataset", "dtype", "count", "format", "plugin", "options"};
    for (const auto& f : run_fields())
        c.push_back(f.json_name);
    for (const char* name : {"status",
                             "error",
                             "n",
                             "write_median_s",
                             "write_min_s",
                             "write_mean_s",
                             "write_stddev_s",
                             "write_cv",
                             "read_median_s",
                             "read_min_s",
                             "read_mean_s",
                             "read_stddev_s",
                             "read_cv",
                             "write_RATE",
                             "read_RATE",
                             "payload_bytes",
                             "file_bytes",
                             "size_ratio",
                             "resident_fraction",
                             "peak_rss_bytes",
                             "verify_checked",
                             "compared",
                             "mismatches",
                             "max_abs_error",
                             "max_rel_error",
                             "rmse",
                             "psnr_db",
                             "outside_tolerance",
                             "write_speedup",
                             "read_speedup",
                             "ranks",
                             "write_rank_min_s",
                             "write_rank_median_s",
                             "write_rank_max_s",
                             "read_rank_min_s",
                             "read_rank_median_s",
                             "read_rank_max_s",
                             "read_ops",
                             "read_iops",
                             "read_p50_ns",
                             "read_p90_ns",
                             "read_p99_ns",
                             "read_p99_9_ns",
                             "read_max_ns",
                             "stop",
                             "write_used",
                             "write_disturbed",
                             "write_ci_low_s",
                             "write_ci_high_s",
                             "write_precision",
                             "read_used",
                             "read_disturbed",
                             "read_ci_low_s",
                             "read_ci_high_s",
                             "read_precision",
                             "write_speedup_ci_low",
                             "write_speedup_ci_high",
                             "read_speedup_ci_low",
                             "read_speedup_ci_high"})
        c.emplace_back(name);
    return c;
}

class csv_reporter final : public reporter {
public:
    explicit csv_reporter(const render_options& style) : units_(style.units) {}
    void write(const study_result& r, std::ostream& out) const override {
        auto emit = [&](const std::vector<std::string>& cells) {
            std::string line;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (i) line += ',';
                line += field(cells[i]);
            }
            out << line << "\r\n";
        };
        // Then one column per plugin metric any case reported (ABI 1.1):
        // "write.NAME" and "read.NAME", the median over the repetitions.
        std::vector<std::string> metric_columns;
        for (const case_result& c : r.cases)
            for (bool write : {true, false})
                for (const auto& [name, value] : (write ? c.figures.write : c.figures.read).metrics) {
                    const std::string column = (write ? "write." : "read.") + name;
                    if (std::find(metric_columns.begin(), metric_columns.end(), column) ==
                        metric_columns.end())
                        metric_columns.push_back(column);
                }
        // The throughput columns name their unit: write_mb_s or write_mib_s.
        std::vector<std::string> header = columns();
        for (std::string& h : header)
            if (h.ends_with("_RATE")) h.replace(h.size() - 4, 4, units_ == rate_unit::iec ? "mib_s" : "mb_s");
        header.insert(header.end(), metric_columns.begin(), metric_columns.end());
        emit(header);
        for (const case_result& c : r.cases) {
            const case_spec& s = c.spec;
            const case_figures& f = c.figures;
            const phase_figures &sw = f.write, &sr = f.read;
            std::string options;
            for (const auto& [name, value] : s.format.options)
                options += (options.empty() ? "" : ";") + name + "=" + value;
            const bool base = f.baseline_index.has_value();
            std::vector<std::string> row = {
                std::to_string(s.index),         s.key,          s.dataset.name,  dtype_name(s.dataset.type),
                std::to_string(s.dataset.count), s.format.label, s.format.plugin, options,
            };
            for (const auto& f : run_fields())
                row.push_back(f.identity_text(s.params));
            for (std::string cell : std::initializer_list<std::string>{
                     to_string(c.status),
                     c.error,
                     std::to_string(c.samples.size()),
                     num(sw.median_s),
                     num(sw.min_s),
                     num(sw.mean_s),
                     num(sw.stddev_s),
                     num(sw.cv),
                     num(sr.median_s),
                     num(sr.min_s),
                     num(sr.mean_s),
                     num(sr.stddev_s),
                     num(sr.cv),
                     num(throughput_in(units_, sw.bytes, sw.median_s)),
                     num(throughput_in(units_, sr.bytes, sr.median_s)),
                     std::to_string(c.payload_bytes),
                     std::to_string(c.file_bytes),
                     num(f.size_ratio),
                     num(f.resident_fraction),
                     std::to_string(c.peak_rss_bytes),
                     std::string(c.verify.checked ? "true" : "false"),
                     std::to_string(c.verify.compared),
                     std::to_string(c.verify.mismatches),
                     num(c.verify.max_abs_error),
                     num(c.verify.max_rel_error),
                     num(c.verify.rmse()),
                     num(c.verify.psnr_db()),
                     c.spec.format.tolerance.given() ? std::to_string(c.verify.outside_tolerance) : "",
                     base ? num(f.write_speedup.value) : "",
                     base ? num(f.read_speedup.value) : "",
                     std::to_string(c.ranks),
                 })
                row.push_back(std::move(cell));
            // Under MPI: the ranks' own times (medians over the repetitions).
            for (bool write : {true, false}) {
                const auto& spread = (write ? f.write : f.read).ranks;
                row.push_back(spread ? num(spread->min_s) : "");
                row.push_back(spread ? num(spread->median_s) : "");
                row.push_back(spread ? num(spread->max_s) : "");
            }
            // Under an access pattern: the read latency (figures.hpp's
            // latency_medians); empty cells where no pattern ran.
            if (const auto& l = f.latency)
                for (double v : {l->ops, l->iops, l->p50_ns, l->p90_ns, l->p99_ns, l->p999_ns, l->max_ns})
                    row.push_back(num(v));
            else
                row.insert(row.end(), 7, "");
            // The estimate: why the case stopped, the samples it rests on,
            // its interval and precision; the speed-ups' intervals.
            row.emplace_back(to_string(c.stop));
            for (const phase_figures* p : {&sw, &sr})
                for (std::string cell : {std::to_string(p->used), std::to_string(p->disturbed),
                                         num(p->ci_low_s), num(p->ci_high_s), num(p->precision)})
                    row.push_back(std::move(cell));
            for (const speedup_estimate* e : {&f.write_speedup, &f.read_speedup}) {
                row.push_back(base ? num(e->ci.low) : "");
                row.push_back(base ? num(e->ci.high) : "");
            }
            for (const std::string& column : metric_columns) {
                const bool write = column.rfind("write.", 0) == 0;
                const std::string name = column.substr(write ? 6 : 5);
                std::string cell;
                for (const auto& [k, v] : (write ? f.write : f.read).metrics)
                    if (k == name) cell = num(v);
                row.push_back(cell);
            }
            emit(row);
        }
    }

private:
    rate_unit units_;
};

} // namespace

std::unique_ptr<reporter> make_csv_reporter(const render_options& style) {
    return std::make_unique<csv_reporter>(style);
}

} // namespace formatbench::detail

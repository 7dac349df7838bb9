// The per-dataset results table shared by the console and Markdown reporters:
// which rows, which columns, what each cell says. The reporters only lay it
// out (aligned text or a GitHub table), so both always show the same figures.
//
// Speed-ups follow the reference program's "enhancement": for each dataset,
// median time of the baseline format / median time of the row, separately for
// write and read (so the baseline row reads 1.00x and faster formats > 1).
#pragma once

#include "report/units.hpp"
#include "results/cost_model.hpp"
#include "results/figures.hpp"
#include "results/noise.hpp"
#include "results/result.hpp"
#include "results/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace formatbench::detail {

// "exact" (bitwise identical), the max absolute error, or "-" when unchecked.
inline std::string format_check(const verification& v) {
    if (!v.checked) return "-";
    if (v.mismatches == 0) return "exact";
    if (v.max_abs_error > 0 || !std::isfinite(v.max_abs_error))
        return std::isfinite(v.max_abs_error) ? fmt::format("err {:.2g}", v.max_abs_error) : "err nan";
    return fmt::format("{} differ", v.mismatches); // e.g. -0 vs +0, or NaN payloads
}

// "1000000 x f64, uniform, payload 8.00 MB" (or "from FILE via PLUGIN").
inline std::string describe_dataset(const dataset_spec& d, std::uint64_t payload_bytes) {
    const std::string source = d.file.empty() ? std::string(to_string(d.dist))
                                              : fmt::format("from {} via {}", d.file, d.file_plugin);
    return fmt::format("{} x {}, {}, payload {}", d.count, dtype_name(d.type), source,
                       format_bytes(payload_bytes));
}

// "host h | CPU | 2 cores | 16.0 GB RAM | fs ext4 at /tmp/x | formatbench 0.1.0 (gcc 12, release) | date"
inline std::string context_line(const run_context& c) {
    std::vector<std::string> parts;
    if (!c.host.empty()) parts.push_back("host " + c.host);
    if (!c.cpu_model.empty()) parts.push_back(c.cpu_model);
    if (c.cores > 0) parts.push_back(fmt::format("{} cores", c.cores));
    if (c.ranks > 1)
        parts.push_back(fmt::format("{} MPI ranks on {} host{}", c.ranks, c.hosts, c.hosts == 1 ? "" : "s"));
    if (c.memory_bytes > 0) parts.push_back(format_bytes(c.memory_bytes) + " RAM");
    if (!c.os.empty() || !c.kernel.empty())
        parts.push_back(c.kernel.empty() ? c.os : c.os.empty() ? c.kernel : c.os + " " + c.kernel);
    if (!c.filesystem.empty() || !c.data_directory.empty())
        parts.push_back(fmt::format("fs {}{}", c.filesystem.empty() ? "?" : c.filesystem,
                                    c.data_directory.empty() ? "" : " at " + c.data_directory));
    if (!c.formatbench_version.empty()) {
        std::string build = c.compiler;
        if (!c.build_type.empty()) build += (build.empty() ? "" : ", ") + c.build_type;
        parts.push_back("formatbench " + c.formatbench_version + (build.empty() ? "" : " (" + build + ")"));
    }
    if (!c.date.empty()) parts.push_back(c.date);
    std::string line;
    for (std::size_t i = 0; i < parts.size(); ++i)
        line += (i ? " | " : "") + parts[i];
    return line;
}

// "12.3x [11.8, 12.9]": the speed-up and its 95% interval; the baseline
// against itself and single samples, where the interval says nothing, as
// the factor alone.
inline std::string format_speedup(const speedup_estimate& e) {
    const std::string value = format_factor(e.value);
    if (value == "-" || !std::isfinite(e.ci.low) || !std::isfinite(e.ci.high) || e.ci.low == e.ci.high)
        return value;
    auto bound = [](double f) {
        const std::string t = format_factor(f);
        return t.substr(0, t.size() - 1); // without the x
    };
    return fmt::format("{} [{}, {}]", value, bound(e.ci.low), bound(e.ci.high));
}

struct results_table {
    std::vector<std::string> ids; // column ids (--columns); empty where a table has none
    std::vector<std::string> header;
    std::vector<bool> numeric; // right-aligned column
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> failures; // "label: status: error", one per case not ok
    bool baseline_missing = false;     // the study names a baseline this dataset lacks
    std::size_t key_columns = 1; // the leading columns that tell rows apart: every split table repeats them
};

// One data set's figures, one column each (the ids --columns takes):
// format | write | read | write-cv | read-cv | write-rate | read-rate | file
// | ratio | [resident] | [read-latency | read-iops] | check | [write-speedup | read-speedup | write-ci |
// read-ci] | status. write and read are the median time with " ~" when the
// phase is noisy (noise.hpp); write-cv is its spread ("±1.2%"); the rates
// are MB/s (MiB/s with `units` iec); "resident" appears when a case of the
// data set measured it, read-latency ("p50 / p99") and read-iops when one
// read under an access pattern, the speed-ups and their intervals when the study
// has a baseline.
inline results_table dataset_columns(const study_result& r, const dataset_group& g,
                                     rate_unit units = rate_unit::si) {
    results_table t;
    const bool with_speedup = !r.spec.baseline.empty();
    bool with_resident = false;
    for (const case_result* c : g.cases)
        with_resident |= c->figures.resident_fraction >= 0;

    const std::string rate = rate_unit_name(units);
    auto column = [&](const char* id, std::string header) {
        t.ids.emplace_back(id);
        t.header.push_back(std::move(header));
        t.numeric.push_back(t.ids.back() != "format" && t.ids.back() != "check" && t.ids.back() != "status");
    };
    column("format", "format");
    column("write", "write");
    column("read", "read");
    column("write-cv", "write CV");
    column("read-cv", "read CV");
    column("write-rate", "write " + rate);
    column("read-rate", "read " + rate);
    column("file", "file");
    column("ratio", "ratio");
    if (with_resident) column("resident", "resident");
    // Only where a case of the data set read under an access pattern, so
    // that tables without one stay as they were.
    bool with_latency = false;
    for (const case_result* c : g.cases)
        with_latency |= c->figures.latency.has_value();
    if (with_latency) {
        column("read-latency", "read p50/p99");
        column("read-iops", "read IOPS");
    }
    column("check", "check");
    if (with_speedup) {
        column("write-speedup", "write speed-up");
        column("read-speedup", "read speed-up");
        column("write-ci", "write 95% CI");
        column("read-ci", "read 95% CI");
    }
    column("status", "status");

    // "12.3x" and "[11.8, 12.9]"; the interval empty where it says nothing
    // (format_speedup).
    auto factor_and_interval = [](const speedup_estimate& e) -> std::pair<std::string, std::string> {
        const std::string value = format_factor(e.value), both = format_speedup(e);
        return {value, both.size() > value.size() ? both.substr(value.size() + 1) : ""};
    };
    for (const case_result* c : g.cases) {
        const case_figures& f = c->figures;
        auto timed = [&](const phase_figures& p) {
            const bool noisy = c->status == case_status::ok && p.noisy();
            return format_duration(p.median_s) + (noisy ? " ~" : "");
        };
        std::vector<std::string> row = {row_label(*c, g),
                                        timed(f.write),
                                        timed(f.read),
                                        format_spread(f.write.used, f.write.cv),
                                        format_spread(f.read.used, f.read.cv),
                                        format_rate(throughput_in(units, f.write.bytes, f.write.median_s)),
                                        format_rate(throughput_in(units, f.read.bytes, f.read.median_s)),
                                        c->file_bytes > 0 ? format_bytes(c->file_bytes) : "-",
                                        format_ratio(f.size_ratio)};
        if (with_resident) row.push_back(format_percent(f.resident_fraction));
        if (with_latency) {
            const auto& l = f.latency;
            row.push_back(l ? format_duration(l->p50_ns * 1e-9) + " / " + format_duration(l->p99_ns * 1e-9)
                            : "-");
            row.push_back(l ? format_rate(l->iops) : "-");
        }
        row.push_back(format_check(c->verify));
        if (with_speedup) {
            const bool base = f.baseline_index.has_value();
            if (!base) t.baseline_missing = true;
            const auto [wv, wi] =
                base ? factor_and_interval(f.write_speedup) : std::pair<std::string, std::string>{"-", ""};
            const auto [rv, ri] =
                base ? factor_and_interval(f.read_speedup) : std::pair<std::string, std::string>{"-", ""};
            row.insert(row.end(), {wv, rv, wi, ri});
        }
        row.emplace_back(to_string(c->status));
        t.rows.push_back(std::move(row));
        if (c->status != case_status::ok)
            t.failures.push_back(fmt::format("{}: {}{}", row_label(*c, g), to_string(c->status),
                                             c->error.empty() ? "" : ": " + c->error));
    }
    return t;
}

// Columns whose cells join into one of the wide table: the time and its
// spread ("312 ms ±1.2% ~" reads as one figure), the speed-up and its
// interval. Each pair is (shown column, the one joined to it).
inline const std::vector<std::pair<std::string, std::string>>& joined_columns() {
    static const std::vector<std::pair<std::string, std::string>> pairs = {{"write", "write-cv"},
                                                                           {"read", "read-cv"},
                                                                           {"write-speedup", "write-ci"},
                                                                           {"read-speedup", "read-ci"}};
    return pairs;
}

// A cell and the one joined to it (joined_columns): "312 ms" and "±1.2%"
// give "312 ms ±1.2%"; the noisy marker stays last ("312 ms ±1.2% ~").
inline std::string joined_cell(std::string cell, const std::string& part) {
    if (part.empty()) return cell;
    const bool marked = cell.size() > 2 && cell.compare(cell.size() - 2, 2, " ~") == 0;
    if (marked) cell.resize(cell.size() - 2);
    return cell + " " + part + (marked ? " ~" : "");
}

// The wide table of the Markdown and HTML outputs and of `--columns all`:
// format | write | read | write MB/s | read MB/s | file | ratio | [resident]
// | check | [write speed-up | read speed-up] | status, the spreads and
// intervals joined to their figures ("312 ms ±1.2% ~", "12.3x [11.8,
// 12.9]").
inline results_table dataset_table(const study_result& r, const dataset_group& g,
                                   rate_unit units = rate_unit::si) {
    const results_table split = dataset_columns(r, g, units);
    auto at = [&](const std::string& id) {
        return static_cast<std::size_t>(std::find(split.ids.begin(), split.ids.end(), id) -
                                        split.ids.begin());
    };
    results_table t;
    t.failures = split.failures;
    t.baseline_missing = split.baseline_missing;
    std::vector<std::pair<std::size_t, std::size_t>> sources; // (column, joined column or npos)
    for (std::size_t i = 0; i < split.ids.size(); ++i) {
        const std::string& id = split.ids[i];
        bool is_joined = false;
        std::size_t joined = std::string::npos;
        for (const auto& [shown, part] : joined_columns()) {
            is_joined |= part == id;
            if (shown == id) joined = at(part);
        }
        if (is_joined) continue;
        t.ids.push_back(id);
        t.header.push_back(split.header[i]);
        t.numeric.push_back(split.numeric[i]);
        sources.emplace_back(i, joined);
    }
    for (const auto& src : split.rows) {
        std::vector<std::string> row;
        for (const auto& [i, j] : sources)
            row.push_back(j < src.size() ? joined_cell(src[i], src[j]) : src[i]);
        t.rows.push_back(std::move(row));
    }
    return t;
}

// The plugins' own figures (ABI 1.1 metrics) of a dataset's cases: format |
// write NAME... | read NAME..., medians over the repetitions; no rows when
// no case reported any.
inline results_table metrics_table(const dataset_group& g) {
    results_table t;
    std::vector<std::pair<bool, std::string>> columns; // (write?, name)
    for (const case_result* c : g.cases)
        for (bool write : {true, false})
            for (const auto& [name, value] : (write ? c->figures.write : c->figures.read).metrics)
                if (std::find(columns.begin(), columns.end(), std::make_pair(write, name)) == columns.end())
                    columns.emplace_back(write, name);
    if (columns.empty()) return t;
    t.header = {"format"};
    t.numeric = {false};
    for (const auto& [write, name] : columns) {
        t.header.push_back(std::string(write ? "write " : "read ") + name);
        t.numeric.push_back(true);
    }
    for (const case_result* c : g.cases) {
        std::vector<std::string> row = {row_label(*c, g)};
        bool any = false;
        for (const auto& [write, name] : columns) {
            std::string cell = "-";
            for (const auto& [k, v] : (write ? c->figures.write : c->figures.read).metrics)
                if (k == name) {
                    cell = format_metric(name, v);
                    any = true;
                }
            row.push_back(cell);
        }
        if (any) t.rows.push_back(std::move(row));
    }
    return t;
}

// Under MPI: each case's ranks' own times, fastest, median and slowest
// (medians over the repetitions); no rows when no case ran on several ranks.
inline results_table rank_table(const dataset_group& g) {
    results_table t;
    t.header = {"format",       "write fastest", "write median", "write slowest",
                "read fastest", "read median",   "read slowest"};
    t.numeric = {false, true, true, true, true, true, true};
    for (const case_result* c : g.cases) {
        const auto &w = c->figures.write.ranks, &r = c->figures.read.ranks;
        if (!w || !r) continue;
        t.rows.push_back({row_label(*c, g), format_duration(w->min_s), format_duration(w->median_s),
                          format_duration(w->max_s), format_duration(r->min_s), format_duration(r->median_s),
                          format_duration(r->max_s)});
    }
    return t;
}

// The cost model of a count sweep (cost_model.hpp): format | phase | fixed
// | per value | R² | max residual | valid for (counts, distinct counts of
// the fit) | swept; no rows without a sweep. A group without a linear range
// shows "no linear range" and the best residual it reached.
inline results_table cost_model_table(const std::vector<cost_fit>& fits) {
    results_table t;
    t.header = {"format", "phase", "fixed", "per value", "R\u00b2", "max residual", "valid for", "swept"};
    t.numeric = {false, false, true, true, true, true, false, false};
    t.key_columns = 2; // a format's write and read rows differ in the phase only
    for (const cost_fit& f : fits) {
        const std::string swept = fmt::format("{}..{} ({})", f.min_count, f.max_count, f.counts);
        const std::string residual = std::isfinite(f.fit.max_rel_residual)
                                         ? fmt::format("{:.1f}%", f.fit.max_rel_residual * 100)
                                         : "-";
        if (!f.linear) {
            t.rows.push_back(
                {f.label, f.write ? "write" : "read", "-", "-", "-", residual, "no linear range", swept});
            continue;
        }
        t.rows.push_back({f.label, f.write ? "write" : "read", fmt::format("{:.3g} \u00b5s", f.fit.a * 1e6),
                          fmt::format("{:.3g} ns", f.fit.b * 1e9), fmt::format("{:.4f}", f.fit.r2), residual,
                          fmt::format("{}..{} ({})", f.valid_min_count, f.valid_max_count, f.points), swept});
    }
    return t;
}

// "write: raw overtakes ascii-fixed16 at 1.23e+03 values (ascii-fixed16 is
// faster below)", then one line per group without a linear range, which
// has no crossover.
inline std::vector<std::string> crossover_lines(const std::vector<crossover>& found,
                                                const std::vector<cost_fit>& fits = {}) {
    std::vector<std::string> lines;
    for (const crossover& x : found)
        lines.push_back(fmt::format("{}: {} overtakes {} at {:.3g} values ({} is faster below)",
                                    x.write ? "write" : "read", x.large, x.small, x.count, x.small));
    for (const cost_fit& f : fits)
        if (!f.linear)
            lines.push_back(fmt::format(
                "{} {}: no linear range: no {} or more consecutive counts lie within {:.0f}% "
                "of one line, so no cost model and no crossover",
                f.label, f.write ? "write" : "read", cost_model_min_points, cost_model_tolerance * 100));
    return lines;
}

static_assert(cost_model_tolerance == 0.15 && cost_model_min_points == 3, "cost_model_title states them");
inline const char* cost_model_title =
    "cost model: time = fixed + per value x count (both >= 0), least squares of the relative error over the "
    "widest range of 3 or more consecutive counts where every point is within 15% of the line";

// The definitions printed once under the table(s): of the columns in
// `shown` (ids of dataset_columns), or of the wide table (dataset_table)
// when `shown` is null.
inline std::vector<std::string> legend(const study_result& r, rate_unit units = rate_unit::si,
                                       const std::set<std::string>* shown = nullptr) {
    auto any = [&](std::initializer_list<const char*> ids) {
        if (!shown) return true;
        for (const char* id : ids)
            if (shown->count(id)) return true;
        return false;
    };
    std::vector<std::string> lines;
    const bool times = any({"write", "read"});
    if (times)
        lines.emplace_back(
            any({"write-cv", "read-cv"})
                ? "write, read: median wall time (open to close) of the repetitions no other "
                  "process disturbed (when fewer than 6, of every repetition's time less "
                  "what others took: ~); \u00b1: their coefficient of variation (stddev / mean)"
                : "write, read: median wall time (open to close) of the repetitions no other "
                  "process disturbed (when fewer than 6, of every repetition's time less "
                  "what others took: ~)");
    else if (any({"write-cv", "read-cv"}))
        lines.emplace_back("write CV, read CV: coefficient of variation (stddev / mean) of the wall times");
    bool latency = false;
    for (const case_result& c : r.cases)
        latency |= c.figures.latency.has_value();
    if (any({"write-rate", "read-rate"}))
        lines.emplace_back(
            std::string(
                units == rate_unit::iec
                    ? "MiB/s: 2^20 bytes of payload (count x element size) per second, at the median time"
                    : "MB/s: 10^6 bytes of payload (count x element size) per second, at the median time") +
            (latency ? "; a read under an access pattern counts the bytes its operations read" : ""));
    if (any({"file"}) && any({"ratio"}))
        lines.emplace_back("file: bytes on disk (decimal units); ratio: payload bytes / file bytes");
    else if (any({"file"}))
        lines.emplace_back("file: bytes on disk (decimal units)");
    else if (any({"ratio"}))
        lines.emplace_back("ratio: payload bytes / file bytes");
    if (any({"check"}))
        lines.emplace_back("check: exact = read back bit-identical; otherwise the largest absolute error");
    if (latency && any({"read-latency", "read-iops"}))
        lines.emplace_back("read p50/p99: under an access pattern, the median and 99th percentile of the "
                           "read operations' own latencies, each the median over the repetitions; read "
                           "IOPS: operations per second of their own time (1e9 / mean latency in ns)");
    bool resident = false;
    for (const case_result& c : r.cases)
        resident |= c.figures.resident_fraction >= 0;
    if (resident && any({"resident"}))
        lines.emplace_back(
            "resident: median fraction of the file in the page cache just before the read (mincore)");
    if (r.context.ranks > 1 && (times || any({"write-rate", "read-rate"})))
        lines.push_back(fmt::format(
            "{} MPI ranks: write, read = aggregate time, from the first rank's start to the last rank's end; "
            "{} = all ranks' payload / that time; rank times: each rank's own",
            r.context.ranks, rate_unit_name(units)));
    if (!r.spec.baseline.empty()) {
        const bool speedups = any({"write-speedup", "read-speedup"});
        if (speedups)
            lines.push_back(fmt::format("speed-up: median time of baseline '{}' / median time of the row "
                                        "(above 1: the row is faster)",
                                        r.spec.baseline));
        if (any({"write-ci", "read-ci"}))
            lines.emplace_back(
                "[low, high]: the speed-up's interval: the quotients of the ends of the two medians' 95% "
                "intervals (with fewer than 6 samples a row: the 95% bootstrap interval, 2000 resamples)");
        bool cache_pairs = false;
        for (const case_result& c : r.cases)
            cache_pairs |= c.figures.write_pooled_n > c.figures.write.used;
        if (cache_pairs && speedups)
            lines.emplace_back(
                "rows that differ only in cache share their write phase: their write speed-up is "
                "from the pooled write samples of those rows");
    }
    // The verdict's writes (work_groups.hpp): once per format, pooled.
    bool shared_writes = false;
    for (const case_result& c : r.cases)
        shared_writes |= c.status == case_status::ok && c.figures.shared_write.n > c.figures.write.n;
    if (shared_writes)
        lines.emplace_back(
            "verdict: a row is ranked only against rows that did the same work; a format (plugin and "
            "options) "
            "is ranked once for its write, from the write samples of all its rows that differ only in how "
            "they were read (cache, access pattern)");
    bool noisy = false;
    for (const case_result& c : r.cases)
        noisy |= !c.figures.noise.empty();
    if (noisy && times)
        lines.push_back(
            fmt::format("~: noisy timing: resting on disturbed samples, median known less precisely than "
                        "`precision`, or (fewer than 6 samples) CV above {:g}%, fewer than {} samples, or "
                        "outliers beyond 1.5 IQR (noise_cv, noise_min_samples)",
                        r.spec.noise_cv * 100, r.spec.noise_min_samples));
    return lines;
}

} // namespace formatbench::detail

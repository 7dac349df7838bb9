// Plan's calibration runs (calibrate.hpp).
#include "run/calibrate.hpp"

#include "base/text.hpp"
#include "results/figures.hpp"
#include "results/summary.hpp"
#include "run/estimate.hpp"
#include "run/study_run.hpp"
#include "study/access.hpp"
#include "study/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace formatbench {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// One part of a case's time at `x` (values, or elements read), from the
// points' (x, value) pairs.
double scaled(const std::vector<std::pair<double, double>>& xy, double x) {
    const auto [x1, y1] = xy.front();
    if (xy.size() < 2 || xy[1].first == x1) {
        double mean = 0;
        for (const auto& p : xy)
            mean += p.second / static_cast<double>(xy.size());
        return x1 > 0 ? mean * x / x1 : mean;
    }
    const auto [x2, y2] = xy[1];
    const double b = std::max(0.0, (y1 - y2) / (x1 - x2));
    const double a = std::max(0.0, y1 - b * x1);
    return a + b * x;
}

double by_count(const std::vector<calibration_point>& points, double calibration_point::*part, double n) {
    std::vector<std::pair<double, double>> xy;
    for (const auto& p : points)
        xy.emplace_back(static_cast<double>(p.count), p.*part);
    return scaled(xy, n);
}

double by_read(const std::vector<calibration_point>& points, double calibration_point::*part, double e) {
    std::vector<std::pair<double, double>> xy;
    for (const auto& p : points)
        xy.emplace_back(p.read_elements, p.*part);
    return scaled(xy, e);
}

// A data set like `d` with about `target` values (see calibration_datasets).
dataset_spec reduced(const dataset_spec& d, std::uint64_t target) {
    dataset_spec r = d;
    target = std::max<std::uint64_t>(1, target);
    if (d.shape.empty()) {
        r.count = std::min(d.count, target);
        return r;
    }
    const double shrink = std::pow(static_cast<double>(d.count) / static_cast<double>(target),
                                   1.0 / static_cast<double>(d.shape.size()));
    r.count = 1;
    for (std::uint64_t& extent : r.shape) {
        const auto least = std::min<std::uint64_t>(extent, 32);
        extent =
            std::max(least, static_cast<std::uint64_t>(std::llround(static_cast<double>(extent) / shrink)));
        r.count *= extent;
    }
    return r;
}

// A random, strided or sequential pattern of `c` reads no more than
// `payload_bytes` of blocks per READ phase (at least one operation): its
// read part is scaled by the elements read.
void limit_operations(case_spec& c, std::uint64_t payload_bytes) {
    const access_mode mode = c.params.access;
    if (mode != access_mode::random && mode != access_mode::strided && mode != access_mode::sequential)
        return;
    const access_check a = check_access(c.params, c.dataset);
    if (!a.error.empty() || a.geometry.block == 0) return;
    const std::uint64_t most =
        std::max<std::uint64_t>(1, payload_bytes / (a.geometry.block * dtype_size(c.dataset.type)));
    if (a.geometry.ops > most) c.params.access_ops = most;
}

// Hears the calibration run and keeps, per case, when its parts began.
class calibration_clock : public observer {
public:
    explicit calibration_clock(std::size_t cases) : marks_(cases) {}

    struct marks {
        clock_type::time_point started, first_write, last_write, last_read, previous_done, last_done,
            finished;
        bool wrote = false;
        std::size_t repetitions = 0;
        double write_s = not_a_number, read_s = not_a_number;
        double spread = 0;
        bool ok = false;
        std::string error;
    };
    const std::vector<marks>& all() const { return marks_; }

    std::string name() const override { return "calibration"; }
    void case_started(const case_spec& c) override { marks_.at(c.index).started = clock_type::now(); }
    void phase_started(const case_spec& c, run_phase phase, std::size_t) override {
        marks& m = marks_.at(c.index);
        const auto now = clock_type::now();
        if (phase == run_phase::write) {
            if (!m.wrote) m.first_write = now, m.wrote = true;
            m.last_write = now;
        }
        if (phase == run_phase::read) m.last_read = now;
    }
    void repetition_done(const case_result& r) override {
        marks& m = marks_.at(r.spec.index);
        m.previous_done = m.last_done;
        m.last_done = clock_type::now();
        m.repetitions = r.samples.size();
        // The last repetition's timed phases, like its parts: the first
        // one's are cold (no warm-up while calibrating).
        m.write_s = r.samples.back().write.wall_s;
        m.read_s = r.samples.back().read.wall_s;
    }
    void case_finished(const case_result& r, bool) override {
        marks& m = marks_.at(r.spec.index);
        m.finished = clock_type::now();
        m.ok = r.status == case_status::ok && m.wrote && m.repetitions > 0;
        auto cv = [](const phase_figures& f) {
            return f.mean_s > 0 && std::isfinite(f.stddev_s) ? f.stddev_s / f.mean_s : 0.0;
        };
        m.spread = std::max(cv(r.figures.write), cv(r.figures.read));
        m.error = r.error.empty() ? to_string(r.status) : r.error;
    }

private:
    std::vector<marks> marks_;
};

double seconds_between(clock_type::time_point a, clock_type::time_point b) {
    return std::max(0.0, std::chrono::duration<double>(b - a).count());
}

} // namespace

double elements_read(const case_spec& c) {
    const auto n = static_cast<double>(c.dataset.count);
    if (c.params.access == access_mode::whole) return n;
    const access_check a = check_access(c.params, c.dataset);
    if (!a.error.empty()) return n;
    const access_geometry& g = a.geometry;
    if (g.mode == access_mode::plane)
        return g.axis < g.shape.size() && g.shape[g.axis]
                   ? static_cast<double>(g.ops) * n / static_cast<double>(g.shape[g.axis])
                   : n;
    if (g.mode == access_mode::sequential && c.params.access_ops == 0) return n;
    return static_cast<double>(g.ops) * static_cast<double>(g.block);
}

double auto_repetitions(double cv, double precision) {
    if (!(cv > 0) || !(precision > 0) || !std::isfinite(cv)) return 0;
    const double n = 1.96 * 1.2533 * cv / precision;
    return std::ceil(n * n);
}

std::optional<double> calibrated_seconds(const case_spec& c, const std::vector<calibration_point>& points) {
    if (points.empty()) return std::nullopt;
    const auto n = static_cast<double>(c.dataset.count);
    const double e = elements_read(c);
    const double phases =
        by_count(points, &calibration_point::write_s, n) + by_read(points, &calibration_point::read_s, e);
    const double auto_reps =
        std::max<double>(auto_min_repetitions, auto_repetitions(points.front().spread, c.params.precision));
    const double runs = repetitions_to_run(phases, c.params, auto_reps);
    if (!std::isfinite(runs)) return std::nullopt;
    const double repetition = by_count(points, &calibration_point::write_part_s, n) +
                              by_read(points, &calibration_point::read_part_s, e);
    return by_count(points, &calibration_point::setup_s, n) + runs * repetition +
           by_count(points, &calibration_point::tail_s, n);
}

std::vector<dataset_spec> calibration_datasets(const case_spec& c, std::uint64_t payload_bytes) {
    const dataset_spec& d = c.dataset;
    const std::uint64_t esize = dtype_size(d.type);
    const bool pattern = c.params.access != access_mode::whole;
    const std::uint64_t block = pattern ? c.params.access_block : 0;
    const std::uint64_t cap = std::max(payload_bytes, 8 * block) / esize;
    if (!d.file.empty() || d.count <= cap) return {d};
    std::vector<dataset_spec> out{reduced(d, cap)};
    const dataset_spec small = reduced(d, std::max(out[0].count / 4, 2 * block / esize));
    if (small.count < out[0].count) out.push_back(small);
    return out;
}

calibration calibrate_study(const study& s, const registry& reg, const std::vector<bool>& selected,
                            std::uint64_t in_memory_bytes) {
    const auto t0 = clock_type::now();
    calibration out;
    out.seconds.resize(s.cases.size());
    // The calibration study: per selected case, a run per data set, in
    // plan order; `owner` maps each back to its case.
    study cal = s;
    cal.cases.clear();
    cal.outputs.clear();
    cal.keep_files = false;
    cal.schedule = schedule_mode::sequential;
    std::vector<std::size_t> owner;
    for (const case_spec& c : s.cases) {
        if (!selected.empty() && !selected.at(c.index)) continue;
        for (const dataset_spec& d : calibration_datasets(c)) {
            case_spec k = c;
            k.dataset = d;
            k.params.repeat = c.params.repeat == 0 ? static_cast<unsigned>(auto_min_repetitions) : 2;
            k.params.warmup = 0;
            k.params.warmup_time = 0;
            k.params.min_time = 0;
            limit_operations(k, calibration_payload_bytes);
            k.index = cal.cases.size();
            k.key = fmt::format("{} calibration count={}", c.key, d.count);
            cal.cases.push_back(std::move(k));
            owner.push_back(c.index);
            out.largest_payload = std::max(out.largest_payload, d.count * dtype_size(d.type));
        }
    }
    observer_list observers;
    auto clock = std::make_unique<calibration_clock>(cal.cases.size());
    const calibration_clock& marks = *clock;
    observers.add(std::move(clock));
    study_run_options options;
    options.in_memory_bytes = in_memory_bytes;
    const run_outcome outcome = run_study(cal, reg, observers, options);

    std::vector<std::vector<calibration_point>> points(s.cases.size());
    std::vector<bool> failed(s.cases.size(), false);
    for (std::size_t k = 0; k < cal.cases.size(); ++k) {
        const auto& m = marks.all()[k];
        const std::size_t i = owner[k];
        if (!m.ok) {
            if (!failed[i])
                out.failures.push_back(escape_line(
                    fmt::format("case {} ({}) at count {}: {}", i, describe_case(s.cases[i]),
                                cal.cases[k].dataset.count, m.error.empty() ? "did not run" : m.error)));
            failed[i] = true;
            continue;
        }
        calibration_point p;
        p.count = cal.cases[k].dataset.count;
        p.read_elements = elements_read(cal.cases[k]);
        p.setup_s = seconds_between(m.started, m.first_write);
        // The last repetition, from the end of the one before it (with one
        // repetition: from its write phase).
        p.write_part_s = seconds_between(m.repetitions >= 2 ? m.previous_done : m.last_write, m.last_read);
        p.read_part_s = seconds_between(m.last_read, m.last_done);
        p.write_s = m.write_s;
        p.read_s = m.read_s;
        p.tail_s = seconds_between(m.last_done, m.finished);
        p.spread = m.spread;
        points[i].push_back(p);
    }
    for (const case_spec& c : s.cases)
        if (!failed[c.index]) out.seconds[c.index] = calibrated_seconds(c, points[c.index]);
    out.interrupted = outcome.interrupted;
    out.took_s = since(t0);
    return out;
}

} // namespace formatbench

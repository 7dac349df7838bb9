// Plan's calibration runs (calibrate.hpp).
#include "run/calibrate.hpp"

#include "base/text.hpp"
#include "results/figures.hpp"
#include "run/estimate.hpp"
#include "run/study_run.hpp"
#include "study/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace formatbench {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// One part of a case's time at `n` values, from the points' values of it.
double scaled(const std::vector<calibration_point>& points, double calibration_point::*part, double n) {
    const calibration_point& hi = points.front();
    const double y1 = hi.*part, n1 = static_cast<double>(hi.count);
    if (points.size() < 2 || points[1].count == hi.count) return n1 > 0 ? y1 * n / n1 : y1;
    const calibration_point& lo = points[1];
    const double y2 = lo.*part, n2 = static_cast<double>(lo.count);
    const double b = std::max(0.0, (y1 - y2) / (n1 - n2));
    const double a = std::max(0.0, y1 - b * n1);
    return a + b * n;
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

// Hears the calibration run and keeps, per case, when its parts began.
class calibration_clock : public observer {
public:
    explicit calibration_clock(std::size_t cases) : marks_(cases) {}

    struct marks {
        clock_type::time_point started, first_write, previous_done, last_done, finished;
        bool wrote = false;
        std::size_t repetitions = 0;
        double phases_s = not_a_number;
        bool ok = false;
        std::string error;
    };
    const std::vector<marks>& all() const { return marks_; }

    std::string name() const override { return "calibration"; }
    void case_started(const case_spec& c) override { marks_.at(c.index).started = clock_type::now(); }
    void phase_started(const case_spec& c, run_phase phase, std::size_t) override {
        marks& m = marks_.at(c.index);
        if (phase == run_phase::write && !m.wrote) m.first_write = clock_type::now(), m.wrote = true;
    }
    void repetition_done(const case_result& r) override {
        marks& m = marks_.at(r.spec.index);
        m.previous_done = m.last_done;
        m.last_done = clock_type::now();
        m.repetitions = r.samples.size();
    }
    void case_finished(const case_result& r, bool) override {
        marks& m = marks_.at(r.spec.index);
        m.finished = clock_type::now();
        m.ok = r.status == case_status::ok && m.wrote && m.repetitions > 0;
        m.phases_s = r.figures.write.median_s + r.figures.read.median_s;
        m.error = r.error.empty() ? to_string(r.status) : r.error;
    }

private:
    std::vector<marks> marks_;
};

double seconds_between(clock_type::time_point a, clock_type::time_point b) {
    return std::max(0.0, std::chrono::duration<double>(b - a).count());
}

} // namespace

std::optional<double> calibrated_seconds(const case_spec& c, const std::vector<calibration_point>& points) {
    if (points.empty()) return std::nullopt;
    const auto n = static_cast<double>(c.dataset.count);
    const double phases = scaled(points, &calibration_point::phases_s, n);
    const double runs = repetitions_to_run(phases, c.params);
    if (!std::isfinite(runs)) return std::nullopt;
    return scaled(points, &calibration_point::setup_s, n) +
           runs * scaled(points, &calibration_point::repetition_s, n) +
           scaled(points, &calibration_point::tail_s, n);
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
            k.params.repeat = 2;
            k.params.warmup = 0;
            k.params.warmup_time = 0;
            k.params.min_time = 0;
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
        p.setup_s = seconds_between(m.started, m.first_write);
        p.repetition_s = m.repetitions >= 2 ? seconds_between(m.previous_done, m.last_done)
                                            : seconds_between(m.first_write, m.last_done);
        p.phases_s = m.phases_s;
        p.tail_s = seconds_between(m.last_done, m.finished);
        points[i].push_back(p);
    }
    for (const case_spec& c : s.cases)
        if (!failed[c.index]) out.seconds[c.index] = calibrated_seconds(c, points[c.index]);
    out.interrupted = outcome.interrupted;
    out.took_s = since(t0);
    return out;
}

} // namespace formatbench

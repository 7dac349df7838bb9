// The remaining-time estimate (eta.hpp).
#include "report/eta.hpp"

#include "results/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace formatbench {
namespace {

constexpr double unknown = std::numeric_limits<double>::quiet_NaN();

// What a set of finished cases says of a case of another payload.
class time_model {
public:
    void add(const finished_case& c) {
        auto& [seconds, cases] = by_size_[c.bytes];
        seconds += c.seconds;
        ++cases;
        spent_ += c.seconds;
        bytes_ += static_cast<double>(c.bytes);
        ++count_;
    }

    bool empty() const { return count_ == 0; }

    // Fits the line once every case is added.
    void finish() {
        if (by_size_.size() < 2) return;
        std::vector<double> n, t;
        for (const auto& [bytes, sum] : by_size_) {
            n.push_back(static_cast<double>(bytes));
            t.push_back(sum.first / static_cast<double>(sum.second));
        }
        line_ = fit_relative_nonnegative(n, t);
    }

    // Seconds a case of `bytes` takes; NaN beyond the extrapolation limit.
    double seconds(std::uint64_t bytes, double max_extrapolation) const {
        if (count_ == 0) return unknown;
        const double b = static_cast<double>(bytes), largest = static_cast<double>(by_size_.rbegin()->first);
        if (largest > 0 && b > max_extrapolation * largest) return unknown;
        if (line_) return line_->a + line_->b * b;
        const double n = static_cast<double>(count_), mean_s = spent_ / n, mean_bytes = bytes_ / n;
        return mean_bytes > 0 ? mean_s * b / mean_bytes : mean_s;
    }

private:
    std::map<std::uint64_t, std::pair<double, std::size_t>> by_size_; // bytes -> (seconds, cases)
    double spent_ = 0, bytes_ = 0;
    std::size_t count_ = 0;
    std::optional<linear_fit> line_;
};

} // namespace

double estimate_remaining_s(const std::vector<finished_case>& finished,
                            const std::vector<pending_case>& pending, double max_extrapolation) {
    if (pending.empty()) return 0;
    if (finished.empty()) return unknown;
    time_model all;
    std::map<std::string, time_model> groups;
    for (const finished_case& c : finished) {
        all.add(c);
        groups[c.group].add(c);
    }
    all.finish();
    for (auto& [name, g] : groups)
        g.finish();
    double eta = 0;
    for (const pending_case& c : pending) {
        const auto g = groups.find(c.group);
        double s = g != groups.end() ? g->second.seconds(c.bytes, max_extrapolation) : unknown;
        if (std::isnan(s)) s = all.seconds(c.bytes, max_extrapolation);
        if (std::isnan(s)) return unknown;
        eta += std::max(0.0, s - c.running_s);
    }
    return eta;
}

} // namespace formatbench

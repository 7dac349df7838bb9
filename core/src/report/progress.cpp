// Progress lines (progress.hpp).
#include "report/progress.hpp"

#include "base/text.hpp"
#include "report/units.hpp"
#include "results/stats.hpp"
#include "study/plan.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace formatbench {
namespace {

class progress_lines final : public observer {
public:
    std::string name() const override { return "progress"; }
    void begin(const study_result& run, std::size_t, std::size_t) override { total_ = run.spec.cases.size(); }
    void case_finished(const case_result& r, bool resumed) override {
        if (resumed) return;
        std::string times;
        if (!r.samples.empty())
            times = fmt::format("write {} read {}", detail::format_duration(summarize(write_times(r)).median),
                                detail::format_duration(summarize(read_times(r)).median));
        fmt::print(
            stderr, "{}",
            escape_text(fmt::format(
                "[{}/{}] {}  {}  {}\n", r.spec.index + 1, total_, describe_case(r.spec), times,
                r.status == case_status::ok ? "ok" : fmt::format("{}: {}", to_string(r.status), r.error))));
    }

private:
    std::size_t total_ = 0;
};

} // namespace

std::unique_ptr<observer> make_progress_lines() {
    return std::make_unique<progress_lines>();
}

} // namespace formatbench

// The mock executor (mock_executor.hpp).
#include "run/mock_executor.hpp"
#include "run/warm_up.hpp"

#include <string>

namespace formatbench {
namespace {

class mock_session final : public case_session {
public:
    mock_session(mock_executor& owner, const case_spec& spec)
        : owner_(owner), index_(std::to_string(spec.index)), params_(spec.params),
          script_(owner.script(spec)) {}

    step_result start(case_setup& setup) override {
        log("start");
        if (!script_.start.ok()) return script_.start;
        setup.buffer_alignment = 4096;
        setup.lossless_expected = true;
        setup.plugin_version = "mock";
        warm_up("warmup", warm_kind::start);
        return {};
    }

    step_result repetition(repetition_report& report) override {
        log("repetition");
        const std::size_t i = done_++;
        if (i == script_.fail_at) return script_.failure;
        announce(run_phase::write);
        announce(run_phase::read);
        announce(run_phase::verify);
        auto pick = [&](const std::vector<double>& v) { return v.empty() ? 1e-3 : v[i % v.size()]; };
        report.rep.write.wall_s = pick(script_.write_s);
        report.rep.read.wall_s = pick(script_.read_s);
        auto wait = [&](phase_sample& p, const std::vector<double>& v) {
            if (v.empty()) return;
            p.accounting.measured = true;
            p.accounting.cpus = 1;
            p.accounting.wait_s = p.accounting.thread_wait_s = v[i % v.size()];
        };
        wait(report.rep.write, script_.write_wait_s);
        wait(report.rep.read, script_.read_wait_s);
        report.verify.checked = true;
        report.verify.compared = 1;
        report.verify.lossless_expected = true;
        return {};
    }

    step_result rewarm() override {
        warm_up("rewarm", warm_kind::rewarm);
        return {};
    }

    step_result finish(case_facts& facts) override {
        log("finish");
        facts.file_bytes = script_.file_bytes;
        return {};
    }

    std::string output() override { return script_.output; }

private:
    // One line per unrecorded repetition; each takes the script's first
    // write and read times.
    void warm_up(const char* what, warm_kind kind) {
        const double per = (script_.write_s.empty() ? 1e-3 : script_.write_s[0]) +
                           (script_.read_s.empty() ? 1e-3 : script_.read_s[0]);
        double spent = 0;
        for (unsigned i = 0; warm_up_continues(kind, i, spent, params_); ++i, spent += per) {
            announce(run_phase::warm_up);
            log(what);
        }
    }

    void log(const char* what) {
        owner_.trace.push_back(std::string(what) + " " + index_);
        owner_.after_step();
    }

    mock_executor& owner_;
    std::string index_;
    run_params params_;
    mock_script script_;
    std::size_t done_ = 0;
};

} // namespace

std::unique_ptr<case_session> mock_executor::open(const case_spec& c) {
    return std::make_unique<mock_session>(*this, c);
}

} // namespace formatbench

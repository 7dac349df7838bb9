// isolation: none: each case's steps run in this process (executor.hpp).
#include "run/executor.hpp"
#include "run/local_case.hpp"
#include "run/system_info.hpp"

namespace formatbench {
namespace {

class in_process_session final : public case_session {
public:
    in_process_session(const case_spec& spec, const case_environment& env) : spec_(spec), case_(spec_, env) {
        case_.listen([this](run_phase p) { announce(p); });
    }

    step_result start(case_setup& setup) override { return case_.start(setup); }
    step_result repetition(repetition_report& report) override { return case_.repetition(report); }
    step_result rewarm() override { return case_.rewarm(); }
    step_result finish(case_facts& facts) override {
        facts = case_.facts();
        case_.clean_up();
        return {};
    }

private:
    case_spec spec_; // a copy: the session may outlive the caller's spec
    local_case case_;
};

class in_process_phased final : public phased_session {
public:
    in_process_phased(const case_spec& spec, const case_environment& env) : spec_(spec), case_(spec_, env) {}

    step_result start(case_setup& setup) override { return case_.start_phased(setup); }
    step_result phase(phase_kind kind, phase_report& report) override { return case_.phase(kind, report); }
    step_result finish(case_facts& facts) override {
        facts = case_.facts();
        case_.clean_up();
        return {};
    }

private:
    case_spec spec_;
    local_case case_;
};

class in_process_executor final : public executor {
public:
    explicit in_process_executor(case_environment env) : env_(std::move(env)) {}
    std::unique_ptr<case_session> open(const case_spec& c) override {
        return std::make_unique<in_process_session>(c, env_);
    }

private:
    case_environment env_;
};

} // namespace

std::unique_ptr<executor> make_in_process_executor(case_environment env) {
    return std::make_unique<in_process_executor>(std::move(env));
}

std::unique_ptr<phased_session> open_phased_in_process(const case_spec& c, const case_environment& env) {
    return std::make_unique<in_process_phased>(c, env);
}

} // namespace formatbench

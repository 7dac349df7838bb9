// The steps of a case in this process (local_case.hpp).
#include "run/local_case.hpp"

#include "base/error.hpp"
#include "base/fp_env.hpp"
#include "run/file_ops.hpp"
#include "run/system_info.hpp"

#include <fmt/format.h>

#include <new>

namespace formatbench {

std::string data_path(const std::string& dir, const case_spec& c, const plugin& p) {
    std::string name = fmt::format("case-{:04d}-{}", c.index, p.id());
    if (!p.extension().empty()) name += "." + p.extension();
    return dir + "/" + name;
}

local_case::local_case(const case_spec& spec, const case_environment& env) : spec_(spec), env_(env) {}

template <class Fn>
step_result local_case::guarded(Fn&& fn) {
    try {
        fn();
        return {};
    } catch (const std::bad_alloc&) {
        return {case_status::failed, fmt::format("out of memory for {} bytes of data",
                                                 spec_.dataset.count * dtype_size(spec_.dataset.type))};
    } catch (const std::exception& e) {
        return {case_status::failed, e.what()};
    }
}

void local_case::set_up(case_setup& setup) {
    // The data is made in the default environment, whatever the process
    // loaded before (base/fp_env.hpp).
    detail::restore_default_fp_environment();
    plugin_ = &env_.plugins->get(spec_.format.plugin);
    plan_ = plan_rank(spec_, env_.place, data_path(env_.directory, spec_, *plugin_));
    plan_.meeting = env_.ranks;
    if (plugin_->has_mpi()) {
        // The run refused such a plugin without MPI (check_study_mpi); a
        // forked worker is not an MPI process (rank_executor.cpp).
        plan_.mpi_comm = plan_.shared ? env_.mpi_world : env_.mpi_self;
        if (!plan_.mpi_comm)
            throw usage_error(
                fmt::format("plugin '{}' calls MPI itself ({}) and has no communicator here: run "
                            "it under mpirun",
                            plugin_->id(), FB_EXT_MPI_V1));
    }
    source_ = make_data_source(spec_.dataset, *env_.plugins, env_.in_memory_bytes);
    runner_ = std::make_unique<case_runner>(spec_, *plugin_, *source_, plan_, env_.in_memory_bytes);
    runner_->listen(listener_);
    setup = runner_->setup();
}

step_result local_case::start(case_setup& setup) {
    return guarded([&] {
        set_up(setup);
        runner_->warm_up();
    });
}

step_result local_case::start_phased(case_setup& setup) {
    return guarded([&] { set_up(setup); });
}

step_result local_case::phase(phase_kind kind, phase_report& report) {
    if (!runner_) return {case_status::failed, "the case was not started"};
    return guarded([&] {
        switch (kind) {
        case phase_kind::remove_previous: runner_->remove_previous(); break;
        case phase_kind::write:
            report.sample = runner_->write_phase();
            report.started = runner_->phase_started();
            break;
        case phase_kind::cache: report.resident_fraction = runner_->cache_step(); break;
        case phase_kind::read:
            report.sample = runner_->read_phase(report.verify);
            report.started = runner_->phase_started();
            break;
        }
    });
}

step_result local_case::repetition(repetition_report& report) {
    if (!runner_) return {case_status::failed, "the case was not started"};
    return guarded([&] { report.rep = runner_->run_repetition(report.verify); });
}

step_result local_case::rewarm() {
    if (!runner_) return {case_status::failed, "the case was not started"};
    return guarded([&] { runner_->warm_up(warm_kind::rewarm); });
}

case_facts local_case::facts() const {
    case_facts f;
    if (runner_) {
        try {
            f = runner_->facts();
        } catch (const std::exception&) {
            f.peak_rss_bytes = peak_rss_bytes();
        }
    } else {
        f.peak_rss_bytes = peak_rss_bytes();
    }
    return f;
}

void local_case::clean_up() const {
    if (env_.keep_files || plan_.remove_path.empty()) return;
    try {
        remove_output(plan_.remove_path);
    } catch (const std::exception&) {
        // Reported by the directory clean-up at the end if it matters.
    }
}

} // namespace formatbench

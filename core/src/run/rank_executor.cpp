// The MPI executor's sessions (rank_executor.hpp): every collective step is
// one all_gather of each rank's report as JSON text, so every rank combines
// the same reports in the same order.
#include "run/rank_executor.hpp"
#include "run/warm_up.hpp"

#include "base/error.hpp"
#include "results/json.hpp"
#include "run/rank_aggregate.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <set>

namespace formatbench {
namespace {

using nlohmann::json;

double steady_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

json step_to_json(const step_result& s) {
    return {{"status", to_string(s.status)}, {"error", s.error}};
}

step_result step_from_json(const json& j) {
    step_result r;
    const std::string status = j.at("status").get<std::string>();
    for (case_status s : {case_status::ok, case_status::failed, case_status::crashed, case_status::timeout,
                          case_status::skipped})
        if (status == to_string(s)) r.status = s;
    r.error = j.at("error").get<std::string>();
    return r;
}

std::string dump(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<json> gather(communicator& comm, const json& mine) {
    std::vector<json> out;
    for (const std::string& text : comm.all_gather(dump(mine)))
        out.push_back(json::parse(text));
    return out;
}

} // namespace

world_info describe_world(communicator& comm) {
    world_info w;
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) name[0] = '\0';
    const std::vector<std::string> hosts = comm.all_gather(name);
    w.hosts = static_cast<unsigned>(std::set<std::string>(hosts.begin(), hosts.end()).size());
    w.ranks_on_host = static_cast<unsigned>(std::count(hosts.begin(), hosts.end(), hosts[comm.rank()]));
    // The clocks: read right after each of several barriers.
    constexpr int rounds = 9;
    std::vector<double> differences;
    for (int i = 0; i < rounds; ++i) {
        comm.barrier();
        const double mine = steady_now();
        const std::vector<std::string> all = comm.all_gather(fmt::format("{:.9f}", mine));
        differences.push_back(mine - std::stod(all.front()));
    }
    if (hosts[comm.rank()] != hosts.front()) {
        std::sort(differences.begin(), differences.end());
        w.clock_offset = differences[differences.size() / 2];
    }
    return w;
}

class rank_session final : public case_session {
public:
    rank_session(const case_spec& spec, rank_executor& ex) : spec_(spec), ex_(ex) {}

    step_result start(case_setup& setup) override {
        rank_place place = ex_.env_.place;
        // A plugin that calls MPI runs in the rank itself: a forked worker
        // is not an MPI process (docs/mpi.md, "Plugins that call MPI").
        const plugin* p = ex_.env_.plugins ? ex_.env_.plugins->find(spec_.format.plugin) : nullptr;
        const bool in_rank = ex_.isolation_ == isolation_mode::none || (p && p->has_mpi());
        inner_ = in_rank ? open_phased_in_process(spec_, ex_.env_) : open_phased_forked(spec_, ex_.env_);
        step_result mine = inner_->start(setup);
        json j = {{"step", step_to_json(mine)},
                  {"stop", ex_.env_.stop_requested()},
                  {"alignment", setup.buffer_alignment},
                  {"prepare_s", setup.prepare_s}};
        std::vector<json> all = gather(ex_.comm_, j);
        std::vector<rank_report> ranks = reports(all);
        step_result r = combine_steps(ranks);
        for (const json& a : all) { // the slowest rank's prepare: the case waited for it
            setup.buffer_alignment = std::min(setup.buffer_alignment, a.at("alignment").get<std::size_t>());
            setup.prepare_s = std::max(setup.prepare_s, a.at("prepare_s").get<double>());
        }
        setup.ranks = place.size;
        try {
            setup.payload_bytes = plan_rank(spec_, place, "").total * dtype_size(spec_.dataset.type);
        } catch (const std::exception& e) {
            if (r.ok()) r = {case_status::failed, e.what()};
        }
        if (!r.ok()) return r;
        return warm_up(warm_kind::start);
    }

    step_result repetition(repetition_report& report) override { return repetitions(report, true); }

    step_result rewarm() override { return warm_up(warm_kind::rewarm); }

    step_result finish(case_facts& facts) override {
        ex_.comm_.barrier();
        case_facts mine;
        step_result s = inner_ ? inner_->finish(mine) : step_result{};
        const std::string output = inner_ ? inner_->output() : std::string();
        json j = {{"step", step_to_json(s)},
                  {"stop", ex_.env_.stop_requested()},
                  {"file_bytes", mine.file_bytes},
                  {"peak_rss_bytes", mine.peak_rss_bytes},
                  {"output", output}};
        std::vector<json> all = gather(ex_.comm_, j);
        std::vector<case_facts> each;
        output_.clear();
        for (std::size_t r = 0; r < all.size(); ++r) {
            each.push_back({all[r].at("file_bytes").get<std::uint64_t>(),
                            all[r].at("peak_rss_bytes").get<std::int64_t>()});
            const std::string text = all[r].at("output").get<std::string>();
            if (text.empty()) continue;
            output_ += all.size() > 1 ? fmt::format("rank {}: {}", r, text) : text;
            if (output_.back() != '\n') output_ += '\n';
        }
        facts = combine_facts(each, spec_.params.layout == layout_mode::shared_file);
        return combine_steps(reports(all));
    }

    std::string output() override { return output_; }

private:
    // The ranks' reports, and whether any was asked to stop.
    std::vector<rank_report> reports(const std::vector<json>& all) {
        std::vector<rank_report> out;
        for (const json& a : all) {
            rank_report r;
            r.step = step_from_json(a.at("step"));
            r.stop = a.at("stop").get<bool>();
            if (a.contains("rep")) {
                const formatbench::repetition rep = repetition_from_json(a.at("rep"));
                r.report.sample = a.at("read").get<bool>() ? rep.read : rep.write;
                r.report.resident_fraction = rep.resident_fraction;
                r.report.started = a.at("started").get<double>();
                r.report.verify = verification_from_json(a.at("verify"));
            }
            if (r.stop) ex_.stop_agreed_ = true;
            out.push_back(std::move(r));
        }
        return out;
    }

    // Unrecorded repetitions, counted and timed on the ranks' aggregate
    // phase times, which every rank receives: all ranks stop together.
    step_result warm_up(warm_kind kind) {
        double spent = 0;
        for (unsigned i = 0; warm_up_continues(kind, i, spent, spec_.params); ++i) {
            announce(run_phase::warm_up);
            repetition_report scratch;
            if (step_result w = repetitions(scratch, false); !w.ok()) return w;
            spent += scratch.rep.write.wall_s + scratch.rep.read.wall_s;
        }
        return {};
    }

    // One repetition, phase by phase, into `report` (the warm-up needs its
    // times too). A recorded one announces write and read before the
    // barrier that precedes each (no verify: the worker's read phase
    // compares the data within its step).
    step_result repetitions(repetition_report& report, bool recorded) {
        for (phase_kind kind :
             {phase_kind::remove_previous, phase_kind::write, phase_kind::cache, phase_kind::read}) {
            if (recorded && kind == phase_kind::write) announce(run_phase::write);
            if (recorded && kind == phase_kind::read) announce(run_phase::read);
            ex_.comm_.barrier();
            phase_report mine;
            const step_result s = inner_->phase(kind, mine);
            formatbench::repetition rep;
            (kind == phase_kind::read ? rep.read : rep.write) = mine.sample;
            rep.resident_fraction = mine.resident_fraction;
            json j = {{"step", step_to_json(s)},
                      {"stop", ex_.env_.stop_requested()},
                      {"rep", to_json(rep)},
                      {"read", kind == phase_kind::read},
                      {"started", mine.started - ex_.clock_offset_},
                      {"verify", to_json(mine.verify)}};
            const std::vector<rank_report> ranks = reports(gather(ex_.comm_, j));
            if (step_result r = combine_steps(ranks); !r.ok()) return r;
            switch (kind) {
            case phase_kind::remove_previous: break;
            case phase_kind::write: report.rep.write = combine_phase(ranks); break;
            case phase_kind::cache: report.rep.resident_fraction = combine_resident(ranks); break;
            case phase_kind::read:
                report.rep.read = combine_phase(ranks);
                report.verify = combine_verify(ranks);
                break;
            }
        }
        return {};
    }

    case_spec spec_;
    rank_executor& ex_;
    std::unique_ptr<phased_session> inner_;
    std::string output_;
};

rank_executor::rank_executor(case_environment env, communicator& comm, isolation_mode isolation,
                             double clock_offset)
    : env_(std::move(env)), comm_(comm), isolation_(isolation), clock_offset_(clock_offset) {}

std::unique_ptr<case_session> rank_executor::open(const case_spec& c) {
    return std::make_unique<rank_session>(c, *this);
}

} // namespace formatbench

// JSON form of results (docs/results-schema.json, docs/results.md) and its
// reading back for --resume and compare.
//
// Contracts:
//  - to_json -> from_json is lossless for every field of the structs, with two
//    documented normalisations: option lists come back sorted by name (they
//    are JSON objects; option order carries no meaning), and a non-finite
//    double (written as null) comes back as NaN.
//  - Derived figures (size_ratio, the write/read summaries, speed-ups) are
//    written for readers of the record from the case summary
//    (case_result::figures, summary.hpp); reading a record builds that
//    summary again from the samples with the same code (study_result_from_json),
//    so the figures of a record read back are those it holds.
//  - Units are in key names: _s seconds, _bytes bytes, _mb_s 10^6 bytes/s.
//  - Reading is strict about what it needs (missing key, wrong type, unknown
//    enum value -> usage_error naming the JSON path) and ignores keys it does
//    not know, so a later minor addition does not break older readers.
#include "results/json.hpp"

#include "results/cost_model.hpp"
#include "results/figures.hpp"
#include "results/summary.hpp"
#include "study/fields.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "build_config.hpp"
#include "results/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <unordered_map>

using nlohmann::json;

namespace formatbench {
namespace {

// --- writing ---------------------------------------------------------------

// JSON has no NaN or infinity: they become null.
json number(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json options_to_json(const option_list& options) {
    json out = json::object();
    for (const auto& [name, value] : options)
        out[name] = value;
    return out;
}

json metrics_json(const std::vector<std::pair<std::string, double>>& metrics) {
    json m = json::object();
    for (const auto& [name, value] : metrics)
        m[name] = number(value);
    return m;
}

json spread_json(const rank_spread& s) {
    return {{"min_s", number(s.min_s)}, {"median_s", number(s.median_s)}, {"max_s", number(s.max_s)}};
}

json latency_to_json(const latency_summary& l) {
    json cdf = json::array();
    for (double x : l.cdf_ns)
        cdf.push_back(number(x));
    return {{"ops", l.ops},
            {"bytes", l.bytes},
            {"min_ns", number(l.min_ns)},
            {"p50_ns", number(l.p50_ns)},
            {"p90_ns", number(l.p90_ns)},
            {"p99_ns", number(l.p99_ns)},
            {"p99_9_ns", number(l.p999_ns)},
            {"max_ns", number(l.max_ns)},
            {"mean_ns", number(l.mean_ns)},
            {"clock_cost_ns", number(l.clock_cost_ns)},
            {"cdf_ns", std::move(cdf)}};
}

json accounting_to_json(const phase_accounting& a) {
    return {{"measured", a.measured},
            {"wait_s", number(a.wait_s)},
            {"thread_wait_s", number(a.thread_wait_s)},
            {"steal_s", number(a.steal_s)},
            {"runnable", a.runnable},
            {"cpus", a.cpus},
            {"threads", a.threads},
            {"voluntary_switches", a.voluntary_switches},
            {"involuntary_switches", a.involuntary_switches},
            {"minor_faults", a.minor_faults},
            {"major_faults", a.major_faults},
            {"syscr", a.syscr},
            {"syscw", a.syscw},
            {"rchar", a.rchar},
            {"wchar", a.wchar},
            {"read_bytes", a.read_bytes},
            {"write_bytes", a.write_bytes}};
}

json phase_to_json(const phase_sample& p) {
    json j{{"wall_s", number(p.wall_s)}, {"user_s", number(p.user_s)}, {"sys_s", number(p.sys_s)}};
    j["accounting"] = accounting_to_json(p.accounting);
    if (!p.metrics.empty()) j["metrics"] = metrics_json(p.metrics);
    if (p.ranks) j["ranks"] = spread_json(*p.ranks);
    if (p.latency) {
        j["latency"] = latency_to_json(*p.latency);
        j["iops"] = number(p.iops());
    }
    return j;
}

// The summary of one phase (summary.hpp phase_figures), as computed once.
json phase_summary_to_json(const phase_figures& f) {
    json j{{"n", f.n},
           {"disturbed", f.disturbed},
           {"used", f.used},
           {"on_disturbed", f.on_disturbed},
           {"min_s", number(f.min_s)},
           {"median_s", number(f.median_s)},
           {"ci_low_s", number(f.ci_low_s)},
           {"ci_high_s", number(f.ci_high_s)},
           {"precision", number(f.precision)},
           {"mean_s", number(f.mean_s)},
           {"stddev_s", number(f.stddev_s)},
           {"cv", number(f.cv)},
           {"outliers", f.outliers},
           {"noisy", f.noisy()},
           {"throughput_mb_s", number(f.throughput_mb_s)},
           {"user_s", number(f.user_s)},
           {"sys_s", number(f.sys_s)},
           {"accounting", accounting_to_json(f.total)}};
    if (!f.metrics.empty()) j["metrics"] = metrics_json(f.metrics);
    if (f.ranks) j["ranks"] = spread_json(*f.ranks);
    return j;
}

json dataset_to_json(const dataset_spec& d) {
    json j{{"name", d.name}};
    for (const auto& f : dataset_fields())
        j[f.json_name] = f.to_json(d);
    j["file"] = d.file;
    j["file_plugin"] = d.file_plugin;
    j["file_options"] = options_to_json(d.file_options);
    if (!d.shape.empty()) j["shape"] = d.shape;
    j["origin"] = d.origin;
    return j;
}

json params_to_json(const run_params& p) {
    json j = json::object();
    for (const auto& f : run_fields())
        j[f.json_name] = f.to_json(p);
    return j;
}

json study_to_json(const study& s) {
    json outputs = json::array();
    for (const output_spec& o : s.outputs)
        outputs.push_back({{"format", o.format}, {"path", o.path}});
    json cases = json::array();
    for (const case_spec& c : s.cases)
        cases.push_back(to_json(c));
    json j{{"name", s.name},
           {"description", s.description},
           {"source", s.source},
           {"resolved_yaml", s.resolved_yaml},
           {"baseline", s.baseline}};
    for (const auto& f : study_fields())
        j[f.json_name] = f.to_json(s);
    j["outputs"] = outputs;
    j["plugin_path"] = s.plugin_path;
    // Optional (older records lack it): speed-ups measured elsewhere; a factor not
    // published is absent.
    if (!s.published.empty()) {
        json published = json::array();
        for (const published_speedup& p : s.published) {
            json e{{"format", p.format}, {"against", p.against}, {"source", p.source}};
            if (std::isfinite(p.write)) e["write"] = p.write;
            if (std::isfinite(p.read)) e["read"] = p.read;
            published.push_back(std::move(e));
        }
        j["published"] = std::move(published);
    }
    // Optional (older records lack it): the pairs the verdict compares.
    if (!s.pairs.empty()) {
        json pairs = json::array();
        for (const format_pair& p : s.pairs)
            pairs.push_back({{"format", p.format}, {"against", p.against}});
        j["pairs"] = std::move(pairs);
    }
    // Optional (older records lack it): the study's workload, each phase's
    // weight and the run parameters it names.
    if (s.workload.given) {
        auto phase = [](const workload_phase& w) {
            json params = json::object();
            for (const std::string& key : w.keys)
                if (const field<run_params>* f = find_field(run_fields(), key))
                    params[f->json_name] = f->to_json(w.params);
            return json{{"weight", w.weight}, {"params", std::move(params)}};
        };
        json reads = json::array();
        for (const workload_phase& w : s.workload.reads)
            reads.push_back(phase(w));
        j["workload"] = {{"write", phase(s.workload.write)}, {"reads", std::move(reads)}};
    }
    j["cases"] = cases;
    return j;
}

// --- reading ---------------------------------------------------------------

// A view of one JSON object with its path ("cases[3].params"), so that every
// error says where it is.
class reader {
public:
    reader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
        if (!j_.is_object()) fail(path_, "expected an object, got " + type_of(j_));
    }

    const std::string& path() const noexcept { return path_; }

    const json& at(const char* key) const {
        auto it = j_.find(key);
        if (it == j_.end()) fail(path_, fmt::format("missing key '{}'", key));
        return *it;
    }
    std::string sub(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

    reader object(const char* key) const { return reader(at(key), sub(key)); }

    const json& array(const char* key) const {
        const json& v = at(key);
        if (!v.is_array()) fail(sub(key), "expected an array, got " + type_of(v));
        return v;
    }

    std::string string(const char* key) const {
        const json& v = at(key);
        if (!v.is_string()) fail(sub(key), "expected a string, got " + type_of(v));
        return v.get<std::string>();
    }

    bool has(const char* key) const { return j_.contains(key); }

    // For fields that only help messages or matching: "" when absent.
    std::string optional_string(const char* key) const {
        return j_.contains(key) ? string(key) : std::string();
    }

    bool boolean(const char* key) const {
        const json& v = at(key);
        if (!v.is_boolean()) fail(sub(key), "expected true or false, got " + type_of(v));
        return v.get<bool>();
    }

    // null (how a non-finite value is written) reads as NaN.
    double real(const char* key) const {
        const json& v = at(key);
        if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
        if (!v.is_number()) fail(sub(key), "expected a number, got " + type_of(v));
        return v.get<double>();
    }

    // An integer in the range of T (a float with an integral value is accepted).
    template <typename T>
    T integer(const char* key) const {
        const json& v = at(key);
        if (v.is_number_unsigned()) {
            const auto u = v.get<std::uint64_t>();
            if (u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(u);
        } else if (v.is_number_integer()) { // negative: nlohmann stores non-negative ones as unsigned
            const auto i = v.get<std::int64_t>();
            if constexpr (std::is_signed_v<T>)
                if (i >= static_cast<std::int64_t>(std::numeric_limits<T>::min())) return static_cast<T>(i);
        } else if (v.is_number_float()) {
            const double d = v.get<double>();
            if (d == std::floor(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
                d < static_cast<double>(std::numeric_limits<T>::max()))
                return static_cast<T>(d);
        } else {
            fail(sub(key), "expected an integer, got " + type_of(v));
        }
        fail(sub(key), fmt::format("{} is out of range here", v.dump()));
    }

    option_list options(const char* key) const {
        const json& v = at(key);
        if (!v.is_object()) fail(sub(key), "expected an object of option names to values, got " + type_of(v));
        option_list out;
        for (const auto& [name, value] : v.items()) {
            if (!value.is_string())
                fail(sub(key) + "." + name, "expected the option's value as a string, got " + type_of(value));
            out.emplace_back(name, value.get<std::string>());
        }
        return out;
    }

    // An enum written with to_string(): every value of `all` is a candidate.
    template <typename E, std::size_t N>
    E enumeration(const char* key, const E (&all)[N]) const {
        const std::string text = string(key);
        std::vector<std::string> names;
        for (E e : all) {
            if (text == to_string(e)) return e;
            names.emplace_back(to_string(e));
        }
        fail(sub(key), fmt::format("unknown value '{}'{}; expected one of {}", text,
                                   did_you_mean(text, names), join(names)));
    }

    // Every row of a field table, into `spec`; a row absent from an older
    // record keeps its default when the table allows it.
    template <class Spec>
    void fields(const std::vector<field<Spec>>& table, Spec& spec) const {
        for (const auto& f : table) {
            if (!has(f.json_name.c_str())) {
                if (f.json_optional) continue;
                fail(path_, fmt::format("missing key '{}'", f.json_name));
            }
            try {
                f.from_json(spec, at(f.json_name.c_str()));
            } catch (const std::invalid_argument& e) {
                fail(sub(f.json_name.c_str()), e.what());
            }
        }
    }

    [[noreturn]] static void fail(const std::string& path, const std::string& what) {
        throw usage_error(path.empty() ? what : path + ": " + what);
    }

private:
    static std::string type_of(const json& v) { return v.type_name(); }

    const json& j_;
    std::string path_;
};

constexpr case_status all_statuses[] = {case_status::ok, case_status::failed, case_status::crashed,
                                        case_status::timeout, case_status::skipped};

dataset_spec dataset_from(const reader& r) {
    dataset_spec d;
    d.name = r.string("name");
    r.fields(dataset_fields(), d);
    d.file = r.string("file");
    d.file_plugin = r.string("file_plugin");
    d.file_options = r.options("file_options");
    if (r.has("shape")) { // since schema 4
        const json& shape = r.at("shape");
        if (!shape.is_array()) reader::fail(r.sub("shape"), "expected a list of extents");
        for (const auto& x : shape) {
            if (!x.is_number_unsigned() || x.get<std::uint64_t>() == 0)
                reader::fail(r.sub("shape"), "expected a list of whole numbers, 1 or more");
            d.shape.push_back(x.get<std::uint64_t>());
        }
    }
    d.origin = r.optional_string("origin");
    return d;
}

run_params params_from(const reader& r) {
    run_params p;
    r.fields(run_fields(), p);
    return p;
}

tolerance_spec tolerance_from(const reader& t) {
    tolerance_spec out;
    if (t.has("abs")) out.abs = t.real("abs");
    if (t.has("rel")) out.rel = t.real("rel");
    return out;
}

json tolerance_to_json(const tolerance_spec& t) {
    json out = json::object();
    if (!std::isnan(t.abs)) out["abs"] = t.abs;
    if (!std::isnan(t.rel)) out["rel"] = t.rel;
    return out;
}

case_spec case_spec_from(const reader& r) {
    case_spec c;
    c.key = r.string("key");
    c.index = r.integer<std::size_t>("index");
    c.dataset = dataset_from(r.object("dataset"));
    const reader f = r.object("format");
    c.format.label = f.string("label");
    c.format.plugin = f.string("plugin");
    c.format.options = f.options("options");
    c.format.base_label = f.optional_string("base_label");
    c.format.origin = f.optional_string("origin");
    if (f.has("tolerance")) c.format.tolerance = tolerance_from(f.object("tolerance"));
    c.params = params_from(r.object("params"));
    return c;
}

phase_accounting accounting_from(const reader& r) {
    phase_accounting a;
    a.measured = r.boolean("measured");
    a.wait_s = r.real("wait_s");
    a.thread_wait_s = r.real("thread_wait_s");
    a.steal_s = r.real("steal_s");
    a.runnable = r.integer<unsigned>("runnable");
    a.cpus = r.integer<unsigned>("cpus");
    a.threads = r.integer<unsigned>("threads");
    a.voluntary_switches = r.integer<std::uint64_t>("voluntary_switches");
    a.involuntary_switches = r.integer<std::uint64_t>("involuntary_switches");
    a.minor_faults = r.integer<std::uint64_t>("minor_faults");
    a.major_faults = r.integer<std::uint64_t>("major_faults");
    a.syscr = r.integer<std::uint64_t>("syscr");
    a.syscw = r.integer<std::uint64_t>("syscw");
    a.rchar = r.integer<std::uint64_t>("rchar");
    a.wchar = r.integer<std::uint64_t>("wchar");
    a.read_bytes = r.integer<std::uint64_t>("read_bytes");
    a.write_bytes = r.integer<std::uint64_t>("write_bytes");
    return a;
}

phase_sample phase_from(const reader& r) {
    phase_sample p;
    p.wall_s = r.real("wall_s");
    // A time no clock measured: below 0, or above 10^6 s (11.6 days; a
    // phase is stopped by its case's timeout far sooner). null (NaN) is a
    // phase that did not run.
    if (std::isfinite(p.wall_s) && (p.wall_s < 0 || p.wall_s > 1e6))
        reader::fail(r.sub("wall_s"),
                     fmt::format("{:g} s is no phase time (0 to 10^6 s); the record is damaged or "
                                 "was edited",
                                 p.wall_s));
    p.user_s = r.real("user_s");
    p.sys_s = r.real("sys_s");
    if (r.has("accounting")) p.accounting = accounting_from(r.object("accounting")); // since schema 5
    if (r.has("ranks")) {                                                            // since schema 3 (MPI)
        const reader s = r.object("ranks");
        p.ranks = rank_spread{s.real("min_s"), s.real("median_s"), s.real("max_s")};
    }
    if (r.has("metrics")) { // since ABI 1.1's plugin metrics
        const json& m = r.at("metrics");
        if (!m.is_object()) reader::fail(r.sub("metrics"), "expected an object of names to numbers");
        for (const auto& [name, value] : m.items()) {
            if (!value.is_number() && !value.is_null())
                reader::fail(r.sub("metrics") + "." + name, "expected a number");
            p.metrics.emplace_back(name, value.is_null() ? std::numeric_limits<double>::quiet_NaN()
                                                         : value.get<double>());
        }
    }
    if (r.has("latency")) { // since schema 4 (access patterns)
        const reader l = r.object("latency");
        latency_summary x;
        x.ops = l.integer<std::uint64_t>("ops");
        x.bytes = l.integer<std::uint64_t>("bytes");
        x.min_ns = l.real("min_ns");
        x.p50_ns = l.real("p50_ns");
        x.p90_ns = l.real("p90_ns");
        x.p99_ns = l.real("p99_ns");
        x.p999_ns = l.real("p99_9_ns");
        x.max_ns = l.real("max_ns");
        x.mean_ns = l.real("mean_ns");
        x.clock_cost_ns = l.real("clock_cost_ns");
        const json& cdf = l.at("cdf_ns");
        if (!cdf.is_array()) reader::fail(l.sub("cdf_ns"), "expected a list of numbers");
        for (const auto& v : cdf) {
            if (!v.is_number()) reader::fail(l.sub("cdf_ns"), "expected a list of numbers");
            x.cdf_ns.push_back(v.get<double>());
        }
        p.latency = std::move(x);
    }
    return p;
}

repetition repetition_from(const reader& s) {
    repetition rep;
    rep.write = phase_from(s.object("write"));
    rep.read = phase_from(s.object("read"));
    // null = not measured (the struct's -1).
    rep.resident_fraction = s.at("resident_fraction").is_null() ? -1 : s.real("resident_fraction");
    return rep;
}

verification verification_from(const reader& v) {
    verification out;
    out.checked = v.boolean("checked");
    out.compared = v.integer<std::uint64_t>("compared");
    out.mismatches = v.integer<std::uint64_t>("mismatches");
    if (v.has("first_mismatch_index"))
        out.first_mismatch_index = v.integer<std::uint64_t>("first_mismatch_index");
    out.max_abs_error = v.real("max_abs_error");
    out.max_rel_error = v.real("max_rel_error");
    out.lossless_expected = v.boolean("lossless_expected");
    // Since the tolerance (records before it have none of these).
    if (v.has("sum_squared_error")) out.sum_squared_error = v.real("sum_squared_error");
    if (v.has("infinite_errors")) out.infinite_errors = v.integer<std::uint64_t>("infinite_errors");
    if (v.has("written_min")) out.written_min = v.real("written_min");
    if (v.has("written_max")) out.written_max = v.real("written_max");
    if (v.has("tolerance")) out.tolerance = tolerance_from(v.object("tolerance"));
    if (v.has("outside_tolerance")) out.outside_tolerance = v.integer<std::uint64_t>("outside_tolerance");
    if (v.has("worst")) {
        const reader w = v.object("worst");
        out.worst_index = w.integer<std::uint64_t>("index");
        out.worst_written = w.real("written");
        out.worst_read = w.real("read");
        out.worst_error = w.real("error");
        // null: allowed nothing, so infinitely more than allowed.
        out.worst_excess =
            w.at("excess").is_null() ? std::numeric_limits<double>::infinity() : w.real("excess");
    }
    return out;
}

case_result case_result_from(const reader& r) {
    case_result c;
    c.spec = case_spec_from(r);
    c.status = r.enumeration("status", all_statuses);
    c.error = r.string("error");
    c.payload_bytes = r.integer<std::uint64_t>("payload_bytes");
    c.file_bytes = r.integer<std::uint64_t>("file_bytes");
    c.peak_rss_bytes = r.integer<std::int64_t>("peak_rss_bytes");
    c.buffer_alignment = r.integer<std::size_t>("buffer_alignment_bytes");
    c.verify = verification_from(r.object("verify"));
    const reader p = r.object("plugin");
    c.plugin_version = p.string("version");
    c.plugin_file = p.string("file");
    if (p.has("prepare_s")) c.plugin_prepare_s = p.real("prepare_s"); // since formatbench.prepare/1
    c.output = r.optional_string("output");                           // since schema 2
    if (r.has("ranks")) c.ranks = r.integer<unsigned>("ranks");       // since schema 3
    if (r.has("stop")) {                                              // since schema 5
        const std::string stop = r.string("stop");
        bool known = false;
        for (case_stop s : {case_stop::repeat, case_stop::precision, case_stop::budget, case_stop::limit})
            if (stop == to_string(s)) c.stop = s, known = true;
        if (!known)
            reader::fail(r.sub("stop"), fmt::format("unknown value '{}'; expected one of repeat, precision, "
                                                    "budget, limit",
                                                    stop));
    }
    const json& samples = r.array("samples");
    for (std::size_t i = 0; i < samples.size(); ++i) {
        c.samples.push_back(repetition_from(reader(samples[i], fmt::format("{}[{}]", r.sub("samples"), i))));
    }
    if (c.status == case_status::ok && c.samples.empty())
        reader::fail(r.sub("samples"),
                     fmt::format("case '{}' is ok but has no samples: an ok case ran at least "
                                 "one repetition; the record is damaged or was edited",
                                 c.spec.key));
    return c;
}

run_context run_context_from(const reader& r) {
    run_context c;
    c.formatbench_version = r.string("formatbench_version");
    c.date = r.string("date");
    c.host = r.string("host");
    c.os = r.string("os");
    c.kernel = r.string("kernel");
    c.cpu_model = r.string("cpu_model");
    c.cores = r.integer<unsigned>("cores");
    c.memory_bytes = r.integer<std::uint64_t>("memory_bytes");
    c.data_directory = r.string("data_directory");
    c.filesystem = r.string("filesystem");
    c.compiler = r.string("compiler");
    c.build_type = r.string("build_type");
    if (r.has("ranks")) c.ranks = r.integer<unsigned>("ranks"); // since schema 3
    if (r.has("hosts")) c.hosts = r.integer<unsigned>("hosts");
    // Since schema 5; null: not measured.
    for (auto [key, into] :
         {std::pair{"load_before", &c.load_before}, std::pair{"load_after", &c.load_after}})
        if (r.has(key)) *into = r.at(key).is_null() ? -1 : r.real(key);
    const json& plugins = r.array("plugins");
    for (std::size_t i = 0; i < plugins.size(); ++i) {
        const reader p(plugins[i], fmt::format("{}[{}]", r.sub("plugins"), i));
        c.plugins.push_back({p.string("id"), p.string("version"), p.string("file")});
    }
    return c;
}

study study_from(const reader& r) {
    study s;
    s.name = r.string("name");
    s.description = r.string("description");
    s.source = r.string("source");
    s.resolved_yaml = r.string("resolved_yaml");
    s.baseline = r.string("baseline");
    r.fields(study_fields(), s);
    // Schema 1 said whether repetitions were interleaved.
    if (!r.has("schedule") && r.has("interleave") && r.boolean("interleave"))
        s.schedule = schedule_mode::interleave;
    const json& outputs = r.array("outputs");
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const reader o(outputs[i], fmt::format("{}[{}]", r.sub("outputs"), i));
        s.outputs.push_back({o.string("format"), o.string("path"), ""});
    }
    if (r.has("published")) {
        const json& published = r.array("published");
        for (std::size_t i = 0; i < published.size(); ++i) {
            const reader p(published[i], fmt::format("{}[{}]", r.sub("published"), i));
            published_speedup e;
            e.format = p.string("format");
            e.against = p.string("against");
            e.source = p.string("source");
            if (p.has("write")) e.write = p.real("write");
            if (p.has("read")) e.read = p.real("read");
            s.published.push_back(std::move(e));
        }
    }
    if (r.has("pairs")) {
        const json& pairs = r.array("pairs");
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const reader p(pairs[i], fmt::format("{}[{}]", r.sub("pairs"), i));
            s.pairs.push_back({p.string("format"), p.string("against")});
        }
    }
    if (r.has("workload")) {
        const reader w = r.object("workload");
        auto phase = [](const reader& p) {
            workload_phase out;
            out.weight = p.real("weight");
            if (!(out.weight >= 0) || !std::isfinite(out.weight))
                reader::fail(p.sub("weight"), "expected a weight, 0 or more");
            const reader params = p.object("params");
            for (const auto& f : run_fields()) {
                if (!params.has(f.json_name.c_str())) continue;
                try {
                    f.from_json(out.params, params.at(f.json_name.c_str()));
                } catch (const std::invalid_argument& e) {
                    reader::fail(params.sub(f.json_name.c_str()), e.what());
                }
                out.keys.push_back(f.key);
            }
            return out;
        };
        s.workload.given = true;
        s.workload.write = phase(w.object("write"));
        const json& reads = w.array("reads");
        for (std::size_t i = 0; i < reads.size(); ++i)
            s.workload.reads.push_back(phase(reader(reads[i], fmt::format("{}[{}]", w.sub("reads"), i))));
    }
    const json& paths = r.array("plugin_path");
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (!paths[i].is_string())
            reader::fail(fmt::format("{}[{}]", r.sub("plugin_path"), i),
                         std::string("expected a string, got ") + paths[i].type_name());
        s.plugin_path.push_back(paths[i].get<std::string>());
    }
    const json& cases = r.array("cases");
    for (std::size_t i = 0; i < cases.size(); ++i)
        s.cases.push_back(case_spec_from(reader(cases[i], fmt::format("{}[{}]", r.sub("cases"), i))));
    return s;
}

} // namespace

json to_json(const case_spec& c) {
    json format = {{"label", c.format.label},
                   {"plugin", c.format.plugin},
                   {"options", options_to_json(c.format.options)},
                   {"base_label", c.format.base_label},
                   {"origin", c.format.origin}};
    if (c.format.tolerance.given()) format["tolerance"] = tolerance_to_json(c.format.tolerance);
    return {{"key", c.key},
            {"index", c.index},
            {"dataset", dataset_to_json(c.dataset)},
            {"format", std::move(format)},
            {"params", params_to_json(c.params)}};
}

json to_json(const repetition& rep) {
    return {{"write", phase_to_json(rep.write)},
            {"read", phase_to_json(rep.read)},
            {"resident_fraction", rep.resident_fraction < 0 ? json(nullptr) : number(rep.resident_fraction)}};
}

json to_json(const verification& v) {
    json j = {{"checked", v.checked},
              {"compared", v.compared},
              {"mismatches", v.mismatches},
              {"first_mismatch_index", v.first_mismatch_index},
              {"max_abs_error", number(v.max_abs_error)},
              {"max_rel_error", number(v.max_rel_error)},
              {"lossless_expected", v.lossless_expected}};
    j["sum_squared_error"] = number(v.sum_squared_error);
    j["infinite_errors"] = v.infinite_errors;
    // The range only when some finite value was noted (a case with a tolerance).
    if (v.written_min <= v.written_max) {
        j["written_min"] = v.written_min;
        j["written_max"] = v.written_max;
    }
    // Derived, for readers of the record; recomputed when it is read back.
    j["rmse"] = number(v.rmse());
    j["psnr_db"] = number(v.psnr_db());
    if (v.tolerance.given()) {
        j["tolerance"] = tolerance_to_json(v.tolerance);
        j["outside_tolerance"] = v.outside_tolerance;
    }
    if (v.outside_tolerance > 0)
        j["worst"] = {{"index", v.worst_index},
                      {"written", number(v.worst_written)},
                      {"read", number(v.worst_read)},
                      {"error", number(v.worst_error)},
                      {"excess", number(v.worst_excess)}};
    return j;
}

json to_json(const case_result& r) {
    json j = to_json(r.spec);
    j["status"] = to_string(r.status);
    j["error"] = r.error;
    j["payload_bytes"] = r.payload_bytes;
    j["ranks"] = r.ranks;
    j["file_bytes"] = r.file_bytes;
    j["size_ratio"] = number(r.figures.size_ratio);
    j["peak_rss_bytes"] = r.peak_rss_bytes;
    j["buffer_alignment_bytes"] = r.buffer_alignment;
    j["verify"] = to_json(r.verify);
    j["plugin"] = {{"version", r.plugin_version}, {"file", r.plugin_file}};
    if (r.plugin_prepare_s >= 0) j["plugin"]["prepare_s"] = r.plugin_prepare_s;
    j["output"] = r.output;
    json samples = json::array();
    for (const repetition& rep : r.samples)
        samples.push_back(to_json(rep));
    j["samples"] = samples;
    j["stop"] = to_string(r.stop);
    j["write"] = phase_summary_to_json(r.figures.write);
    j["read"] = phase_summary_to_json(r.figures.read);
    // Medians over the repetitions of each repetition's figure (figures.hpp).
    if (const auto& l = r.figures.latency)
        j["read"]["latency"] = {{"repetitions", l->repetitions},  {"ops", number(l->ops)},
                                {"iops", number(l->iops)},        {"p50_ns", number(l->p50_ns)},
                                {"p90_ns", number(l->p90_ns)},    {"p99_ns", number(l->p99_ns)},
                                {"p99_9_ns", number(l->p999_ns)}, {"max_ns", number(l->max_ns)}};
    return j;
}

json to_json(const run_context& c) {
    json plugins = json::array();
    for (const auto& p : c.plugins)
        plugins.push_back({{"id", p.id}, {"version", p.version}, {"file", p.file}});
    return {{"formatbench_version", c.formatbench_version},
            {"date", c.date},
            {"host", c.host},
            {"os", c.os},
            {"kernel", c.kernel},
            {"cpu_model", c.cpu_model},
            {"cores", c.cores},
            {"memory_bytes", c.memory_bytes},
            {"data_directory", c.data_directory},
            {"filesystem", c.filesystem},
            {"compiler", c.compiler},
            {"build_type", c.build_type},
            {"ranks", c.ranks},
            {"hosts", c.hosts},
            {"load_before", number(c.load_before)},
            {"load_after", number(c.load_after)},
            {"plugins", plugins}};
}

json to_json(const study_result& r) {
    json cases = json::array();
    for (const case_result& c : r.cases) {
        json j = to_json(c);
        // What needs the study or the other cases: noise findings under the
        // study's rules, speed-ups with their intervals (summary.hpp).
        j["noise"] = c.figures.noise;
        if (c.figures.baseline_index) {
            auto figure = [](const speedup_estimate& e) {
                return json{
                    {"value", number(e.value)}, {"ci_low", number(e.ci.low)}, {"ci_high", number(e.ci.high)}};
            };
            j["speedup"] = {{"baseline_index", *c.figures.baseline_index},
                            {"write", figure(c.figures.write_speedup)},
                            {"read", figure(c.figures.read_speedup)},
                            {"write_pooled_n", c.figures.write_pooled_n}};
        }
        cases.push_back(std::move(j));
    }
    json j = {{"schema_version", results_schema_version},
              {"generator", std::string("formatbench ") + FB_VERSION},
              {"context", to_json(r.context)},
              {"study", study_to_json(r.spec)},
              {"cases", cases}};
    // A count sweep's cost model (cost_model.hpp), derived like the summaries.
    if (const auto fits = fit_cost_models(r.cases); !fits.empty()) {
        json f = json::array(), x = json::array();
        for (const cost_fit& c : fits) {
            // A group without a linear range has no fixed and per-value
            // cost (null), only how far its best range was from a line.
            const auto cost = [&](double v) { return c.linear ? number(v) : json(nullptr); };
            f.push_back({{"label", c.label},
                         {"phase", c.write ? "write" : "read"},
                         {"linear", c.linear},
                         {"fixed_us", cost(c.fit.a * 1e6)},
                         {"per_value_ns", cost(c.fit.b * 1e9)},
                         {"r2", cost(c.fit.r2)},
                         {"max_rel_residual", number(c.fit.max_rel_residual)},
                         {"points", c.points},
                         {"valid_min_count", c.valid_min_count},
                         {"valid_max_count", c.valid_max_count},
                         {"counts", c.counts},
                         {"min_count", c.min_count},
                         {"max_count", c.max_count}});
        }
        for (const crossover& c : find_crossovers(fits))
            x.push_back({{"phase", c.write ? "write" : "read"},
                         {"faster_below", c.small},
                         {"faster_above", c.large},
                         {"count", number(c.count)}});
        j["cost_model"] = {{"tolerance", cost_model_tolerance}, {"fits", f}, {"crossovers", x}};
    }
    return j;
}

case_spec case_spec_from_json(const json& j) {
    return case_spec_from(reader(j, "case"));
}

case_result case_result_from_json(const json& j) {
    case_result c = case_result_from(reader(j, "case"));
    const study rules; // the default noise rules: a case alone has no study
    summarize_case(c, rules.noise_cv, rules.noise_min_samples);
    return c;
}

repetition repetition_from_json(const json& j) {
    return repetition_from(reader(j, "repetition"));
}

verification verification_from_json(const json& j) {
    return verification_from(reader(j, "verify"));
}

json to_json(const study& s) {
    return study_to_json(s);
}

study study_from_json(const json& j) {
    return study_from(reader(j, "study"));
}

run_context run_context_from_json(const json& j) {
    return run_context_from(reader(j, "context"));
}

study_result study_result_from_json(const json& j, const std::string& source) {
    try {
        const reader top(j, "");
        const json& version = top.at("schema_version");
        if (!version.is_number_integer() || version.get<std::int64_t>() < 1 ||
            version.get<std::int64_t>() > results_schema_version)
            reader::fail("schema_version", fmt::format("this formatbench reads results records of schema "
                                                       "versions 1 to {}, this one has {}",
                                                       results_schema_version, version.dump()));
        study_result r;
        r.context = run_context_from(top.object("context"));
        r.spec = study_from(top.object("study"));
        const json& cases = top.array("cases");
        std::unordered_map<std::string, std::size_t> keys;
        for (std::size_t i = 0; i < cases.size(); ++i) {
            r.cases.push_back(case_result_from(reader(cases[i], fmt::format("cases[{}]", i))));
            // Two cases of one measurement: compare and report could not tell which is meant.
            if (r.cases.back().spec.key.empty()) continue;
            if (const auto [at, fresh] = keys.emplace(r.cases.back().spec.key, i); !fresh)
                reader::fail(fmt::format("cases[{}].key", i),
                             fmt::format("'{}' is the key of cases[{}] too: each case of a record is "
                                         "another measurement; the record is damaged or was edited",
                                         r.cases.back().spec.key, at->second));
        }
        summarize_study(r);
        return r;
    } catch (const usage_error& e) {
        throw usage_error(fmt::format("{}: not a valid formatbench results record: {}", source, e.what()));
    }
}

} // namespace formatbench

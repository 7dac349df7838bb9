// The field tables of fields.hpp and the value syntaxes of syntax.hpp.
#include "study/fields.hpp"

#include "base/suggest.hpp"
#include "study/reader.hpp"
#include "study/syntax.hpp"
#include "study/values.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace formatbench {

// ---- syntaxes ------------------------------------------------------------------

namespace syntaxes {
namespace {

std::string number_text(double v) {
    return fmt::format("{}", v);
}

// Exact and short: 65536 -> "64KiB", 1000000 -> "1000000", 0 -> "whole".
std::string chunk_text(std::uint64_t bytes) {
    if (bytes == 0) return "whole";
    static const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    std::string unit;
    std::uint64_t v = bytes;
    for (const char* u : units) {
        if (v % 1024 != 0) break;
        v /= 1024;
        unit = u;
    }
    return std::to_string(v) + unit;
}

} // namespace

const syntax<std::uint64_t> count{[](const std::string& s) { return parse_count(s); },
                                  "a count like 1000000, 1e6 or 10**6 (a whole number, 0 or more)",
                                  {},
                                  [](const std::uint64_t& v) { return std::to_string(v); }};

const syntax<double> real{
    [](const std::string& s) { return detail::parse_real(s); }, "a number like 0.5 or 1e3", {}, number_text};

const syntax<std::int64_t> integer{[](const std::string& s) { return detail::parse_int(s); },
                                   "a whole number like -5 or 100",
                                   {},
                                   [](const std::int64_t& v) { return std::to_string(v); }};

const syntax<bool> boolean{[](const std::string& s) { return detail::parse_bool(s); },
                           "true or false",
                           {"true", "false"},
                           [](const bool& v) { return std::string(v ? "true" : "false"); }};

const syntax<std::uint64_t> chunk{[](const std::string& s) { return parse_bytes(s); },
                                  "a size in bytes like 4096, 64KiB, 1MB or 'whole'",
                                  {},
                                  chunk_text};

const syntax<std::uint64_t> align{[](const std::string& s) -> std::optional<std::uint64_t> {
                                      if (s == "whole") return std::nullopt;
                                      auto v = parse_bytes(s);
                                      if (!v || *v >= (1u << 20)) return std::nullopt;
                                      return v;
                                  },
                                  "a byte offset below 1 MiB like 0 or 16",
                                  {},
                                  [](const std::uint64_t& v) { return std::to_string(v); }};

const syntax<double> duration{[](const std::string& s) { return detail::parse_duration(s); },
                              "a duration in seconds like 0.5, 500ms or 2s (0 to 10^7 s)",
                              {},
                              number_text};

const syntax<double> timeout{[](const std::string& s) -> std::optional<double> {
                                 auto v = detail::parse_duration(s);
                                 if (!v || *v <= 0) return std::nullopt;
                                 return v;
                             },
                             "a duration in seconds like 600, 90s or 10min (more than 0, at most 10^7 s)",
                             {},
                             number_text};

const syntax<dtype> data_type = [] {
    std::vector<std::string> names;
    for (dtype d : all_dtypes)
        names.emplace_back(dtype_name(d));
    std::string expected = "a dtype: ";
    for (std::size_t i = 0; i < names.size(); ++i)
        expected += (i ? ", " : "") + names[i];
    return syntax<dtype>{[](const std::string& s) { return parse_dtype(s); }, expected, names,
                         [](const dtype& d) { return std::string(dtype_name(d)); }};
}();

const syntax<std::string> text{[](const std::string& s) { return std::optional<std::string>(s); },
                               "a text",
                               {},
                               [](const std::string& s) { return s; }};

syntax<unsigned> bounded(unsigned minimum, std::string expected) {
    return {[minimum](const std::string& s) -> std::optional<unsigned> {
                auto v = detail::parse_int(s);
                if (!v || *v < minimum || *v > 1000000000) return std::nullopt;
                return static_cast<unsigned>(*v);
            },
            std::move(expected),
            {},
            [](const unsigned& v) { return std::to_string(v); }};
}

syntax<unsigned> repeat_count() {
    const syntax<unsigned> whole = bounded(1, "");
    return {[whole](const std::string& s) -> std::optional<unsigned> {
                if (s == "auto") return 0u;
                return whole.parse(s);
            },
            "a whole number of repetitions, 1 or more, or auto (until the precision is reached)",
            {"auto"},
            [](const unsigned& v) { return v == 0 ? std::string("auto") : std::to_string(v); }};
}

syntax<double> fraction() {
    return {[](const std::string& text) -> std::optional<double> {
                const bool percent = !text.empty() && text.back() == '%';
                auto v = detail::parse_real(percent ? text.substr(0, text.size() - 1) : text);
                if (!v) return std::nullopt;
                const double f = percent ? *v / 100 : *v;
                if (!(f > 0) || !std::isfinite(f)) return std::nullopt;
                return f;
            },
            "a fraction more than 0 like 0.1 or 10%",
            {},
            [](const double& v) { return fmt::format("{}", v); }};
}

} // namespace syntaxes

// ---- JSON values -------------------------------------------------------------------

namespace {

using nlohmann::json;

[[noreturn]] void bad_json(const std::string& expected, const json& got) {
    throw std::invalid_argument(fmt::format("expected {}, got {}", expected, got.dump()));
}

template <class T>
json value_to_json(const T& v) {
    if constexpr (std::is_same_v<T, double>)
        return std::isfinite(v) ? json(v) : json(nullptr); // JSON has no NaN or infinity
    else if constexpr (std::is_same_v<T, dtype>)
        return dtype_name(v);
    else if constexpr (std::is_enum_v<T>)
        return to_string(v);
    else
        return v;
}

template <class T>
T value_from_json(const json& j, const std::vector<std::string>& choices) {
    if constexpr (std::is_same_v<T, double>) {
        if (j.is_null()) return std::numeric_limits<double>::quiet_NaN(); // how non-finite values are written
        if (!j.is_number()) bad_json("a number", j);
        return j.get<double>();
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!j.is_boolean()) bad_json("true or false", j);
        return j.get<bool>();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!j.is_string()) bad_json("a string", j);
        return j.get<std::string>();
    } else if constexpr (std::is_same_v<T, dtype>) {
        if (j.is_string())
            if (auto d = parse_dtype(j.get<std::string>())) return *d;
        bad_json("a dtype name", j);
    } else if constexpr (std::is_enum_v<T>) {
        (void)choices;
        bad_json("a name", j); // enums go through enum_from_json
    } else {
        // Integers: in T's range; a float with an integral value is accepted.
        if (j.is_number_unsigned()) {
            const auto u = j.get<std::uint64_t>();
            if (u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(u);
        } else if (j.is_number_integer()) {
            const auto i = j.get<std::int64_t>();
            if constexpr (std::is_signed_v<T>)
                if (i >= static_cast<std::int64_t>(std::numeric_limits<T>::min())) return static_cast<T>(i);
        } else if (j.is_number_float()) {
            const double d = j.get<double>();
            if (d == std::floor(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
                d < static_cast<double>(std::numeric_limits<T>::max()))
                return static_cast<T>(d);
        } else {
            bad_json("an integer", j);
        }
        throw std::invalid_argument(fmt::format("{} is out of range here", j.dump()));
    }
}

// A row for member `m` of Spec read with syntax `s`.
template <class Spec, class T>
field<Spec> make(std::string key, std::string json_name, unsigned identity, T Spec::*m, const syntax<T>& s) {
    field<Spec> f;
    f.key = std::move(key);
    f.json_name = std::move(json_name);
    f.identity = identity;
    f.identity_name = f.key;
    f.expected = s.expected;
    f.choices = s.choices;
    auto parse = s.parse;
    f.parse = [parse, m](const std::string& text) -> std::optional<std::function<void(Spec&)>> {
        std::optional<T> v = parse(text);
        if (!v) return std::nullopt;
        return std::function<void(Spec&)>([m, x = *v](Spec& spec) { spec.*m = x; });
    };
    auto text = s.text;
    f.text = [text, m](const Spec& spec) { return text(spec.*m); };
    f.identity_text = f.text;
    f.same = [m](const Spec& a, const Spec& b) {
        if constexpr (std::is_same_v<T, double>)
            return a.*m == b.*m || (std::isnan(a.*m) && std::isnan(b.*m));
        else
            return a.*m == b.*m;
    };
    f.to_json = [m](const Spec& spec) { return value_to_json(spec.*m); };
    auto choices = s.choices;
    auto parse_name = s.parse;
    f.from_json = [m, choices, parse_name](Spec& spec, const json& j) {
        if constexpr (std::is_enum_v<T> && !std::is_same_v<T, dtype>) {
            if (j.is_string())
                if (auto v = parse_name(j.get<std::string>())) {
                    spec.*m = *v;
                    return;
                }
            const std::string got = j.is_string() ? "'" + j.get<std::string>() + "'" : j.dump();
            throw std::invalid_argument(
                fmt::format("unknown value {}{}; expected one of {}", got,
                            j.is_string() ? did_you_mean(j.get<std::string>(), choices) : "", join(choices)));
        } else {
            spec.*m = value_from_json<T>(j, choices);
        }
    };
    return f;
}

template <class Spec>
field<Spec>& shown(field<Spec>& f, std::string column, std::string label_prefix) {
    f.column = std::move(column);
    f.label_prefix = std::move(label_prefix);
    return f;
}

std::vector<field<run_params>> make_run_fields() {
    using rp = run_params;
    std::vector<field<rp>> t;
    // Values that define the measurement are always part of the identity;
    // those that only say how many samples to take join it when they tell
    // cases apart.
    auto& chunk =
        t.emplace_back(make("chunk", "chunk_bytes", identity_always, &rp::chunk_bytes, syntaxes::chunk));
    chunk.identity_text = [](const rp& p) { return std::to_string(p.chunk_bytes); };
    shown(chunk, "CHUNK", "chunk ");
    shown(t.emplace_back(
              make("cache", "cache", identity_always, &rp::cache, syntaxes::choice(all_cache_modes))),
          "CACHE", "")
        .read_side = true;
    shown(t.emplace_back(make("sync", "sync", identity_always, &rp::sync, syntaxes::choice(all_sync_modes))),
          "SYNC", "sync ");
    auto& read =
        t.emplace_back(make("read", "read", identity_when_set, &rp::read, syntaxes::choice(all_read_modes)));
    read.json_optional = true;
    read.read_side = true;
    shown(read, "READ", "read ");
    shown(
        t.emplace_back(make("repeat", "repeat", identity_when_varied, &rp::repeat, syntaxes::repeat_count())),
        "REPEAT", "repeat ");
    // repeat: auto's target and budget; absent from records older than them.
    auto& precision = t.emplace_back(
        make("precision", "precision", identity_when_varied, &rp::precision, syntaxes::fraction()));
    precision.json_optional = true;
    shown(precision, "", "precision ");
    auto& max_time = t.emplace_back(
        make("max_time", "max_time_s", identity_when_varied, &rp::max_time, syntaxes::timeout));
    max_time.json_optional = true;
    shown(max_time, "", "max_time ");
    shown(t.emplace_back(make("warmup", "warmup", identity_when_varied, &rp::warmup,
                              syntaxes::bounded(0, "a whole number of warm-up repetitions, 0 or more"))),
          "WARMUP", "warmup ");
    // Absent from records older than it: 0, no time bound.
    auto& warm = t.emplace_back(
        make("warmup_time", "warmup_time_s", identity_when_varied, &rp::warmup_time, syntaxes::duration));
    warm.json_optional = true;
    shown(warm, "", "warmup_time ");
    shown(t.emplace_back(
              make("min_time", "min_time_s", identity_when_varied, &rp::min_time, syntaxes::duration)),
          "", "min_time ");
    shown(t.emplace_back(make("timeout", "timeout_s", identity_when_varied, &rp::timeout, syntaxes::timeout)),
          "", "timeout ");
    auto& align =
        t.emplace_back(make("align_offset", "align_offset_bytes", identity_when_set | identity_when_varied,
                            &rp::align_offset, syntaxes::align));
    align.identity_name = "align";
    shown(align, "", "align +");
    // MPI (docs/mpi.md). Part of a case's identity only when not the
    // default, so keys of studies from before MPI stay valid.
    auto& layout = t.emplace_back(
        make("layout", "layout", identity_when_set, &rp::layout, syntaxes::choice(all_layout_modes)));
    layout.json_optional = true;
    shown(layout, "", "");
    auto& scaling = t.emplace_back(
        make("scaling", "scaling", identity_when_set, &rp::scaling, syntaxes::choice(all_scaling_modes)));
    scaling.json_optional = true;
    shown(scaling, "", "scaling ");
    auto& shift =
        t.emplace_back(make("read_rank_shift", "read_rank_shift", identity_when_set, &rp::read_rank_shift,
                            syntaxes::bounded(0, "a whole number of ranks, 0 or more")));
    shift.json_optional = true;
    shift.read_side = true;
    shown(shift, "", "shift ");
    // Access patterns (docs/config.md): in a case's identity only when not
    // the default, so keys of studies from before them stay valid; the
    // pattern's own keys only where a pattern runs.
    auto& access = t.emplace_back(
        make("access", "access", identity_when_set, &rp::access, syntaxes::choice(all_access_modes)));
    access.json_optional = true;
    access.read_side = true;
    shown(access, "ACCESS", "");
    auto patterned = [](const rp& p) { return p.access != access_mode::whole; };
    auto& block = t.emplace_back(
        make("access_block", "access_block_bytes", identity_when_set, &rp::access_block, syntaxes::chunk));
    block.identity_text = [](const rp& p) { return std::to_string(p.access_block); };
    block.json_optional = true;
    block.read_side = true;
    // A plane's size is its shape's, not a block's.
    block.applies = [](const rp& p) {
        return p.access != access_mode::whole && p.access != access_mode::plane;
    };
    shown(block, "BLOCK", "block ");
    auto& ops =
        t.emplace_back(make("access_ops", "access_ops", identity_when_set, &rp::access_ops, syntaxes::count));
    ops.json_optional = true;
    ops.read_side = true;
    ops.applies = patterned;
    shown(ops, "", "ops ");
    auto& stride = t.emplace_back(
        make("access_stride", "access_stride_bytes", identity_when_set, &rp::access_stride, syntaxes::chunk));
    stride.identity_text = [](const rp& p) { return std::to_string(p.access_stride); };
    stride.json_optional = true;
    stride.read_side = true;
    stride.applies = [](const rp& p) { return p.access == access_mode::strided; };
    shown(stride, "", "stride ");
    auto& seed = t.emplace_back(
        make("access_seed", "access_seed", identity_when_set, &rp::access_seed, syntaxes::count));
    seed.json_optional = true;
    seed.read_side = true;
    seed.applies = [](const rp& p) {
        return p.access == access_mode::random || p.access == access_mode::plane;
    };
    shown(seed, "", "seed ");
    auto& axis = t.emplace_back(make("access_axis", "access_axis", identity_when_set, &rp::access_axis,
                                     syntaxes::bounded(0, "an axis of the data set's shape, from 0")));
    axis.json_optional = true;
    axis.read_side = true;
    axis.applies = [](const rp& p) { return p.access == access_mode::plane; };
    shown(axis, "", "axis ");
    auto& direct =
        t.emplace_back(make("direct", "direct", identity_when_set, &rp::direct, syntaxes::boolean));
    direct.json_optional = true;
    direct.read_side = true;
    shown(direct, "", "direct ");
    return t;
}

std::vector<field<dataset_spec>> make_dataset_fields() {
    using ds = dataset_spec;
    std::vector<field<ds>> t;
    t.push_back(make("dtype", "dtype", identity_always, &ds::type, syntaxes::data_type));
    t.push_back(make("count", "count", identity_always, &ds::count, syntaxes::count));
    auto generated = [](const ds& d) { return d.file.empty(); };
    auto& dist = t.emplace_back(make("distribution", "distribution", identity_always, &ds::dist,
                                     syntaxes::choice(all_distributions)));
    dist.applies = generated;
    dist.identity_name = "dist";
    t.emplace_back(make("seed", "seed", identity_always, &ds::seed, syntaxes::count)).applies = generated;
    auto of = [](distribution want) {
        return [want](const ds& d) { return d.file.empty() && d.dist == want; };
    };
    t.emplace_back(make("value", "value", identity_always, &ds::value, syntaxes::real)).applies =
        of(distribution::constant);
    t.emplace_back(make("mean", "mean", identity_always, &ds::mean, syntaxes::real)).applies =
        of(distribution::normal);
    t.emplace_back(make("stddev", "stddev", identity_always, &ds::stddev, syntaxes::real)).applies =
        of(distribution::normal);
    t.emplace_back(make("low", "low", identity_always, &ds::low, syntaxes::integer)).applies =
        of(distribution::integers);
    t.emplace_back(make("high", "high", identity_always, &ds::high, syntaxes::integer)).applies =
        of(distribution::integers);
    return t;
}

std::vector<field<study>> make_study_fields() {
    std::vector<field<study>> t;
    t.push_back(make("directory", "directory", identity_never, &study::directory, syntaxes::text));
    t.back().expected = "a folder path";
    t.push_back(make("keep_files", "keep_files", identity_never, &study::keep_files, syntaxes::boolean));
    // Schema 1 records said `interleave: true|false` instead (results/json.cpp reads it).
    t.push_back(
        make("schedule", "schedule", identity_never, &study::schedule, syntaxes::choice(all_schedule_modes)));
    t.back().json_optional = true;
    t.push_back(make("shuffle_seed", "shuffle_seed", identity_never, &study::shuffle_seed, syntaxes::count));
    t.back().json_optional = true;
    t.push_back(make("isolation", "isolation", identity_never, &study::isolation,
                     syntaxes::choice(all_isolation_modes)));
    // Noise warnings (results/noise.hpp); records from before them lack both.
    const syntax<double> fraction = syntaxes::fraction();
    t.push_back(make("noise_cv", "noise_cv", identity_never, &study::noise_cv, fraction));
    t.back().json_optional = true;
    t.push_back(make("noise_min_samples", "noise_min_samples", identity_never, &study::noise_min_samples,
                     syntaxes::bounded(1, "a whole number of samples, 1 or more")));
    t.back().json_optional = true;
    return t;
}

} // namespace

const std::vector<field<run_params>>& run_fields() {
    static const auto table = make_run_fields();
    return table;
}

const std::vector<field<dataset_spec>>& dataset_fields() {
    static const auto table = make_dataset_fields();
    return table;
}

const std::vector<field<study>>& study_fields() {
    static const auto table = make_study_fields();
    return table;
}

} // namespace formatbench

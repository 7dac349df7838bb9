// Records and logs read back (load.hpp).
#include "results/load.hpp"

#include "base/error.hpp"
#include "base/text_file.hpp"
#include "results/json.hpp"
#include "results/summary.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace formatbench {
namespace {

using nlohmann::json;

study_result record_from(const json& j, const std::string& path) {
    try {
        return study_result_from_json(j, path);
    } catch (const usage_error&) {
        throw;
    } catch (const std::exception& e) {
        throw usage_error(fmt::format("{}: not a results record: {}", path, e.what()));
    }
}

} // namespace

study_result load_results_file(const std::string& path) {
    const std::string text = read_text_file(path, max_results_bytes, "results record");
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw usage_error(fmt::format(
            "{}: not a JSON results record (write one with `formatbench run --json`): {}", path, e.what()));
    }
    return record_from(j, path);
}

results_source load_results_source(const std::string& path) {
    return parse_results_source(read_text_file(path, max_results_bytes, "results file"), path);
}

results_source parse_results_source(const std::string& text, const std::string& path) {
    results_source out;
    out.path = path;
    // A record is one JSON document; a log is one per line. A log's header
    // (or, in logs of older versions, a case) is a whole first line.
    const std::size_t first_end = text.find('\n');
    json first;
    bool first_is_line = false;
    if (first_end != std::string::npos) {
        try {
            first = json::parse(text.substr(0, first_end));
            first_is_line = first.is_object() && (first.contains(log_header_key) || first.contains("status"));
        } catch (const json::exception&) {
        }
    }
    if (!first_is_line) {
        json j;
        try {
            j = json::parse(text);
        } catch (const json::exception& e) {
            throw usage_error(fmt::format(
                "{}: neither a JSON results record nor a JSON Lines log of formatbench: {}", path, e.what()));
        }
        study_result r = record_from(j, path);
        out.spec = std::move(r.spec);
        out.cases = std::move(r.cases);
        return out;
    }
    out.is_log = true;
    std::size_t start = 0, number = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        ++number;
        if (end == std::string::npos) {
            // A last line without its newline: a kill during a write cut it
            // (it holds no finished case), unless it is whole and lacks only
            // the newline (an editor, a copy): then it is kept.
            end = text.size();
            if (!json::accept(std::string_view(text).substr(start))) {
                out.cut_last_line = true;
                break;
            }
        }
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.empty()) continue;
        try {
            const json j = json::parse(line);
            if (j.is_object() && j.contains(log_header_key)) {
                if (number != 1) throw usage_error("a log header after the first line");
                const json& v = j.at(log_header_key);
                if (!v.is_number_integer() || v.get<int>() != log_format_version)
                    throw usage_error(fmt::format("log format {} (this formatbench reads {})", v.dump(),
                                                  log_format_version));
                out.spec = study_from_json(j.at("study"));
                continue;
            }
            out.cases.push_back(case_result_from_json(j));
        } catch (const std::exception& e) {
            throw usage_error(fmt::format("{}:{}: not a formatbench log line: {}", path, number, e.what()));
        }
    }
    const study rules = out.spec ? *out.spec : study{};
    summarize_cases(out.cases, rules.noise_cv, rules.noise_min_samples, rules.baseline);
    return out;
}

} // namespace formatbench

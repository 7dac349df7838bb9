// libFuzzer target: reading results back (results/load.hpp), the code that
// --resume, compare and report run on files a user hands them: a JSON record
// or a JSON Lines log, arbitrary bytes. usage_error is the expected outcome
// for anything that is not one; any other exception escapes and is reported
// as a crash. What reads must write back to JSON that reads again to the
// same record (the round trip --resume relies on).
#include "base/error.hpp"
#include "results/json.hpp"
#include "results/load.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    formatbench::results_source source;
    try {
        source = formatbench::parse_results_source(text, "<fuzz>");
    } catch (const formatbench::usage_error&) {
        return 0;
    }
    for (const auto& c : source.cases) {
        const nlohmann::json once = formatbench::to_json(c);
        const std::string dumped = once.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        try {
            const auto again = formatbench::case_result_from_json(nlohmann::json::parse(dumped));
            if (formatbench::to_json(again).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) !=
                dumped) {
                std::fprintf(stderr, "a case does not survive a round trip:\n%s\n", dumped.c_str());
                std::abort();
            }
        } catch (const formatbench::usage_error& e) {
            std::fprintf(stderr, "a case read back does not read again: %s\n%s\n", e.what(), dumped.c_str());
            std::abort();
        }
    }
    return 0;
}

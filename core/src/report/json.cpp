// JSON reporter: the whole results record (results_json.cpp), indented.
#include "results/json.hpp"
#include "report/reporters.hpp"

namespace formatbench::detail {
namespace {

class json_reporter final : public reporter {
public:
    void write(const study_result& result, std::ostream& out) const override {
        // Plugin error messages may carry bytes that are not UTF-8: replace
        // them rather than fail the whole record.
        out << to_json(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
};

} // namespace

std::unique_ptr<reporter> make_json_reporter(const render_options&) {
    return std::make_unique<json_reporter>();
}

} // namespace formatbench::detail

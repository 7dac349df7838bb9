// How long `compare` and the summary of a record take as the cases grow
// (figures only, never pass/fail): N synthetic cases of 12 samples in 100
// data sets, two records that differ by a few percent, summarized as a
// loaded record is (summarize_study) and compared (compare_results), the
// table rendered, and the HTML report of both records (linear too: 10^3
// cases 0.40 s, 10^4 3.3 s on the 2-core development machine, 2026-12-07).
// `build/bench/compare_scale [N...]` (default 10^3 10^4 10^5).
#include "report/compare_output.hpp"
#include "report/html.hpp"
#include "results/compare.hpp"
#include "results/summary.hpp"
#include "study/identity.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace formatbench;

namespace {

study_result record(std::size_t n, double scale) {
    study_result r;
    r.spec.name = "scale";
    r.spec.baseline = "f0";
    std::vector<case_spec> specs;
    for (std::size_t i = 0; i < n; ++i) {
        case_result c;
        c.spec.index = i;
        c.spec.dataset.name = fmt::format("d{}", i % 100);
        c.spec.dataset.count = 1000;
        c.spec.format.label = c.spec.format.base_label = c.spec.format.plugin = fmt::format("f{}", i / 100);
        c.payload_bytes = c.file_bytes = 8000;
        for (int k = 0; k < 12; ++k) {
            repetition rep;
            rep.write.wall_s = scale * 1e-3 * (1 + 0.01 * ((k * 7 + static_cast<int>(i)) % 12));
            rep.read.wall_s = scale * 5e-4 * (1 + 0.01 * ((k * 5 + static_cast<int>(i)) % 12));
            c.samples.push_back(rep);
        }
        specs.push_back(c.spec);
        r.cases.push_back(std::move(c));
    }
    assign_identities(specs);
    for (std::size_t i = 0; i < n; ++i)
        r.cases[i].spec = specs[i];
    return r;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::strtoull(argv[i], nullptr, 10));
    if (sizes.empty()) sizes = {1000, 10000, 100000};
    fmt::print("{:>8}  {:>12}  {:>12}  {:>12}  {:>12}\n", "cases", "summary s", "compare s", "table s",
               "report s");
    for (std::size_t n : sizes) {
        study_result a = record(n, 1.0), b = record(n, 1.03);
        auto t = std::chrono::steady_clock::now();
        summarize_study(a);
        summarize_study(b);
        const double summary_s = seconds_since(t) / 2;
        t = std::chrono::steady_clock::now();
        const comparison c = compare_results(a, b, {});
        const double compare_s = seconds_since(t);
        t = std::chrono::steady_clock::now();
        std::ostringstream out;
        write_comparison(c, "table", out);
        const double table_s = seconds_since(t);
        t = std::chrono::steady_clock::now();
        const html_report page = render_html_report({{"a.json", a}, {"b.json", b}}, "");
        const double report_s = seconds_since(t);
        fmt::print("{:>8}  {:>12.3f}  {:>12.3f}  {:>12.3f}  {:>12.3f}  ({} MB of HTML)\n", n, summary_s,
                   compare_s, table_s, report_s, page.html.size() / 1000000);
    }
}
